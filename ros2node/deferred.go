package ros2node

import (
	"fmt"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/rtps"
)

// Request is one request of a service, kept to answer it later
// (NewDeferredService, Service.Reply): what its client's convention needs
// to match the reply to it (Service's doc).
type Request struct {
	client  rtps.GuidPrefix // the client's participant (its request writer's)
	fast    bool            // the client is Fast DDS's: the identity goes inline
	related rtps.GUID       // Fast DDS: the client's reply reader, or its request writer
	sn      rtps.SequenceNumber
	id      uint64 // any other: the request header
	seq     int64
}

// requestOf is smp's payload, past its request header when it has one,
// and its identity: Fast DDS's inline, or that header.
func requestOf(smp rtps.Sample) (*cdr.Decoder, Request, error) {
	d, err := cdr.NewDecoder(smp.Payload)
	if err != nil {
		return nil, Request{}, err
	}
	if smp.Vendor == rtps.VendorFastDDS {
		r := Request{client: smp.Writer.Prefix, fast: true, related: smp.Writer, sn: smp.SN}
		if g, _, ok := smp.Inline.RelatedSampleIdentity(); ok && g != (rtps.GUID{}) {
			r.related = g // the client's reply reader
		}
		return d, r, nil
	}
	r := Request{client: smp.Writer.Prefix, id: d.Uint64(), seq: d.Int64()}
	if err := d.Err(); err != nil {
		return nil, Request{}, fmt.Errorf("request header: %w", err)
	}
	return d, r, nil
}

// header starts a reply to r: the request header again, in rmw_cyclonedds's
// convention; nothing in Fast DDS's.
func (r Request) header(e *cdr.Encoder) {
	if !r.fast {
		e.Uint64(r.id)
		e.Int64(r.seq)
	}
}

// write sends a reply to r.
func (r Request) write(w *rtps.Writer, payload []byte) error {
	if r.fast {
		return w.WriteInline(payload, rtps.RelatedSampleIdentity(r.related, r.sn))
	}
	return w.Write(payload)
}

// NewDeferredService serves name, of type rosType, as NewService does,
// but its handler need not answer at once: it reads the request's fields
// from req and keeps r for Reply, which answers it later from any
// goroutine (an action's get_result answers when its goal ends). An error
// from handler sends no reply and is counted.
func (n *Node) NewDeferredService(name, rosType string, handler func(req *cdr.Decoder, r Request) error) (*Service, error) {
	return n.newService(name, rosType, &Service{n: n, deferred: handler, held: make(chan struct{}, maxHeldReplies)})
}

// Reply answers r: write writes the response's fields. Safe from any
// goroutine; a reply to a client that has gone is lost, as in rmw.
func (s *Service) Reply(r Request, write func(resp *cdr.Encoder)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.enc.Reset(s.enc.Bytes()[:0], cdr.CDRLE)
	r.header(&s.enc)
	write(&s.enc)
	return s.send(r, s.enc.Bytes())
}

// take passes a deferred service's request to its handler.
func (s *Service) take(smp rtps.Sample) error {
	d, r, err := requestOf(smp)
	if err != nil {
		return err
	}
	if err := s.deferred(d, r); err != nil {
		return err
	}
	return d.Err()
}
