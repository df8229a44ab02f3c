package control

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

// TestForwardTypes: the voltage, position, velocity and effort types (one
// joint or a group) take forward commands on "commands"; the others
// (solenoids, a trajectory, a drive base...) do not.
func TestForwardTypes(t *testing.T) {
	want := map[string]bool{config.JointVoltageController: true, config.JointGroupVoltage: true, config.JointPositionController: true,
		config.JointVelocityController: true, config.JointEffortController: true, config.ServoPositionController: true}
	for name, typ := range types {
		if typ.Forward != want[name] {
			t.Errorf("%s: Forward %v, want %v", name, typ.Forward, want[name])
		}
	}
	for name := range want {
		if types[name] == nil {
			t.Errorf("no type %s", name)
		}
	}
}

// TestCommandJoints: a forward command is one value per joint: a group
// takes its CommandGroup, a one-joint controller an array of one; an
// array of another length, a NaN or an Inf is refused whole, counted, and
// leaves the outputs as they were.
func TestCommandJoints(t *testing.T) {
	const fURDF = `<robot name="f"><link name="base"/><link name="l"/><link name="r"/><link name="a"/>
  <joint name="left" type="continuous"><parent link="base"/><child link="l"/></joint>
  <joint name="right" type="continuous"><parent link="base"/><child link="r"/></joint>
  <joint name="arm" type="continuous"><parent link="base"/><child link="a"/></joint></robot>`
	const fYAML = "joints:\n  - {name: left, type: talon, id: 0}\n  - {name: right, type: talon, id: 1}\n  - {name: arm, type: talon, id: 2}\n" +
		"controllers:\n  js: {type: joint_state_controller/JointStateController}\n" +
		"  drive: {type: voltage_controllers/JointGroupVoltageController, joints: [right, left]}\n" +
		"  arm_v: {type: voltage_controllers/JointVoltageController, joint: arm}\n"
	var left, right, arm interfaces.JointCommand
	l := voltageLoop(t, fURDF, fYAML, map[string]*interfaces.JointCommand{"left": &left, "right": &right, "arm": &arm})
	drive, armV := l.Controller("drive"), l.Controller("arm_v")
	if drive.ForwardTopic() != ForwardTopic || armV.ForwardTopic() != "commands" {
		t.Fatalf("forward topics %q %q, want commands", drive.ForwardTopic(), armV.ForwardTopic())
	}
	now := 10 * time.Millisecond
	if err := drive.CommandJoints([]float64{3, -4}, now); err != nil {
		t.Fatal(err)
	}
	if err := armV.CommandJoints([]float64{2}, now); err != nil {
		t.Fatal(err)
	}
	l.Cycle(now)
	if right.Value != 3 || left.Value != -4 || arm.Value != 2 {
		t.Fatalf("right %v left %v arm %v, want 3 -4 2", right.Value, left.Value, arm.Value)
	}
	for _, bad := range [][]float64{{1}, {1, 2, 3}, {1, nan()}, nil} {
		if err := drive.CommandJoints(bad, now); !errors.Is(err, ErrRefused) {
			t.Errorf("drive CommandJoints(%v) = %v, want refused", bad, err)
		}
	}
	for _, bad := range [][]float64{{1, 2}, {nan()}, {math.Inf(-1)}, nil} {
		if err := armV.CommandJoints(bad, now); !errors.Is(err, ErrRefused) {
			t.Errorf("arm_v CommandJoints(%v) = %v, want refused", bad, err)
		}
	}
	if drive.Refused() != 4 || armV.Refused() != 4 {
		t.Errorf("refused %d and %d, want 4 each", drive.Refused(), armV.Refused())
	}
	now += 10 * time.Millisecond
	l.Cycle(now)
	if right.Value != 3 || left.Value != -4 || arm.Value != 2 {
		t.Errorf("a refused command changed the outputs: right %v left %v arm %v", right.Value, left.Value, arm.Value)
	}
}

// voltageLoop is an enabled loop of the robot in urdfText and yamlText
// whose joints' voltage handles are cmds.
func voltageLoop(t *testing.T, urdfText, yamlText string, cmds map[string]*interfaces.JointCommand) *Loop {
	t.Helper()
	u, ul := urdf.Parse("t.urdf", []byte(urdfText))
	c, cl := config.Parse("t.yaml", []byte(yamlText))
	r, xl := robot.Check(u, c)
	if ul.Errors()+cl.Errors()+xl.Errors() > 0 {
		t.Fatalf("robot: %v %v %v", ul, cl, xl)
	}
	reg := interfaces.NewRegistry()
	for name, h := range cmds {
		if err := interfaces.RegisterCommand(reg, name, name, interfaces.Voltage, h); err != nil {
			t.Fatal(err)
		}
	}
	l, err := New(r, reg, nil, &fakeDS{hal.DSState{Enabled: true, Attached: true}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestCommandDOFs: a PID controller's reference names its joint, or no
// joint; another name or count is refused; controllers without a PID have
// no reference topic.
func TestCommandDOFs(t *testing.T) {
	g := newDevLoopRig(t, devLoopYAML)
	c := g.l.Controller("lift_pos")
	if c.ReferenceTopic() != ReferenceTopic || c.ForwardTopic() != ForwardTopic {
		t.Fatalf("topics %q %q", c.ReferenceTopic(), c.ForwardTopic())
	}
	now := 10 * time.Millisecond
	for _, names := range [][]string{{"lift"}, nil} {
		if err := c.CommandDOFs(names, []float64{0.5}, now); err != nil {
			t.Errorf("CommandDOFs(%q, [0.5]): %v", names, err)
		}
	}
	for _, bad := range []struct {
		names []string
		vs    []float64
	}{{[]string{"arm"}, []float64{0.5}}, {[]string{"lift", "lift"}, []float64{0.5, 0.5}}, {nil, []float64{0.5, 0.5}}, {[]string{"lift"}, []float64{nan()}}} {
		if err := c.CommandDOFs(bad.names, bad.vs, now); !errors.Is(err, ErrRefused) {
			t.Errorf("CommandDOFs(%q, %v) = %v, want refused", bad.names, bad.vs, err)
		}
	}
	if c.Refused() != 4 {
		t.Errorf("refused %d, want 4", c.Refused())
	}
	var v interfaces.JointCommand
	l := voltageLoop(t, "<robot name=\"v\"><link name=\"b\"/><link name=\"a\"/><joint name=\"arm\" type=\"continuous\"><parent link=\"b\"/><child link=\"a\"/></joint></robot>",
		"joints:\n  - {name: arm, type: talon, id: 0}\ncontrollers:\n  arm_v: {type: voltage_controllers/JointVoltageController, joint: arm}\n",
		map[string]*interfaces.JointCommand{"arm": &v})
	if got := l.Controller("arm_v").ReferenceTopic(); got != "" {
		t.Errorf("a voltage controller's reference topic %q, want none", got)
	}
}
