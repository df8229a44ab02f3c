package ros

import (
	"errors"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_srvs"
)

// TestEnableAnswersTheReason: /frcd/enable answers failure with the reason
// SetEnabled gives (an e-stop, say), success otherwise.
func TestEnableAnswersTheReason(t *testing.T) {
	l, c, _ := testLoop(t, testYAML)
	var refuse error
	b, err := New(Options{Loop: l, Config: c, Clock: func() time.Duration { return 0 },
		SetEnabled: func(bool) error { return refuse }})
	if err != nil {
		t.Fatal(err)
	}
	if res, _ := b.enable(&std_srvs.SetBoolReq{Data: true}); !res.Success || res.Message != "enabled" {
		t.Errorf("enable: %+v", res)
	}
	refuse = errors.New("not enabled: the robot is e-stopped")
	if res, _ := b.enable(&std_srvs.SetBoolReq{Data: true}); res.Success || res.Message != refuse.Error() {
		t.Errorf("enable while e-stopped: %+v", res)
	}
}
