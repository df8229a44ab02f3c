package jointstate

import (
	"errors"
	"fmt"

	"github.com/frcd/frcd/interfaces"
)

// Truth is the simulator's ground truth, apart from what the sensors
// measure, for both bridges' sim/joint_states_truth and sim/ground_truth.
type Truth struct {
	// Every movable joint: name, true position (rad or m), velocity and
	// effort (N·m or N).
	Names                      []string
	Position, Velocity, Effort []float64
	// HasPose: the sim moves a drive base. Its true pose on the field (m,
	// rad) and twist in its own frame (forward and left m/s, rad/s);
	// BaseFrame names that frame (the URDF's root link).
	HasPose    bool
	BaseFrame  string
	X, Y, Yaw  float64
	VX, VY, WZ float64
}

// ErrPush says why a sim/push message was refused whole.
var ErrPush = errors.New("refused: nothing moved")

// CheckPush checks a sim/push message (a JointState's names, positions
// and velocities) whole, by both bridges' rules: it must name at least
// one joint, each a movable one and once, with one position per name,
// no velocity or one per name, every value finite. seen is cleared and
// used to find a joint named twice (nil: a new map).
func CheckPush(name []string, pos, vel []float64, movable, seen map[string]bool) error {
	switch {
	case len(name) == 0:
		return fmt.Errorf("names no joint: %w", ErrPush)
	case len(pos) != len(name):
		return fmt.Errorf("%d names but %d positions: %w", len(name), len(pos), ErrPush)
	case len(vel) != 0 && len(vel) != len(name):
		return fmt.Errorf("%d names but %d velocities (give none, or one per joint): %w", len(name), len(vel), ErrPush)
	}
	if seen == nil {
		seen = make(map[string]bool, len(name))
	}
	clear(seen)
	for i, n := range name {
		if !movable[n] {
			return fmt.Errorf("no movable joint named %q: %w", n, ErrPush)
		}
		if seen[n] {
			return fmt.Errorf("joint %q named twice: %w", n, ErrPush)
		}
		seen[n] = true
		if !interfaces.Finite(pos[i]) {
			return fmt.Errorf("joint %q: position %v: %w", n, pos[i], ErrPush)
		}
		if len(vel) > 0 && !interfaces.Finite(vel[i]) {
			return fmt.Errorf("joint %q: velocity %v: %w", n, vel[i], ErrPush)
		}
	}
	return nil
}
