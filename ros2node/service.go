package ros2node

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/rtps"
)

// Service answers a ROS 2 service: requests on rq/<name>Request, replies
// on rr/<name>Reply, each in its client's convention (docs/ros2.md
// "Services"):
//   - a client of Fast DDS (vendor 0x010f) marks its request with a related
//     sample identity naming its reply reader; the reply carries {that
//     reader's GUID, or the request writer's, and the request's sequence
//     number} as its related sample identity (ros2/rmw_fastrtps@87cf5d95
//     rmw_request.cpp, rmw_response.cpp);
//   - any other client (Cyclone DDS's rmw, this package) puts a header
//     {uint64 client id; int64 sequence} before the request's fields and
//     gets it back before the reply's (ros2/rmw_cyclonedds@854b89d5
//     serdata.hpp cdds_request_header_t).
type Service struct {
	n       *Node
	w       *rtps.Writer
	r       *rtps.Reader
	handler func(req *cdr.Decoder, resp *cdr.Encoder) error
	// deferred, for a service made by NewDeferredService, takes the
	// request instead of handler; Reply answers it.
	deferred func(req *cdr.Decoder, r Request) error
	mu       sync.Mutex
	enc      cdr.Encoder
	errors   uint64
	held     chan struct{} // replies waiting for their client (send)
}

// Service types: a ROS 2 service pkg/srv/T has the DDS types
// pkg::srv::dds_::T_Request_ and pkg::srv::dds_::T_Response_.
func serviceTypes(rosType string) (req, resp string, err error) {
	t, err := TypeName(rosType) // pkg::srv::dds_::T_
	if err != nil {
		return "", "", err
	}
	return t + "Request_", t + "Response_", nil
}

// NewService serves name (resolved and remapped as a topic is) of type
// rosType (pkg/srv/T). handler reads the request's fields from req and
// writes the response's to resp; an error sends no reply (and is
// counted). It runs on the node's receiving goroutine.
func (n *Node) NewService(name, rosType string, handler func(req *cdr.Decoder, resp *cdr.Encoder) error) (*Service, error) {
	return n.newService(name, rosType, &Service{n: n, handler: handler, held: make(chan struct{}, maxHeldReplies)})
}

func (n *Node) newService(name, rosType string, s *Service) (*Service, error) {
	full, err := ResolveRemapped(n.cfg.Namespace, n.cfg.Name, name, n.cfg.Remaps)
	if err != nil {
		return nil, err
	}
	reqType, respType, err := serviceTypes(rosType)
	if err != nil {
		return nil, err
	}
	if s.w, err = n.p.NewWriterUserData("rr"+full+"Reply", respType, Services, n.userData(respType)); err != nil {
		return nil, err
	}
	if s.r, err = n.p.NewReaderUserData("rq"+full+"Request", reqType, Services, n.userData(reqType), s.onRequest); err != nil {
		return nil, err
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	n.writers = append(n.writers, gidOf(s.w.GUID()))
	n.readers = append(n.readers, gidOf(s.r.GUID()))
	return s, errors.Join(n.added(s.w), n.added(s.r), n.publishInfo())
}

// Errors is the number of requests that got no reply (undecodable, or the
// handler's error).
func (s *Service) Errors() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.errors
}

func (s *Service) onRequest(smp rtps.Sample) {
	var err error
	if s.deferred != nil {
		err = s.take(smp) // without s.mu: the handler may Reply at once
	} else {
		s.mu.Lock()
		err = s.answer(smp)
		s.mu.Unlock()
	}
	if err != nil {
		s.mu.Lock()
		s.errors++
		s.mu.Unlock()
		s.n.p.Logf("ros2node: service %s: request %d of %v: %v", s.r.Topic(), smp.SN, smp.Writer, err)
	}
}

func (s *Service) answer(smp rtps.Sample) error {
	d, r, err := requestOf(smp)
	if err != nil {
		return err
	}
	s.enc.Reset(s.enc.Bytes()[:0], cdr.CDRLE)
	r.header(&s.enc)
	if err := s.handler(d, &s.enc); err != nil {
		return err
	}
	if err := d.Err(); err != nil {
		return err
	}
	return s.send(r, s.enc.Bytes())
}

// Replies held for their client's reply reader: at most maxHeldReplies at
// once per service, each at most replyMatchWait.
const (
	maxHeldReplies = 16
	replyMatchWait = time.Second
)

// send writes the reply payload to r. A client's reply reader is
// discovered (SEDP) about when its request writer is, so a request can
// arrive before the reply writer has matched that reader, and a volatile
// reply written then is lost to it. As rmw_cyclonedds does before it
// answers (rmw_node.cpp, check_for_response_reader), the reply waits, up
// to replyMatchWait, until a reader of the client's participant is
// matched; off the receiving goroutine, so that other samples go on
// arriving, and at most maxHeldReplies at once (past that, or after the
// wait, it is written as it is).
func (s *Service) send(r Request, payload []byte) error {
	if s.w.MatchedPrefix(r.client) {
		return r.write(s.w, payload)
	}
	select {
	case s.held <- struct{}{}:
	default:
		return r.write(s.w, payload)
	}
	p := append([]byte(nil), payload...)
	go func() {
		defer func() { <-s.held }()
		ctx, cancel := context.WithTimeout(context.Background(), replyMatchWait)
		_ = s.w.WaitMatchedPrefix(ctx, r.client)
		cancel()
		if err := r.write(s.w, p); err != nil {
			s.n.p.Logf("ros2node: service %s: a reply held for its client: %v", s.r.Topic(), err)
		}
	}()
	return nil
}
