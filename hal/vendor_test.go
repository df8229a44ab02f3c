package hal

import (
	"errors"
	"testing"
	"time"
)

type vendorBackend struct{ v any }

func (vendorBackend) Now() time.Duration    { return 0 }
func (vendorBackend) DS() DSState           { return DSState{} }
func (vendorBackend) Vin() (float64, error) { return 12, nil }
func (vendorBackend) Close() error          { return nil }
func (b vendorBackend) Vendor() any         { return b.v }

type fakeP6 struct{ opened string }

func (f *fakeP6) OpenTalonFX(bus string, id int) (TalonFX, error) {
	f.opened = "fx " + bus
	return nil, nil
}
func (f *fakeP6) OpenCANcoder(bus string, id int) (CANcoder, error) { return nil, nil }
func (f *fakeP6) OpenPigeon2(bus string, id int) (Pigeon2, error)   { return nil, nil }

// A backend's vendor libraries provide what the backend itself does not.
func TestVendorProviders(t *testing.T) {
	v := &fakeP6{}
	b := vendorBackend{v: v}
	if CapsOf(b)&CapPhoenix6 == 0 {
		t.Errorf("CapsOf = %s, want Phoenix 6 from the vendor", CapsOf(b))
	}
	p, err := OpenPhoenix6(b)
	if err != nil {
		t.Fatal(err)
	}
	p.OpenTalonFX("can1", 1)
	if v.opened != "fx can1" {
		t.Errorf("opened %q", v.opened)
	}
	none := vendorBackend{}
	if CapsOf(none)&CapPhoenix6 != 0 {
		t.Error("no vendor library, yet Phoenix 6")
	}
	if _, err := OpenPhoenix6(none); !errors.Is(err, ErrUnsupported) {
		t.Errorf("OpenPhoenix6 without it: %v", err)
	}
	if _, err := OpenCANMotor(none, "", "TalonSRX", 1); !errors.Is(err, ErrUnsupported) {
		t.Errorf("OpenCANMotor without it: %v", err)
	}
}
