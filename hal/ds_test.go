package hal

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/frcd/frcd/internal/bounds"
)

func TestParseStation(t *testing.T) {
	for in, want := range map[string]string{"red1": "red 1", "Blue3": "blue 3", "blue4": " 0", "": " 0", "red": " 0"} {
		if a, s := ParseStation(in); fmt.Sprintf("%s %d", a, s) != want {
			t.Errorf("ParseStation(%q) = %s %d", in, a, s)
		}
	}
}

// FuzzParseStation: any text parses within the fuzz bound, to a known
// station (red or blue, 1 to 3) or to none; what it accepts is a station
// name once case and the spaces around it are set aside, and every such
// name is accepted.
func FuzzParseStation(f *testing.F) {
	for _, s := range []string{"red1", " Blue3 ", "blue4", "", "red", "redd1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		defer bounds.Slow(t)()
		a, n := ParseStation(s)
		name := a + strconv.Itoa(n)
		switch {
		case a == "" && n == 0:
			for _, ok := range []string{"red1", "red2", "red3", "blue1", "blue2", "blue3"} {
				if strings.EqualFold(strings.TrimSpace(s), ok) {
					t.Fatalf("%q refused, yet it is %s", s, ok)
				}
			}
		case (a != "red" && a != "blue") || n < 1 || n > 3 || !strings.EqualFold(strings.TrimSpace(s), name):
			t.Fatalf("%q read as %s %d", s, a, n)
		}
	})
}
