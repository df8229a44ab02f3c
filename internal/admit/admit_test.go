package admit

import (
	"errors"
	"fmt"
	"testing"
)

// TestGate: useless clients from one address are capped at PerAddr, the
// newcomer evicting the idlest of them; a useful one is never evicted, so
// a newcomer is refused only when every client in its way is useful; the
// total limit evicts from the address holding the most.
func TestGate(t *testing.T) {
	g := New(Limits{PerAddr: 3, Total: 5})
	var evicted []string
	admit := func(remote, name string) *Ticket {
		t.Helper()
		tk, err := g.Admit(remote)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tk.OnEvict(func() { evicted = append(evicted, name) })
		return tk
	}
	dash := admit("10.0.0.5:1000", "dashboard")
	dash.Touch(true)
	h := []*Ticket{admit("127.0.0.1:1", "h0"), admit("127.0.0.1:2", "h1"), admit("127.0.0.1:3", "h2")}
	h[0].Touch(false) // h1 is now the idlest
	admit("127.0.0.1:4", "h3")
	if fmt.Sprint(evicted) != "[h1]" {
		t.Fatalf("evicted %v, want [h1]", evicted)
	}
	// The total: dashboard + 3 from 127.0.0.1 + one from elsewhere = 5;
	// one more evicts from 127.0.0.1, the address holding the most.
	other := admit("10.0.0.6:1", "other")
	admit("10.0.0.7:1", "newest")
	if len(evicted) != 2 || evicted[1] == "dashboard" || evicted[1] == "other" {
		t.Fatalf("evicted %v: the second should be from 127.0.0.1", evicted)
	}
	// Everyone useful: a newcomer is refused and counted.
	g.mu.Lock()
	for tk := range g.in {
		tk.useful.Store(true)
	}
	g.mu.Unlock()
	if _, err := g.Admit("10.0.0.8:1"); !errors.Is(err, ErrFull) {
		t.Fatalf("admitted past the limits: %v", err)
	}
	other.Leave()
	other.Leave()
	if _, err := g.Admit("10.0.0.8:1"); err != nil {
		t.Fatalf("after a leave: %v", err)
	}
	if s := g.Stats(); s.Clients != 5 || s.Refused != 1 || s.Evicted != 2 {
		t.Errorf("stats %+v", s)
	}
	// OnEvict after the eviction runs at once.
	g2 := New(Limits{PerAddr: 1, Total: 1})
	first, _ := g2.Admit("127.0.0.1:1")
	if _, err := g2.Admit("127.0.0.1:2"); err != nil {
		t.Fatal(err)
	}
	ran := false
	first.OnEvict(func() { ran = true })
	if !ran || !first.Evicted() {
		t.Error("OnEvict after the eviction did not run")
	}
}

// TestGateForgeable: with forgeable addresses, a newcomer at the total
// bound evicts the idlest useless client of its own address, else the
// newest useless one; never the older clients of the address holding
// the most, and it is refused when every client is useful.
func TestGateForgeable(t *testing.T) {
	g := New(Limits{PerAddr: 10, Total: 4, Forgeable: true})
	var evicted []string
	admit := func(remote, name string) *Ticket {
		t.Helper()
		tk, err := g.Admit(remote)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		tk.OnEvict(func() { evicted = append(evicted, name) })
		return tk
	}
	// The laptop holds the most, none of it proven yet.
	l := []*Ticket{admit("10.0.0.2:1", "l0"), admit("10.0.0.2:2", "l1")}
	admit("10.0.0.66:1", "f0")
	admit("10.0.0.67:1", "f1")
	admit("10.0.0.68:1", "f2") // not its address's: the newest, f1
	if fmt.Sprint(evicted) != "[f1]" {
		t.Fatalf("evicted %v, want [f1]", evicted)
	}
	admit("10.0.0.66:2", "f3") // its own address's idlest: f0
	if fmt.Sprint(evicted) != "[f1 f0]" {
		t.Fatalf("evicted %v, want [f1 f0]", evicted)
	}
	g.mu.Lock()
	for tk := range g.in {
		tk.useful.Store(true)
	}
	g.mu.Unlock()
	if _, err := g.Admit("10.0.0.69:1"); !errors.Is(err, ErrFull) {
		t.Fatalf("admitted past the total: %v", err)
	}
	if l[0].Evicted() || l[1].Evicted() {
		t.Fatal("the laptop's clients were evicted")
	}
}
