package daemon

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/robot"
)

// runLimit bounds every wait on a real-time Run (they end on events).
const runLimit = 20 * time.Second

// panicky is a device that panics on demand in Write and, when haltToo, in
// Halt as well.
type panicky struct {
	control.Device
	armed, haltToo atomic.Bool
}

func (p *panicky) Write(now, dt time.Duration) error {
	if p.armed.Load() {
		panic("injected fault in " + p.Name())
	}
	return p.Device.Write(now, dt)
}

func (p *panicky) Halt() error {
	if p.haltToo.Load() {
		panic("injected fault halting " + p.Name())
	}
	return p.Device.Halt()
}

// realTime builds the example robot on the real-time sim; wrap, when set,
// wraps the device of that name.
func realTime(t *testing.T, name string, wrap *panicky) *Daemon {
	t.Helper()
	r, list, err := robot.Load("../examples/competition/robot.urdf", "../examples/competition/robot.yaml")
	if err != nil || list.Errors() > 0 {
		t.Fatalf("load: %v %v", err, list)
	}
	o := Options{Rate: 200, Logf: t.Logf}
	if wrap != nil {
		o.wrap = func(dev control.Device) control.Device {
			if dev.Name() != name {
				return dev
			}
			wrap.Device = dev
			return wrap
		}
	}
	d, err := NewSim(r, SimOptions{RealTime: true, Enabled: true}, o)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// start runs d in real time; the returned channel gives Run's error.
func start(t *testing.T, d *Daemon) (cancel func(), done <-chan error) {
	ctx, stop := context.WithCancel(context.Background())
	ch := make(chan error, 1)
	go func() { ch <- d.Run(ctx) }()
	t.Cleanup(stop)
	return stop, ch
}

// untilMoving commands every controller until some output is not neutral.
func untilMoving(t *testing.T, d *Daemon) {
	t.Helper()
	tooltest.Eventually(t, runLimit, "an output moving", func() bool {
		command(d)
		return len(notNeutral(d)) > 0
	})
}

func wait(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(runLimit):
		t.Fatal("Run did not return")
		return nil
	}
}

// TestRunCancelledIsNeutral: cancelling the real-time Run leaves every
// output on the sim neutral (checked on the sim, not a log line).
func TestRunCancelledIsNeutral(t *testing.T) {
	d := realTime(t, "", nil)
	cancel, done := start(t, d)
	untilMoving(t, d)
	cancel()
	if err := wait(t, done); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if bad := notNeutral(d); len(bad) > 0 {
		t.Errorf("after Run: %s", strings.Join(bad, "; "))
	}
	if d.Sim.DS().Enabled {
		t.Error("still enabled after Run")
	}
}

// TestPanicInDeviceIsNeutral: a device that panics in the loop ends Run
// with the panic, every output neutral; when its Halt panics too, every
// other output still goes neutral.
func TestPanicInDeviceIsNeutral(t *testing.T) {
	for _, haltToo := range []bool{false, true} {
		p := &panicky{}
		p.haltToo.Store(haltToo)
		d := realTime(t, "elevator_joint", p)
		_, done := start(t, d)
		untilMoving(t, d)
		p.armed.Store(true)
		err := wait(t, done)
		var pe *PanicError
		if !errors.As(err, &pe) || pe.Where != "the loop" || !strings.Contains(pe.Error(), "injected fault in elevator_joint") || len(pe.Stack) == 0 {
			t.Fatalf("halt panics %v: Run returned %v, want the loop's panic", haltToo, err)
		}
		bad := notNeutral(d)
		if haltToo {
			if !strings.Contains(err.Error(), "panic in halting the loop: injected fault halting elevator_joint") {
				t.Errorf("the halt's panic is not reported: %v", err)
			}
			// Only the device that cannot halt may keep its output.
			var others []string
			for _, b := range bad {
				if b != "pwm 4 = "+d.Sim.PWMPulse(4).String() {
					others = append(others, b)
				}
			}
			bad = others
		}
		if len(bad) > 0 {
			t.Errorf("halt panics %v: after the panic: %s", haltToo, strings.Join(bad, "; "))
		}
	}
}

// TestPanicOnGoroutineIsNeutral: a panic on a goroutine the daemon watches
// (Recover) ends Run the same way.
func TestPanicOnGoroutineIsNeutral(t *testing.T) {
	d := realTime(t, "", nil)
	_, done := start(t, d)
	untilMoving(t, d)
	go func() {
		defer d.Recover("a test goroutine")
		panic("boom")
	}()
	err := wait(t, done)
	var pe *PanicError
	if !errors.As(err, &pe) || pe.Where != "a test goroutine" || pe.Value != "boom" {
		t.Fatalf("Run returned %v", err)
	}
	if bad := notNeutral(d); len(bad) > 0 {
		t.Errorf("after the panic: %s", strings.Join(bad, "; "))
	}
}
