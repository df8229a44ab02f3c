package xmlrpc

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/peerlimit"
)

// ErrorRes is a special response that sends status code 400.
// in case of errors, the C++ implementation replies with
// <methodResponse><fault><value>..., a structure which would require additional parsing.
type ErrorRes struct{}

// ServerHandler is the prototype of the function passed to Serve().
type ServerHandler func(*RequestRaw) interface{}

// Server is a XML-RPC server.
type Server struct {
	ctx       context.Context
	ctxCancel func()
	wg        sync.WaitGroup
	ln        net.Listener
	hs        *http.Server
	handler   ServerHandler
	maxBody   int64
	limited   *peerlimit.Pool // nil without Limits.MaxConns

	setHandler chan ServerHandler
	done       chan struct{}
}

// Limits bound what one client can make a Server hold: the size of a
// request, how long it may take to arrive, and how many connections are
// served at once. (frcd's fork: upstream had no limit but the write timeout.)
type Limits struct {
	// MaxBodyBytes is the largest request body; a larger one is refused
	// with 413 once that many bytes have been read.
	MaxBodyBytes int64
	// MaxHeaderBytes bounds the request line and headers.
	MaxHeaderBytes int
	// ReadHeaderTimeout bounds the time to read the request's headers,
	// ReadTimeout the whole request, IdleTimeout a kept-alive connection
	// waiting for its next request.
	ReadHeaderTimeout time.Duration
	ReadTimeout       time.Duration
	IdleTimeout       time.Duration
	// MaxConns is how many connections from other computers are served
	// at once, and as many from this one (loopback): peerlimit.Pool.
	MaxConns int
	// MaxConnsPerAddr is how many of them one remote address may hold.
	// Past either, the half-open connection (no request yet, or idle
	// between requests) that has waited longest is closed to make room;
	// with every one busy the new one is closed at once (counted:
	// Server.Refused). Zero means MaxConns.
	MaxConnsPerAddr int
}

// DefaultLimits are the limits NewServer applies. A node's slave API
// requests are a few hundred bytes (a publisherUpdate lists one URI per
// publisher), so 1 MiB leaves room for thousands of publishers.
var DefaultLimits = Limits{
	MaxBodyBytes:      1 << 20,
	MaxHeaderBytes:    16 << 10,
	ReadHeaderTimeout: 5 * time.Second,
	ReadTimeout:       10 * time.Second,
	IdleTimeout:       60 * time.Second,
	MaxConns:          128,
	MaxConnsPerAddr:   32,
}

// NewServer allocates a server with DefaultLimits.
func NewServer(address string, writeTimeout time.Duration) (*Server, error) {
	return NewServerLimits(address, writeTimeout, DefaultLimits)
}

// NewServerLimits allocates a server with the given limits.
func NewServerLimits(address string, writeTimeout time.Duration, limits Limits) (*Server, error) {
	// net.Listen and http.Server are splitted since the latter
	// does not allow to use 0 as port
	ln, err := net.Listen("tcp", address)
	if err != nil {
		return nil, err
	}
	var limited *peerlimit.Pool
	if limits.MaxConns > 0 {
		limited = peerlimit.NewPool(limits.MaxConns, limits.MaxConnsPerAddr)
		ln = limited.Listener(ln)
	}

	ctx, ctxCancel := context.WithCancel(context.Background())

	s := &Server{
		ctx:        ctx,
		ctxCancel:  ctxCancel,
		ln:         ln,
		maxBody:    limits.MaxBodyBytes,
		limited:    limited,
		setHandler: make(chan ServerHandler),
		done:       make(chan struct{}),
	}

	s.hs = &http.Server{
		Handler:           http.HandlerFunc(s.handleRequest),
		WriteTimeout:      writeTimeout,
		ReadHeaderTimeout: limits.ReadHeaderTimeout,
		ReadTimeout:       limits.ReadTimeout,
		IdleTimeout:       limits.IdleTimeout,
		MaxHeaderBytes:    limits.MaxHeaderBytes,
		ConnContext:       peerlimit.ConnContext,
	}

	go s.run()

	return s, nil
}

// Refused counts the connections closed at once for their remote
// address's share (Limits.MaxConnsPerAddr). (frcd's fork.)
func (s *Server) Refused() uint64 {
	if s.limited == nil {
		return 0
	}
	return s.limited.Refused()
}

// Close closes all the server resources.
func (s *Server) Close() {
	s.ctxCancel()
	<-s.done
}

// URL returns the server URL.
func (s *Server) URL(ip net.IP, zone string) string {
	return (&url.URL{
		Scheme: "http",
		Host: (&net.TCPAddr{
			IP:   ip,
			Port: s.ln.Addr().(*net.TCPAddr).Port,
			Zone: zone,
		}).String(),
	}).String()
}

func (s *Server) run() {
	defer close(s.done)

	select {
	case handler := <-s.setHandler:
		s.handler = handler

	case <-s.ctx.Done():
		s.ln.Close()
		return
	}

	go s.hs.Serve(s.ln)

	<-s.ctx.Done()

	s.hs.Shutdown(context.Background())
	s.ln.Close() // in case Shutdown() is called before Serve()
}

func (s *Server) handleRequest(w http.ResponseWriter, req *http.Request) {
	if req.URL.Path != "/RPC2" && req.URL.Path != "/" {
		w.WriteHeader(http.StatusNotFound)
		return
	}

	if req.Method != http.MethodPost {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	defer peerlimit.Serving(req.Context())()

	body := req.Body
	if s.maxBody > 0 {
		body = http.MaxBytesReader(w, body, s.maxBody)
	}

	raw, err := requestDecodeRaw(body)
	if err != nil {
		w.WriteHeader(errorStatus(err))
		return
	}

	res := s.handler(raw)

	if _, ok := res.(ErrorRes); ok {
		w.WriteHeader(errorStatus(raw.err))
		return
	}

	responseEncode(w, res) //nolint:errcheck
}

// Serve starts serving requests and waits until the server is closed.
func (s *Server) Serve(handler ServerHandler) {
	select {
	case s.setHandler <- handler:
	case <-s.ctx.Done():
	}
	s.wg.Wait()
}

// errorStatus is 413 when a request failed for its size, 400 otherwise.
func errorStatus(err error) int {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return http.StatusRequestEntityTooLarge
	}
	return http.StatusBadRequest
}
