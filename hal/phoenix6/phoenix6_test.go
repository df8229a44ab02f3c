package phoenix6_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/hal/phoenix6"
)

// backend is a backend whose vendor library (hal.VendorLibs) may provide
// Phoenix 6, as hal/ctre's Lib does for hal/linux and hal/wpihal.
type backend struct{ v any }

func (backend) Now() time.Duration    { return 0 }
func (backend) DS() hal.DSState       { return hal.DSState{} }
func (backend) Vin() (float64, error) { return 12, nil }
func (backend) Close() error          { return nil }
func (b backend) Vendor() any         { return b.v }

type fakeP6 struct{ opened string }

func (f *fakeP6) OpenTalonFX(bus string, id int) (phoenix6.TalonFX, error) {
	f.opened = "fx " + bus
	return nil, nil
}
func (f *fakeP6) OpenCANcoder(bus string, id int) (phoenix6.CANcoder, error) { return nil, nil }
func (f *fakeP6) OpenPigeon2(bus string, id int) (phoenix6.Pigeon2, error)   { return nil, nil }

// Phoenix 6 is a provider hal learns of by registration: CapsOf finds it
// in a backend's vendor library, Open opens it there, and without one
// Open says the backend lacks "CTRE Phoenix 6 devices".
func TestProviderRegistered(t *testing.T) {
	if phoenix6.Cap&hal.AllCaps() == 0 || phoenix6.Cap <= hal.CapAddressableLED {
		t.Fatalf("Cap %#x is not a registered bit of AllCaps %#x", phoenix6.Cap, hal.AllCaps())
	}
	if got := phoenix6.Cap.String(); got != "CTRE Phoenix 6 devices" {
		t.Errorf("Cap.String() = %q", got)
	}
	v := &fakeP6{}
	b := backend{v: v}
	if hal.CapsOf(b)&phoenix6.Cap == 0 {
		t.Errorf("CapsOf = %s, want Phoenix 6 from the vendor", hal.CapsOf(b))
	}
	p, err := phoenix6.Open(b)
	if err != nil {
		t.Fatal(err)
	}
	p.OpenTalonFX("can1", 1)
	if v.opened != "fx can1" {
		t.Errorf("opened %q", v.opened)
	}
	none := backend{}
	if hal.CapsOf(none)&phoenix6.Cap != 0 {
		t.Error("no vendor library, yet Phoenix 6")
	}
	_, err = phoenix6.Open(none)
	if !errors.Is(err, hal.ErrUnsupported) || !strings.Contains(err.Error(), "CTRE Phoenix 6 devices") {
		t.Errorf("Open without it: %v", err)
	}
}

// Names lists the named faults in bit order.
func TestFaultNames(t *testing.T) {
	if got := (phoenix6.Hardware | phoenix6.BadMagnet | phoenix6.Saturated).Names(); got != "hardware, bad magnet, gyro saturated" {
		t.Errorf("Names = %q", got)
	}
	if got := phoenix6.Fault(0).Names(); got != "" {
		t.Errorf("no fault: %q", got)
	}
}
