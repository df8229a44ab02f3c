package ros2node

import (
	"testing"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/rtps"
)

// TestReplyWaitsForClientReader: a request that arrives before the
// service's reply writer has matched its client's reply reader (the
// client made its request writer first, as discovery may show them in
// either order) still gets its reply: the reply is held until a reader of
// the client's participant matches, not written to no one and lost.
func TestReplyWaitsForClientReader(t *testing.T) {
	c := ctx(t)
	server := newNode(t, "/", "adder")
	handled := make(chan struct{}, 1)
	if _, err := server.NewService("add_two_ints", "example_interfaces/srv/AddTwoInts", func(req *cdr.Decoder, resp *cdr.Encoder) error {
		resp.Int64(req.Int64() + req.Int64())
		handled <- struct{}{}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	p := newNode(t, "/", "client").Participant()
	w, err := p.NewWriter("rq/add_two_intsRequest", "example_interfaces::srv::dds_::AddTwoInts_Request_", Services)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WaitMatched(c, 1); err != nil {
		t.Fatal(err)
	}
	var e cdr.Encoder
	e.Reset(nil, cdr.CDRLE)
	e.Uint64(7) // rmw_cyclonedds's request header: client id, sequence
	e.Int64(1)
	e.Int64(40)
	e.Int64(2)
	if err := w.Write(e.Bytes()); err != nil {
		t.Fatal(err)
	}
	select {
	case <-handled: // answered with no reply reader of the client's yet
	case <-c.Done():
		t.Fatal("the request was not handled")
	}
	sums := make(chan int64, 1)
	if _, err := p.NewReader("rr/add_two_intsReply", "example_interfaces::srv::dds_::AddTwoInts_Response_", Services, func(s rtps.Sample) {
		d, err := cdr.NewDecoder(s.Payload)
		if err != nil {
			t.Error(err)
			return
		}
		id, seq, sum := d.Uint64(), d.Int64(), d.Int64()
		if d.Err() != nil || id != 7 || seq != 1 {
			t.Errorf("reply %d %d %d: %v", id, seq, sum, d.Err())
		}
		sums <- sum
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case sum := <-sums:
		if sum != 42 {
			t.Errorf("sum %d, want 42", sum)
		}
	case <-c.Done():
		t.Fatal("the reply written before the client's reader matched was lost")
	}
}
