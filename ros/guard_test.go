package ros

import (
	"testing"

	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_srvs"
)

// TestGuard: a callback's panic goes to onPanic; a service returns zero
// values (the call fails); a callback that does not panic is unchanged.
func TestGuard(t *testing.T) {
	var got []any
	onPanic := func(v any) { got = append(got, v) }
	topic := guard(func(m *std_msgs.Float64) {
		if m.Data > 1 {
			panic("too big")
		}
	}, onPanic).(func(*std_msgs.Float64))
	topic(&std_msgs.Float64{Data: 0.5})
	topic(&std_msgs.Float64{Data: 2})
	srv := guard(func(req *std_srvs.SetBoolReq) (*std_srvs.SetBoolRes, bool) {
		if req.Data {
			panic("enable failed")
		}
		return &std_srvs.SetBoolRes{Success: true}, true
	}, onPanic).(func(*std_srvs.SetBoolReq) (*std_srvs.SetBoolRes, bool))
	if res, ok := srv(&std_srvs.SetBoolReq{Data: false}); !ok || !res.Success {
		t.Errorf("a call that does not panic: %v %v", res, ok)
	}
	if res, ok := srv(&std_srvs.SetBoolReq{Data: true}); ok || res != nil {
		t.Errorf("a call that panicked: %v %v, want nil false", res, ok)
	}
	if len(got) != 2 || got[0] != "too big" || got[1] != "enable failed" {
		t.Errorf("onPanic got %v", got)
	}
}
