package ros_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/ros/master"
)

// TestRefusedGainLogBounded: a gain set to a value that is not a number,
// however large (binary, a namespace of thousands of keys, a list of
// them: all a paramUpdate carries, from the master or any client of the
// slave API), is refused and set back with a log line of bounded length;
// so are NaN, +Inf and a boolean.
// The error's "%.100v" bounded strings only: it formatted every element
// of a tree, and each byte of a []byte as 100 digits (300 kB of binary:
// a 30 MB line, to the log and /rosout).
func TestRefusedGainLogBounded(t *testing.T) {
	yp := tooltest.ControllersYAML(t, "../examples/competition/robot.yaml", []string{"shoulder_voltage", "elevator_voltage"}, "")
	d, e, _, lines := tuningRobotLog(t, yp, ros.MasterEmbedded)
	hood := d.Loop.Controller("hood_position")
	tooltest.Eventually(t, 10*time.Second, "the gains on the parameter server", func() bool {
		out, err := e.Run("rosparam", "get", "/hood_position/pid/p")
		return err == nil && strings.TrimSpace(out) == "20.0"
	})
	tree := map[string]any{}
	for i := range 3000 {
		tree[fmt.Sprint("k", i)] = strings.Repeat("v", 40)
	}
	for _, v := range []any{make([]byte, 300<<10), tree, []any{tree, tree}, math.NaN(), math.Inf(1), true} {
		refused, before := hood.Refused(), len(lines())
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err := master.Call(ctx, e.MasterURI, "setParam", "/tester", "/hood_position/pid/p", v)
		cancel()
		if err != nil {
			t.Fatalf("setParam a %T: %v", v, err)
		}
		tooltest.Eventually(t, 10*time.Second, fmt.Sprintf("a %T refused, set back", v), func() bool {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			r, err := master.Call(ctx, e.MasterURI, "getParam", "/tester", "/hood_position/pid/p")
			back, ok := r.([]any)
			return hood.Refused() > refused && err == nil && ok && len(back) == 3 && back[2] == 20.0
		})
		for _, l := range lines()[before:] {
			if len(l) > 1000 {
				t.Errorf("a %T refused: a log line of %d bytes: %.200s...", v, len(l), l)
			}
		}
	}
	if g := hood.Gains(); g.P != 20 {
		t.Errorf("hood p %g, want the YAML's 20", g.P)
	}
}
