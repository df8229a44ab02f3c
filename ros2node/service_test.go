package ros2node

import (
	"testing"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/internal/ddstest"
	"github.com/frcd/frcd/internal/tooltest"
)

type reply struct {
	Seq int64 `json:"seq"`
	Sum int64 `json:"sum"`
}

// TestServiceClients: a Go node serves /add_two_ints
// (example_interfaces/srv/AddTwoInts); a client in rmw_cyclonedds's
// convention on Cyclone DDS (testdata/cyclone/add_client.c) and one in
// rmw_fastrtps's on Fast DDS (testdata/fastdds/add_client.cpp) each get
// their two replies, matched to their requests their own way.
func TestServiceClients(t *testing.T) {
	for _, c := range []struct {
		peer     *ddstest.Peer
		src, idl string
	}{
		{ddstest.Cyclone, "testdata/cyclone/add_client.c", "testdata/AddTwoIntsCyclone.idl"},
		{ddstest.FastDDS, "testdata/fastdds/add_client.cpp", "testdata/AddTwoInts.idl"},
	} {
		t.Run(c.peer.Name, func(t *testing.T) {
			bin := c.peer.Program(t, c.src, c.idl)
			n := newNode(t, "/", "adder")
			s, err := n.NewService("add_two_ints", "example_interfaces/srv/AddTwoInts", func(req *cdr.Decoder, resp *cdr.Encoder) error {
				resp.Int64(req.Int64() + req.Int64())
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			client := tooltest.StartJSON[reply](t, ddstest.Env(ddstest.Domain()), bin)
			for i, want := range []int64{42, -2} {
				r := client.Wait("a reply", func(reply) bool { return true })
				if r.Sum != want || (c.peer == ddstest.Cyclone && r.Seq != int64(i+1)) {
					t.Errorf("reply %d: %+v, want sum %d", i, r, want)
				}
			}
			if e := s.Errors(); e != 0 {
				t.Errorf("%d requests unanswered", e)
			}
		})
	}
}
