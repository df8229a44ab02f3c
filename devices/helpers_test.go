package devices

import (
	"errors"
	"fmt"
	"math"
	"os"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal/haltest"
	"github.com/frcd/frcd/interfaces"
)

// rig is a robot bound over a fake backend.
type rig struct {
	t    *testing.T
	hal  *haltest.Backend
	reg  *interfaces.Registry
	devs []Device
	now  time.Duration
}

// bind parses a YAML `joints:` list and builds it over a new fake backend.
func bind(t *testing.T, yaml string) *rig {
	t.Helper()
	return buildOn(t, haltest.New(), yaml)
}

func build(t *testing.T, f *config.File) *rig {
	t.Helper()
	r := &rig{t: t, hal: haltest.New(), reg: interfaces.NewRegistry()}
	devs, err := Build(f, NewEnv(r.hal, r.reg))
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	r.devs = devs
	return r
}

// bindFile parses and builds a YAML file of the repository.
func bindFile(t *testing.T, path string) *rig {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, list := config.Parse(path, data)
	if list.Errors() > 0 {
		t.Fatalf("config: %v", list)
	}
	return build(t, f)
}

// cycle advances the clock by 1 ms and runs Read on every device, then
// Write in reverse, as the loop does; it fails the test on an error.
func (r *rig) cycle() {
	r.t.Helper()
	if err := r.step(time.Millisecond); err != nil {
		r.t.Fatal(err)
	}
}

// step advances the clock by dt and runs one cycle, returning its errors
// joined.
func (r *rig) step(dt time.Duration) error {
	r.hal.Advance(dt)
	r.now = r.hal.Now()
	var errs []error
	for _, d := range r.devs {
		errs = append(errs, d.Read(r.now, dt))
	}
	for i := len(r.devs) - 1; i >= 0; i-- {
		errs = append(errs, r.devs[i].Write(r.now, dt))
	}
	return errors.Join(errs...)
}

// halt runs Halt in reverse order.
func (r *rig) halt() {
	r.t.Helper()
	for i := len(r.devs) - 1; i >= 0; i-- {
		if err := r.devs[i].Halt(); err != nil {
			r.t.Fatal(err)
		}
	}
}

// device returns the built device of that name.
func (r *rig) device(name string) Device {
	r.t.Helper()
	for _, d := range r.devs {
		if d.Name() == name {
			return d
		}
	}
	r.t.Fatalf("no device %q", name)
	return nil
}

func state[T any](r *rig, name, iface string) *T {
	r.t.Helper()
	h, err := interfaces.State[T](r.reg, name, iface)
	if err != nil {
		r.t.Fatal(err)
	}
	return h
}

func command[T any](r *rig, name, iface string) *interfaces.Command[T] {
	r.t.Helper()
	h, err := interfaces.Claim[T](r.reg, "test", name, iface)
	if err != nil {
		r.t.Fatal(err)
	}
	return h
}

func ms(f float64) time.Duration { return time.Duration(math.Round(f * float64(time.Millisecond))) }

func us(f float64) time.Duration { return time.Duration(math.Round(f * float64(time.Microsecond))) }

func approx(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

var nan, inf = math.NaN(), math.Inf(1)

// buildOn parses a YAML `joints:` list and builds it over b.
func buildOn(t *testing.T, b *haltest.Backend, yaml string) *rig {
	t.Helper()
	f, list := config.Parse("test.yaml", []byte(yaml))
	if list.Errors() > 0 {
		t.Fatalf("config: %v", list)
	}
	r := &rig{t: t, hal: b, reg: interfaces.NewRegistry()}
	devs, err := Build(f, NewEnv(b, r.reg))
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	r.devs = devs
	return r
}

// tryBind parses and builds, returning Build's error.
func tryBind(yaml string) ([]Device, error) {
	f, list := config.Parse("test.yaml", []byte(yaml))
	if list.Errors() > 0 {
		return nil, fmt.Errorf("config: %v", list)
	}
	return Build(f, NewEnv(haltest.New(), interfaces.NewRegistry()))
}
