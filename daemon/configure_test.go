package daemon

import (
	"testing"
	"time"

	"github.com/frcd/frcd/devices"
)

// fakeConfigurer is a devices.Configurer that is configured or not.
type fakeConfigurer struct{ done bool }

func (f *fakeConfigurer) Configure(time.Duration) {}
func (f *fakeConfigurer) Configured() bool        { return f.done }

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
