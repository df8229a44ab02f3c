package linux

import (
	"errors"
	"strings"
	"testing"

	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
)

// feeds counts the enable feeds, as CTRE's libraries would take them.
type feeds struct{ n int }

func (f *feeds) Feed() { f.n++ }

// CTRE's actuators are fed on every cycle while the robot is enabled, and
// never while it is disabled or e-stopped.
func TestCTREFedOnlyWhileEnabled(t *testing.T) {
	f := &feeds{}
	b := New(Options{}, Parts{CTRE: f})
	b.AdvanceTo(0)
	if f.n != 0 {
		t.Fatalf("fed %d times while disabled", f.n)
	}
	b.SetEnabled(true)
	for i := 1; i <= 3; i++ {
		b.AdvanceTo(0)
		if f.n != i {
			t.Fatalf("after %d enabled cycles, fed %d times", i, f.n)
		}
	}
	b.SetEnabled(false)
	b.AdvanceTo(0)
	if f.n != 3 {
		t.Errorf("fed after disabling: %d", f.n)
	}
	if b.Vendor() != f {
		t.Error("Vendor is not the CTRE libraries")
	}
}

// Without CTRE's libraries a CTRE device fails to open, saying why.
func TestCTREMissing(t *testing.T) {
	b := New(Options{}, Parts{CTREErr: errors.New("ctre: CTRE Phoenix libraries missing: none found")})
	if b.Vendor() != nil {
		t.Error("a Vendor without libraries")
	}
	_, err := hal.OpenCANMotor(b, "", frc.TalonSRX, 1)
	if !errors.Is(err, hal.ErrUnsupported) || !strings.Contains(err.Error(), "none found") {
		t.Errorf("OpenCANMotor: %v", err)
	}
	if _, err := phoenix6.Open(b); !errors.Is(err, hal.ErrUnsupported) || !strings.Contains(err.Error(), "Phoenix") {
		t.Errorf("phoenix6.Open: %v", err)
	}
}
