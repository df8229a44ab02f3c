package daemon

import (
	"testing"
	"time"

	"github.com/frcd/frcd/devices"
)

// fakeConfigurer is a devices.AskedConfigurer that is configured or not,
// and asked or not.
type fakeConfigurer struct{ done, asked bool }

func (f *fakeConfigurer) Configure(time.Duration) {}
func (f *fakeConfigurer) Configured() bool        { return f.done }
func (f *fakeConfigurer) Asked() bool             { return f.asked }

// Run gives the configurers a turn every configureEvery while one is not
// configured, and every configureIdle once every one is (they then only
// check for resets, every 250 ms): no thread woken 20 times a second for
// nothing.
func TestConfigureTurnEvery(t *testing.T) {
	a, b := &fakeConfigurer{}, &fakeConfigurer{done: true}
	c := configurers{all: []devices.Configurer{a, b}}
	if got := c.turnEvery(); got != configureEvery {
		t.Errorf("one not configured: next turn in %v, want %v", got, configureEvery)
	}
	a.done = true
	if got := c.turnEvery(); got != configureIdle {
		t.Errorf("every one configured: next turn in %v, want %v", got, configureIdle)
	}
	b.done = false // a reset found: configuring again
	if got := c.turnEvery(); got != configureEvery {
		t.Errorf("one reset: next turn in %v, want %v", got, configureEvery)
	}
	if configureIdle > 250*time.Millisecond {
		t.Errorf("configureIdle %v is longer than a CTRE controller's reset check (250 ms)", configureIdle)
	}
}

// While the loop asks a configured device a question (a Talon FX held
// after a dropout asks whether it rebooted, again after each "no" until
// 0.5 s after the sign), the turns come every configureEvery: answers
// every configureIdle would hold it neutral up to 0.75 s, not 0.55 s.
func TestConfigureTurnWhileAsked(t *testing.T) {
	a := &fakeConfigurer{done: true}
	c := configurers{all: []devices.Configurer{&fakeConfigurer{done: true}, a}}
	if got := c.turnEvery(); got != configureIdle {
		t.Errorf("nothing asked: next turn in %v, want %v", got, configureIdle)
	}
	a.asked = true
	if got := c.turnEvery(); got != configureEvery {
		t.Errorf("a question asked: next turn in %v, want %v", got, configureEvery)
	}
}
