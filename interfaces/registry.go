package interfaces

import (
	"fmt"
	"sort"
	"strings"
)

// Registry holds every handle by key. It is filled while the daemon starts
// (devices register, controllers claim) and only read after; it is not safe
// for concurrent use.
type Registry struct {
	states   map[string]any
	commands map[string]*commandEntry
}

type commandEntry struct {
	handle  any
	owner   string // the device that registered it
	claimer string // the controller that claimed it, or ""
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{states: map[string]any{}, commands: map[string]*commandEntry{}}
}

// RegisterState adds a state handle. A key registered twice is an error.
func RegisterState[T any](r *Registry, name, iface string, h *T) error {
	k := Key(name, iface)
	if _, dup := r.states[k]; dup {
		return fmt.Errorf("state handle %q is already registered", k)
	}
	r.states[k] = h
	return nil
}

// State returns the state handle of that key, which must be of type T.
func State[T any](r *Registry, name, iface string) (*T, error) {
	k := Key(name, iface)
	h, ok := r.states[k]
	if !ok {
		return nil, fmt.Errorf("no state handle %q", k)
	}
	t, ok := h.(*T)
	if !ok {
		var want *T
		return nil, fmt.Errorf("state handle %q is a %T, not a %T", k, h, want)
	}
	return t, nil
}

// RegisterCommand adds a command handle, registered by owner (the device
// that writes it to the hardware). A key registered twice is an error.
func RegisterCommand[T any](r *Registry, owner, name, iface string, h *Command[T]) error {
	k := Key(name, iface)
	if e, dup := r.commands[k]; dup {
		return fmt.Errorf("command handle %q is already registered by %s", k, e.owner)
	}
	r.commands[k] = &commandEntry{handle: h, owner: owner}
	return nil
}

// Claim gives claimer (a controller) the command handle of that key. A
// command handle has one claimer: a second claim is an error naming both.
func Claim[T any](r *Registry, claimer, name, iface string) (*Command[T], error) {
	k := Key(name, iface)
	e, ok := r.commands[k]
	if !ok {
		return nil, fmt.Errorf("%s: no command handle %q", claimer, k)
	}
	if e.claimer != "" {
		return nil, fmt.Errorf("%s: command handle %q is already claimed by %s", claimer, k, e.claimer)
	}
	h, ok := e.handle.(*Command[T])
	if !ok {
		var want *Command[T]
		return nil, fmt.Errorf("%s: command handle %q is a %T, not a %T", claimer, k, e.handle, want)
	}
	e.claimer = claimer
	return h, nil
}

// LookupCommand returns the command handle of that key without claiming
// it: for the loop's safety phase, which may make any output neutral, and
// for inspection. It must be of type T.
func LookupCommand[T any](r *Registry, name, iface string) (*Command[T], error) {
	k := Key(name, iface)
	e, ok := r.commands[k]
	if !ok {
		return nil, fmt.Errorf("no command handle %q", k)
	}
	h, ok := e.handle.(*Command[T])
	if !ok {
		var want *Command[T]
		return nil, fmt.Errorf("command handle %q is a %T, not a %T", k, e.handle, want)
	}
	return h, nil
}

// CommandsOf returns every command handle of type T, in key order: for the
// loop's safety phase, which checks every float command before it is
// written.
func CommandsOf[T any](r *Registry) []*Command[T] {
	var out []*Command[T]
	for _, k := range sortedKeys(r.commands) {
		if h, ok := r.commands[k].handle.(*Command[T]); ok {
			out = append(out, h)
		}
	}
	return out
}

// Release gives back a claim, so that another controller may claim the
// handle. Releasing a handle one does not hold is an error.
func (r *Registry) Release(claimer, name, iface string) error {
	k := Key(name, iface)
	e, ok := r.commands[k]
	if !ok || e.claimer != claimer {
		return fmt.Errorf("%s: does not hold command handle %q", claimer, k)
	}
	e.claimer = ""
	return nil
}

// Claimer returns who holds the command handle of that key, or "".
func (r *Registry) Claimer(name, iface string) string {
	if e, ok := r.commands[Key(name, iface)]; ok {
		return e.claimer
	}
	return ""
}

// StatesOf returns the names and handles of every state handle of that
// interface, in key order: for the loop's snapshot of IMUs, PDPs and
// compressors. Handles of another type under that interface are skipped.
func StatesOf[T any](r *Registry, iface string) (names []string, handles []*T) {
	suffix := "/" + iface
	for _, k := range sortedKeys(r.states) {
		h, ok := r.states[k].(*T)
		if !ok || !strings.HasSuffix(k, suffix) {
			continue
		}
		names = append(names, strings.TrimSuffix(k, suffix))
		handles = append(handles, h)
	}
	return names, handles
}

// StateKeys returns every state handle's key, sorted.
func (r *Registry) StateKeys() []string { return sortedKeys(r.states) }

// CommandKeys returns every command handle's key, sorted.
func (r *Registry) CommandKeys() []string { return sortedKeys(r.commands) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
