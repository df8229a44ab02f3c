package control

import (
	"fmt"
	"slices"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
)

// runner is the cycle of a controller type that is no joint family (a
// drive base), built by its Type.New. None of its methods may allocate.
type runner interface {
	// fields is how many numbers its command carries (a twist's 3).
	fields() int
	// observe runs every cycle after the merge, enabled or not: odometry
	// counts wheels pushed by hand too.
	observe(now time.Duration, dt float64)
	// run drives the outputs from a fresh command; false when the
	// feedback it needs is missing (the loop then makes it neutral).
	run(cmd []float64, now time.Duration, dt float64) bool
	// halt makes its outputs neutral and forgets its command's state.
	halt()
}

// fieldRanged is a runner whose command's fields each have a range
// (ranges.go): a drive base's twist.
type fieldRanged interface{ fieldRanges() []commandRange }

// stopper is a runner that stops actively when its command goes stale
// (a drive base, drive.go): the loop runs it at a zero command while
// stopping says so (first on the first stale cycle), then makes it
// neutral.
type stopper interface {
	stopping(now time.Duration, first bool) bool
}

// expirer is a runner told that its command ran past the controller's
// timeout, before it halts (a trajectory's goal aborts saying so).
type expirer interface{ expire() }

// Binder is what a runner's builder binds through: its joints' merged
// states, the command handles it claims, and the robot's description.
type Binder struct {
	name   string
	reg    *interfaces.Registry
	m      *merger
	joints []string // claimed, in order: the controller's Joints
}

// Robot is the checked robot (its URDF's joint origins place a swerve's
// modules).
func (b *Binder) Robot() *robot.Robot { return b.m.robot }

// State returns the merged state of a movable URDF joint, updated each
// cycle before the controllers run.
func (b *Binder) State(joint string) (*interfaces.JointState, error) {
	k, ok := b.m.byName[joint]
	if !ok {
		return nil, fmt.Errorf("controller %q: %q is not a movable URDF joint", b.name, joint)
	}
	return &b.m.joints[k].state, nil
}

// positionLimit is where a movable URDF joint may be put (ranges.go):
// its limits within its device's range; anyValue for another name.
func (b *Binder) positionLimit(joint string) commandRange {
	k, ok := b.m.byName[joint]
	if !ok {
		return anyValue
	}
	return positionLimit(&b.m.joints[k], b.m.robot.Config.Device(joint))
}

// Claim claims a joint's float64 command handle (volts, a device loop's
// position or velocity) for the controller.
func (b *Binder) Claim(joint, iface string) (*interfaces.JointCommand, error) {
	h, err := interfaces.Claim[float64](b.reg, b.name, joint, iface)
	if err == nil && !slices.Contains(b.joints, joint) {
		b.joints = append(b.joints, joint)
	}
	return h, err
}

// bindRunner builds a kindRunner controller's cycle through its type's
// New.
func (c *Controller) bindRunner(cd *config.Device, reg *interfaces.Registry, m *merger) error {
	b := &Binder{name: c.Name, reg: reg, m: m}
	r, err := c.typ.New(cd, b)
	if err != nil {
		return err
	}
	c.run, c.Joints = r, b.joints
	c.stop, _ = r.(stopper)
	c.in.values = make([]float64, r.fields())
	c.vals = make([]float64, r.fields())
	c.zero = make([]float64, r.fields())
	c.valid, c.limit = anyValue, anyValue
	if f, ok := r.(fieldRanged); ok {
		c.fieldValid = f.fieldRanges()
	}
	if t, ok := r.(tunable); ok {
		c.bindGains(t.pids())
	}
	return nil
}
