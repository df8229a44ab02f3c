package apislave

import (
	"fmt"
	"io"
	"net"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/xmlrpc"
)

// ErrorRes is the error returned by the server in case of wrong or unhandled
// requests.
type ErrorRes xmlrpc.ErrorRes

// Server is a Slave API server.
type Server struct {
	nodeIP   net.IP
	nodeZone string

	xs *xmlrpc.Server
}

// NewServer allocates a Server.
func NewServer(address string, nodeIP net.IP, nodeZone string, writeTimeout time.Duration) (*Server, error) {
	xs, err := xmlrpc.NewServer(address, writeTimeout)
	if err != nil {
		return nil, err
	}

	s := &Server{
		nodeIP:   nodeIP,
		nodeZone: nodeZone,
		xs:       xs,
	}

	return s, nil
}

// Refused counts the connections closed at once for their address's
// share (xmlrpc.Limits.MaxConnsPerAddr). (frcd's fork.)
func (s *Server) Refused() uint64 { return s.xs.Refused() }

// Close closes the server.
func (s *Server) Close() {
	s.xs.Close()
}

// URL returns the server URL.
func (s *Server) URL() string {
	return s.xs.URL(s.nodeIP, s.nodeZone)
}

// Serve starts serving requests and waits until the server is closed.
func (s *Server) Serve(handler func(req Request) Response) {
	s.xs.Serve(func(raw *xmlrpc.RequestRaw) interface{} {
		req := newRequest(raw.Method)
		if req == nil {
			return xmlrpc.ErrorRes{}
		}

		err := raw.Decode(req)
		if err != nil {
			return xmlrpc.ErrorRes{}
		}

		return handler(req)
	})
}

// newRequest returns the request of a method, nil for a method the
// server does not serve.
func newRequest(method string) Request {
	switch method {
	case "getBusInfo":
		return &RequestGetBusInfo{}

	case "getPid":
		return &RequestGetPid{}

	case "getPublications":
		return &RequestGetPublications{}

	case "publisherUpdate":
		return &RequestPublisherUpdate{}

	case "paramUpdate":
		return &RequestParamUpdate{}

	case "requestTopic":
		return &RequestRequestTopic{}

	case "shutdown":
		return &RequestShutdown{}
	}
	return nil
}

// Decode decodes a request read from r as Serve does before handing it
// over: so that the path can be tested (and fuzzed) without a server.
// (frcd's fork.)
func Decode(r io.Reader) (Request, error) {
	raw, err := xmlrpc.ReadRequest(r)
	if err != nil {
		return nil, err
	}
	req := newRequest(raw.Method)
	if req == nil {
		return nil, fmt.Errorf("unhandled method %q", raw.Method)
	}
	if err := raw.Decode(req); err != nil {
		return nil, err
	}
	return req, nil
}
