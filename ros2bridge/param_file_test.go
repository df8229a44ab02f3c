package ros2bridge_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2node"
)

// TestFileParams: --params-file's parameters reach the nodes they name
// as rclcpp gives them: a controller's gains (nested keys or dotted
// names) on its node, /* matching every node, a read-only update_rate and
// NAME.type taken when they are what frcd has; a parameter or node frcd
// does not have is logged and left. A value out of range, of the wrong
// type or for a read-only parameter is refused with its file:line:col,
// counted, and the loop keeps its gain.
func TestFileParams(t *testing.T) {
	yaml := motionYAML(t)
	r, _, err := robot.Load(exampleURDF, yaml)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var logs []string
	logf := func(f string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		logs = append(logs, fmt.Sprintf(f, a...))
	}
	d, b, _ := newBridgeFor(t, yaml, logf, func(o *ros2bridge.Options) {
		o.Manager = control.NewManager(r.Config, o.Loop)
	})
	parse := func(text string) *ros2node.ParamsOverrides {
		t.Helper()
		var o ros2node.ParamsOverrides
		if err := o.Parse("params.yaml", []byte(text)); err != nil {
			t.Fatal(err)
		}
		return &o
	}
	good := parse(`controller_manager:
  ros__parameters:
    update_rate: 100
    turret_position:
      type: frcd_controllers/ProfiledPositionController
turret_position:
  ros__parameters:
    joints: [turret_joint]
    gains:
      turret_joint: {p: 41.0, i: 0.5}
/hood_position:
  ros__parameters:
    gains.hood_joint.p: 9.5
"/*":
  ros__parameters:
    gains:
      hood_joint:
        d: 0.25
nope:
  ros__parameters:
    x: 1
`)
	if errs := b.SetFileParams(good); len(errs) > 0 {
		t.Fatalf("refused: %v", errs)
	}
	turret, hood := d.Loop.Controller("turret_position").Gains(), d.Loop.Controller("hood_position").Gains()
	if turret.P != 41 || turret.I != 0.5 || hood.P != 9.5 || hood.D != 0.25 {
		t.Errorf("turret %+v (want p 41, i 0.5), hood %+v (want p 9.5, d 0.25)", turret, hood)
	}
	mu.Lock()
	all := strings.Join(logs, "\n")
	mu.Unlock()
	for _, want := range []string{"params.yaml:20:3: frcd has no node /nope", "params.yaml:8:13: /turret_position has no parameter joints"} {
		if !strings.Contains(all, want) {
			t.Errorf("no log %q in\n%s", want, all)
		}
	}
	if strings.Contains(all, "hood_joint.d") {
		t.Errorf("a wildcard's parameter that /hood_position took is logged as unknown:\n%s", all)
	}

	refused := b.Stats().Refused
	bad := parse(`turret_position:
  ros__parameters:
    gains:
      turret_joint:
        p: 2000000.0
        d: 3
controller_manager:
  ros__parameters:
    update_rate: 50
`)
	errs := b.SetFileParams(bad)
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	wants := []string{
		"params.yaml:9:18: update_rate:=50 on /controller_manager: parameter update_rate is read only",
		"params.yaml:5:12: gains.turret_joint.p:=2000000.0 on /turret_position: 2e+06 is outside its range 0..1e+06",
		"params.yaml:6:12: gains.turret_joint.d:=3 on /turret_position: wrong parameter type: gains.turret_joint.d is a double, not an integer",
	}
	if len(got) != len(wants) {
		t.Fatalf("errors %q, want %q", got, wants)
	}
	for i := range wants {
		if !strings.Contains(got[i], wants[i]) {
			t.Errorf("error %q, want %q", got[i], wants[i])
		}
	}
	if g := d.Loop.Controller("turret_position").Gains(); g.P != 41 || g.D != turret.D || b.Stats().Refused != refused+3 {
		t.Errorf("after refusals turret %+v, refused %d -> %d", g, refused, b.Stats().Refused)
	}
}
