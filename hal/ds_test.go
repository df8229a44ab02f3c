package hal

import (
	"fmt"
	"testing"
)

func TestParseStation(t *testing.T) {
	for in, want := range map[string]string{"red1": "red 1", "Blue3": "blue 3", "blue4": " 0", "": " 0", "red": " 0"} {
		if a, s := ParseStation(in); fmt.Sprintf("%s %d", a, s) != want {
			t.Errorf("ParseStation(%q) = %s %d", in, a, s)
		}
	}
}
