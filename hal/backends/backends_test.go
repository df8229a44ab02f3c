package backends

import (
	"errors"
	"strings"
	"testing"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
)

// withRegistry runs a test on an empty registry and restores the real one.
func withRegistry(t *testing.T) {
	t.Helper()
	saved := registry
	registry = map[string]*Backend{}
	t.Cleanup(func() { registry = saved })
}

var errClosed = errors.New("no such robot")

func openFails(*config.File, func(string, ...any)) (hal.Backend, string, error) {
	return nil, "", errClosed
}

// The registry lists by Order, then name; Lookup finds by name and
// returns a copy; Simulated finds the sim whatever its name.
func TestRegistryOrder(t *testing.T) {
	withRegistry(t)
	MustRegister(Backend{Name: "zeta", Order: 1, Open: openFails, Caps: hal.CapCAN})
	MustRegister(Backend{Name: "beta", Order: 2, Open: openFails})
	MustRegister(Backend{Name: "alpha", Order: 2, Open: openFails})
	MustRegister(Backend{Name: "fake", Order: 3, Simulated: true, Caps: hal.AllCaps()})
	if got := strings.Join(Names(), " "); got != "zeta alpha beta fake" {
		t.Errorf("Names %q, want zeta alpha beta fake", got)
	}
	b, ok := Lookup("zeta")
	if !ok || b.Caps != hal.CapCAN {
		t.Fatalf("Lookup(zeta): %+v, %v", b, ok)
	}
	if _, _, err := b.Open(nil, nil); !errors.Is(err, errClosed) {
		t.Errorf("zeta's Open: %v", err)
	}
	b.Caps = 0 // a copy: the registry keeps its own
	if again, _ := Lookup("zeta"); again.Caps != hal.CapCAN {
		t.Error("changing Lookup's result changed the registry")
	}
	if _, ok := Lookup("rio"); ok {
		t.Error("Lookup found a backend never registered")
	}
	if s, ok := Simulated(); !ok || s.Name != "fake" {
		t.Errorf("Simulated: %+v, %v", s, ok)
	}
}

// No simulated backend registered: Simulated says so.
func TestNoSimulated(t *testing.T) {
	withRegistry(t)
	MustRegister(Backend{Name: "real", Open: openFails})
	if _, ok := Simulated(); ok {
		t.Error("Simulated found one among real backends only")
	}
}

// A duplicate or empty name, a real backend without Open, or a simulated
// one with an Open panics at registration, naming the backend.
func TestMustRegisterRefuses(t *testing.T) {
	withRegistry(t)
	MustRegister(Backend{Name: "real", Open: openFails})
	for _, c := range []struct {
		b    Backend
		want string
	}{
		{Backend{Name: "real", Open: openFails}, `"real" registered twice`},
		{Backend{Open: openFails}, "needs a name"},
		{Backend{Name: "closed"}, `"closed" has no Open`},
		{Backend{Name: "both", Simulated: true, Open: openFails}, `"both" is built by the daemon`},
	} {
		func() {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, c.want) {
					t.Errorf("MustRegister(%+v): panic %v, want %q", c.b.Name, r, c.want)
				}
			}()
			MustRegister(c.b)
		}()
	}
	if got := strings.Join(Names(), " "); got != "real" {
		t.Errorf("after the refusals the registry holds %q", got)
	}
}
