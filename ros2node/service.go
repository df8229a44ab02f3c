package ros2node

import (
	"fmt"
	"sync"

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
	mu      sync.Mutex
	enc     cdr.Encoder
	errors  uint64
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
	full, err := ResolveRemapped(n.cfg.Namespace, n.cfg.Name, name, n.cfg.Remaps)
	if err != nil {
		return nil, err
	}
	reqType, respType, err := serviceTypes(rosType)
	if err != nil {
		return nil, err
	}
	s := &Service{n: n, handler: handler}
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
	return s, n.publishInfo()
}

// Errors is the number of requests that got no reply (undecodable, or the
// handler's error).
func (s *Service) Errors() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.errors
}

func (s *Service) onRequest(smp rtps.Sample) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.answer(smp); err != nil {
		s.errors++
		s.n.p.Logf("ros2node: service %s: request %d of %v: %v", s.r.Topic(), smp.SN, smp.Writer, err)
	}
}

func (s *Service) answer(smp rtps.Sample) error {
	d, err := cdr.NewDecoder(smp.Payload)
	if err != nil {
		return err
	}
	s.enc.Reset(s.enc.Bytes()[:0], cdr.CDRLE)
	if smp.Vendor == rtps.VendorFastDDS {
		related := smp.Writer
		if g, _, ok := smp.Inline.RelatedSampleIdentity(); ok && g != (rtps.GUID{}) {
			related = g // the client's reply reader
		}
		if err := s.handler(d, &s.enc); err != nil {
			return err
		}
		if err := d.Err(); err != nil {
			return err
		}
		return s.w.WriteInline(s.enc.Bytes(), rtps.RelatedSampleIdentity(related, smp.SN))
	}
	id, seq := d.Uint64(), d.Int64()
	if err := d.Err(); err != nil {
		return fmt.Errorf("request header: %w", err)
	}
	s.enc.Uint64(id)
	s.enc.Int64(seq)
	if err := s.handler(d, &s.enc); err != nil {
		return err
	}
	if err := d.Err(); err != nil {
		return err
	}
	return s.w.Write(s.enc.Bytes())
}
