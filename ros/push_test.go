package ros

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
)

// TestPush: /sim/push checks the whole message before it moves anything;
// a refused message is counted and logged, and moves nothing.
func TestPush(t *testing.T) {
	l, c, _ := testLoop(t, testYAML)
	type call struct {
		name     string
		pos, vel float64
	}
	var calls []call
	var logs []string
	fail := false
	var now time.Duration // a second passes between refusals: each is logged
	b, err := New(Options{Loop: l, Config: c, Clock: func() time.Duration { now += time.Second; return now },
		Push: func(name string, pos, vel float64) error {
			if fail {
				return errors.New("sim says no")
			}
			calls = append(calls, call{name, pos, vel})
			return nil
		},
		Logf: func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) }})
	if err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	for i, c := range []struct {
		msg  sensor_msgs.JointState
		want string
	}{
		{sensor_msgs.JointState{}, "names no joint"},
		{sensor_msgs.JointState{Name: []string{"arm"}}, "1 names but 0 positions"},
		{sensor_msgs.JointState{Name: []string{"arm", "wheel"}, Position: []float64{1, 2}, Velocity: []float64{1}}, "2 names but 1 velocities"},
		{sensor_msgs.JointState{Name: []string{"arm", "elbow"}, Position: []float64{0.5, 1}}, `no movable joint named "elbow"`},
		{sensor_msgs.JointState{Name: []string{"arm", "arm"}, Position: []float64{0.5, 1}}, `joint "arm" named twice`},
		{sensor_msgs.JointState{Name: []string{"wheel", "arm"}, Position: []float64{1, nan}}, `joint "arm": position NaN`},
		{sensor_msgs.JointState{Name: []string{"arm"}, Position: []float64{0.5}, Velocity: []float64{math.Inf(1)}}, `joint "arm": velocity +Inf`},
	} {
		b.push(&c.msg)
		if len(calls) != 0 {
			t.Fatalf("%+v moved %v", c.msg, calls)
		}
		if st := b.Stats(); st.PushRefused != uint64(i+1) || st.Pushes != 0 {
			t.Errorf("%+v: stats %+v", c.msg, st)
		}
		if last := logs[len(logs)-1]; !strings.Contains(last, c.want) || !strings.Contains(last, "/sim/push") || !strings.Contains(last, "nothing moved") {
			t.Errorf("%+v: log %q, want %q", c.msg, last, c.want)
		}
	}
	b.push(&sensor_msgs.JointState{Name: []string{"arm", "wheel"}, Position: []float64{0.5, 3}})
	b.push(&sensor_msgs.JointState{Name: []string{"wheel"}, Position: []float64{-1}, Velocity: []float64{2}})
	if want := []call{{"arm", 0.5, 0}, {"wheel", 3, 0}, {"wheel", -1, 2}}; !reflect.DeepEqual(calls, want) {
		t.Errorf("calls %v, want %v", calls, want)
	}
	fail = true
	b.push(&sensor_msgs.JointState{Name: []string{"arm"}, Position: []float64{0.1}})
	if st := b.Stats(); st.Pushes != 3 || st.PushRefused != 8 || !strings.Contains(logs[len(logs)-1], "sim says no") {
		t.Errorf("stats %+v, log %q", st, logs[len(logs)-1])
	}
}

// TestPushRefusalsRateLimited: a flood of bad pushes is counted whole but
// logged refusedBurst lines at once, then refusedRate a second, the next
// line saying how many were held back.
func TestPushRefusalsRateLimited(t *testing.T) {
	l, c, _ := testLoop(t, testYAML)
	var now time.Duration
	var logs []string
	b, err := New(Options{Loop: l, Config: c, Clock: func() time.Duration { return now },
		Push: func(string, float64, float64) error { t.Fatal("a refused push moved a joint"); return nil },
		Logf: func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) }})
	if err != nil {
		t.Fatal(err)
	}
	for range 100 {
		b.push(&sensor_msgs.JointState{})
	}
	if len(logs) != int(refusedBurst) {
		t.Errorf("100 refusals at once logged %d lines, want %v", len(logs), refusedBurst)
	}
	now += time.Second
	b.push(&sensor_msgs.JointState{})
	if st := b.Stats(); st.PushRefused != 101 {
		t.Errorf("refused %d, want 101", st.PushRefused)
	}
	if last := logs[len(logs)-1]; len(logs) != int(refusedBurst)+1 || !strings.Contains(last, "(and 95 more refused)") {
		t.Errorf("after a second: %d lines, the last %q", len(logs), last)
	}
}
