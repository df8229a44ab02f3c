package ros2bridge_test

import (
	"context"
	"testing"
	"time"

	"github.com/frcd/frcd/cdr"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// reply is a SetBool response with rmw_cyclonedds's request header.
type reply struct {
	id, seq int64
	success bool
	message string
}

// TestEnableService calls /frcd/enable (std_srvs/srv/SetBool) as
// rmw_cyclonedds's client does (a {client id, sequence} header before
// the request's bool): disabling answers success "disabled" and the loop
// is disabled; enabling on the sim answers "enabled" and it is enabled;
// without SetEnabled (real hardware) the answer is a failure.
func TestEnableService(t *testing.T) {
	for _, hw := range []bool{false, true} {
		d, b, _ := newBridge(t, t.Logf, func(o *ros2bridge.Options) {
			if hw {
				o.SetEnabled = nil
			}
		})
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		runDone := make(chan error, 1)
		go func() { runDone <- b.Run(ctx) }()
		cfg := discovery(t)
		cfg.Name = "client"
		peer, err := ros2node.New(ros2node.Config{Name: "client", RTPS: cfg})
		if err != nil {
			t.Fatal(err)
		}
		replies := make(chan reply, 10)
		p := peer.Participant()
		if _, err := p.NewReader("rr/frcd/enableReply", "std_srvs::srv::dds_::SetBool_Response_", ros2node.Services, func(s rtps.Sample) {
			dec, err := cdr.NewDecoder(s.Payload)
			if err != nil {
				t.Error(err)
				return
			}
			r := reply{id: int64(dec.Uint64()), seq: dec.Int64(), success: dec.Bool(), message: dec.String()}
			if dec.Err() != nil {
				t.Error(dec.Err())
				return
			}
			replies <- r
		}); err != nil {
			t.Fatal(err)
		}
		w, err := p.NewWriter("rq/frcd/enableRequest", "std_srvs::srv::dds_::SetBool_Request_", ros2node.Services)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WaitMatched(ctx, 1); err != nil {
			t.Fatal(err)
		}
		seq := int64(0)
		// call sends the request until a reply to it arrives (the
		// service's writer may not know the reply reader yet).
		call := func(on bool) reply {
			t.Helper()
			seq++
			var e cdr.Encoder
			e.Reset(nil, cdr.CDRLE)
			e.Uint64(7)
			e.Int64(seq)
			e.Bool(on)
			for {
				if err := w.Write(e.Bytes()); err != nil {
					t.Fatal(err)
				}
				select {
				case r := <-replies:
					if r.seq == seq {
						if r.id != 7 {
							t.Fatalf("reply %+v: the request header not repeated", r)
						}
						return r
					}
				case <-time.After(100 * time.Millisecond):
				case <-ctx.Done():
					t.Fatal("no reply from /frcd/enable")
				}
			}
		}
		if r := call(false); hw != !r.success || hw && r.message != "frcd runs on real hardware: the Driver Station enables the robot" || !hw && r.message != "disabled" {
			t.Fatalf("hardware %v: disable answered %+v", hw, r)
		}
		if !hw {
			d.Step()
			if snap := d.Loop.NewSnapshot(); func() bool { d.Loop.ReadSnapshot(snap); return snap.Enabled }() {
				t.Fatal("still enabled after /frcd/enable false")
			}
			if r := call(true); !r.success || r.message != "enabled" {
				t.Fatalf("enable answered %+v", r)
			}
			d.Step()
			if snap := d.Loop.NewSnapshot(); func() bool { d.Loop.ReadSnapshot(snap); return !snap.Enabled }() {
				t.Fatal("not enabled after /frcd/enable true")
			}
		}
		cancel()
		<-runDone
		peer.Close()
	}
}

// TestHandlerPanic: a panic in a handler (here SetEnabled's) goes to
// OnPanic, as the daemon needs to make every output neutral.
func TestHandlerPanic(t *testing.T) {
	panics := make(chan any, 10)
	newBridge(t, t.Logf, func(o *ros2bridge.Options) {
		o.SetEnabled = func(bool) error { panic("boom") }
		o.OnPanic = func(v any) { panics <- v }
	})
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	cfg := discovery(t)
	cfg.Name = "client"
	peer, err := ros2node.New(ros2node.Config{Name: "client", RTPS: cfg})
	if err != nil {
		t.Fatal(err)
	}
	defer peer.Close()
	w, err := peer.Participant().NewWriter("rq/frcd/enableRequest", "std_srvs::srv::dds_::SetBool_Request_", ros2node.Services)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WaitMatched(ctx, 1); err != nil {
		t.Fatal(err)
	}
	var e cdr.Encoder
	e.Reset(nil, cdr.CDRLE)
	e.Uint64(7)
	e.Int64(1)
	e.Bool(true)
	if err := w.Write(e.Bytes()); err != nil {
		t.Fatal(err)
	}
	select {
	case v := <-panics:
		if v != "boom" {
			t.Fatalf("OnPanic got %v", v)
		}
	case <-ctx.Done():
		t.Fatal("OnPanic not called")
	}
}
