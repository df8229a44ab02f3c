package sparkspec

import (
	"strings"
	"testing"

	"github.com/frcd/frcd/internal/bounds"
)

func TestLoadTheTable(t *testing.T) {
	s, err := Load("../../frc/testdata/spark-frames-2.0.5.txt")
	if err != nil {
		t.Fatal(err)
	}
	f := s.Frames["STATUS_2"]
	if f.Class != 46 || f.Index != 2 || f.ArbID != 0x0205B880 || f.Len != 8 || !f.Periodic || f.PeriodMs != 20 || f.Enabled {
		t.Errorf("STATUS_2: %+v", f)
	}
	if v := s.Frames["GET_FIRMWARE_VERSION"]; !v.RTR || v.Periodic || v.Len != 8 {
		t.Errorf("GET_FIRMWARE_VERSION: %+v", v)
	}
	if g := s.Signals["STATUS_0.VOLTAGE"]; g.Bit != 16 || g.Bits != 12 || g.Type != "uint" || g.Scale != 0.0073260073260073 {
		t.Errorf("STATUS_0.VOLTAGE: %+v", g)
	}
	for _, bad := range []string{"frame X | 1 | 2", "signal X | a | 1 | uint | 1", "frame X | 1 | 2 | 3 | four | - | - | -", "thing"} {
		if _, err := Read(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "line 1") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// Any input reads as a table or an error naming a line, quickly.
func FuzzRead(f *testing.F) {
	f.Add("frame STATUS_0 | 46 | 0 | 33929216 | 8 | - | 10 | true\nsignal STATUS_0.VOLTAGE | 16 | 12 | uint | 0.0073\n")
	f.Add("# comment\n\nframe A | 1 | 2 | 3 | 4 | true | - | -\n")
	f.Fuzz(func(t *testing.T, in string) {
		defer bounds.Slow(t)()
		s, err := Read(strings.NewReader(in))
		if err == nil && (s.Frames == nil || s.Signals == nil) {
			t.Fatal("no error and no table")
		}
	})
}
