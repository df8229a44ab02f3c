package hal

import (
	"errors"
	"strings"
	"testing"
	"time"
)

type vendorBackend struct{ v any }

func (vendorBackend) Now() time.Duration    { return 0 }
func (vendorBackend) DS() DSState           { return DSState{} }
func (vendorBackend) Vin() (float64, error) { return 12, nil }
func (vendorBackend) Close() error          { return nil }
func (b vendorBackend) Vendor() any         { return b.v }

// gadgets is a provider declared as a package outside hal declares one
// (hal/phoenix6).
type gadgets interface{ OpenGadget(id int) (string, error) }

type fakeGadgets struct{ opened int }

func (f *fakeGadgets) OpenGadget(id int) (string, error) { f.opened = id; return "gadget", nil }

var capGadgets = RegisterCap[gadgets]("test gadgets")

// A backend's vendor libraries provide what the backend itself does not,
// for hal's providers and registered ones alike.
func TestVendorProviders(t *testing.T) {
	v := &fakeGadgets{}
	b := vendorBackend{v: v}
	if CapsOf(b)&capGadgets == 0 {
		t.Errorf("CapsOf = %s, want the registered provider from the vendor", CapsOf(b))
	}
	p, ok := ProviderOf[gadgets](b)
	if !ok {
		t.Fatal("ProviderOf found no gadgets in the vendor")
	}
	p.OpenGadget(7)
	if v.opened != 7 {
		t.Errorf("opened %d", v.opened)
	}
	none := vendorBackend{}
	if CapsOf(none)&capGadgets != 0 {
		t.Error("no vendor library, yet gadgets")
	}
	if _, ok := ProviderOf[gadgets](none); ok {
		t.Error("ProviderOf found gadgets without a vendor library")
	}
	if err := LackError(none, capGadgets); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "test gadgets") {
		t.Errorf("LackError = %v, want ErrUnsupported naming the provider", err)
	}
	if _, err := OpenCANMotor(none, "", "TalonSRX", 1); !errors.Is(err, ErrUnsupported) {
		t.Errorf("OpenCANMotor without it: %v", err)
	}
	if CapsOf(v) != capGadgets {
		t.Errorf("CapsOf(the vendor itself) = %s, want only the registered provider", CapsOf(v))
	}
}

// A registered provider takes the next bit after hal's own, is named in
// Caps.String and counted in AllCaps; a name given twice panics.
func TestRegisterCap(t *testing.T) {
	if capGadgets <= CapAddressableLED {
		t.Errorf("registered bit %#x collides with or precedes hal's own", capGadgets)
	}
	if AllCaps()&capGadgets == 0 || AllCaps()&CapPWM == 0 {
		t.Errorf("AllCaps %#x lacks the registered bit %#x", AllCaps(), capGadgets)
	}
	if got := (CapCAN | capGadgets).String(); got != "a CAN bus, test gadgets" {
		t.Errorf("String = %q", got)
	}
	// what a backend lacks reads "has no CAN bus", not "has no a CAN bus"
	if got := (CapCAN | CapIMU | capGadgets).Lacked(); got != "CAN bus, built-in IMU, test gadgets" {
		t.Errorf("Lacked = %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("a second registration of the same name did not panic")
		}
	}()
	RegisterCap[gadgets]("test gadgets")
}
