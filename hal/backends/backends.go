// Package backends is the registry of HAL backends: each backend's package
// declares itself once (its --hal name, what it is, the providers it has,
// how it opens, what `frcd validate --hal` checks for it) with a one-line
// init calling MustRegister, and cmd/frcd lists and dispatches from here.
// Adding a backend is one new package and one import line in cmd/frcd;
// no code switches on a backend's name.
package backends

import (
	"fmt"
	"sort"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/diag"
	"github.com/frcd/frcd/hal"
)

// Backend is one HAL backend as the registry knows it, without opening it.
type Backend struct {
	// Name is its --hal name.
	Name string
	// Order places it in lists (help texts, errors): lower first.
	Order int
	// Help says what it is, in --hal's help: "sim (Help)".
	Help string
	// Hint says where it runs, when --hal is missing: "--hal NAME Hint".
	Hint string
	// Caps are the providers it has, known without opening it.
	Caps hal.Caps
	// Vendored are those of Caps it has only through a vendor's library
	// loaded at run time (CTRE's), which the robot must have deployed.
	Vendored hal.Caps
	// Simulated marks the simulated HAL: the daemon builds it from the
	// whole robot (daemon.NewSim), so it has no Open; --sim names it.
	Simulated bool
	// Built is false when this build of frcd lacks the backend (a build
	// tag, cgo); validate still knows its Caps, and Open says how to build
	// a frcd that has it.
	Built bool
	// Open opens a real backend for the robot's checked file, and says
	// where the robot runs for the start-up line. logf takes the backend's
	// own log lines. Nil only when Simulated.
	Open func(f *config.File, logf func(string, ...any)) (b hal.Backend, where string, err error)
	// Validate, when set, adds the backend's own findings about a checked
	// file (`frcd validate --hal NAME`), beside the generic check of each
	// device's needs against Caps.
	Validate func(f *config.File, list *diag.List)
}

var registry = map[string]*Backend{}

// MustRegister adds a backend. Its package calls it from a one-line init;
// a duplicate or empty name, or a real backend without Open, panics.
func MustRegister(b Backend) {
	switch {
	case b.Name == "":
		panic("backends: a backend needs a name")
	case registry[b.Name] != nil:
		panic(fmt.Sprintf("backends: backend %q registered twice", b.Name))
	case b.Open == nil && !b.Simulated:
		panic(fmt.Sprintf("backends: backend %q has no Open", b.Name))
	case b.Open != nil && b.Simulated:
		panic(fmt.Sprintf("backends: the simulated backend %q is built by the daemon, not opened", b.Name))
	}
	registry[b.Name] = &b
}

// Lookup returns the backend of that --hal name.
func Lookup(name string) (Backend, bool) {
	b := registry[name]
	if b == nil {
		return Backend{}, false
	}
	return *b, true
}

// All returns the registered backends in their Order (then by name).
func All() []Backend {
	list := make([]Backend, 0, len(registry))
	for _, b := range registry {
		list = append(list, *b)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].Order != list[j].Order {
			return list[i].Order < list[j].Order
		}
		return list[i].Name < list[j].Name
	})
	return list
}

// Names returns the --hal names in their Order.
func Names() []string {
	var names []string
	for _, b := range All() {
		names = append(names, b.Name)
	}
	return names
}

// Simulated returns the simulated backend (--sim's), if one is registered.
func Simulated() (Backend, bool) {
	for _, b := range All() {
		if b.Simulated {
			return b, true
		}
	}
	return Backend{}, false
}
