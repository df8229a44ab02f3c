package sim

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strconv"
	"time"

	"github.com/frcd/frcd/hal"
)

// Disturbance kinds.
const (
	DisturbForce    = "force"    // N or N·m, added to the joint's (or base's) dynamics
	DisturbVelocity = "velocity" // m/s or rad/s, carrying the joint (or base) along
)

// DefaultUpdatePeriod is a disturbance's update period when none is given,
// s: Gazebo's RandomVelocityPlugin's.
const DefaultUpdatePeriod = 10.0

// Disturbance is a random push on a joint or the drive base (Gazebo's
// RandomVelocityPlugin): it holds InitialX, InitialY until the first
// UpdatePeriod has passed, then every UpdatePeriod it draws a new value of
// Magnitude in a random direction, clamped per axis. See the package doc's
// "Disturbances".
type Disturbance struct {
	Name  string `json:"name,omitempty"`  // a label
	Joint string `json:"joint,omitempty"` // the URDF joint pushed, or
	Base  bool   `json:"base,omitempty"`  // the drive base, in the field frame
	// Kind is DisturbForce or DisturbVelocity (the default).
	Kind      string  `json:"kind,omitempty"`
	Magnitude float64 `json:"magnitude"`
	// UpdatePeriod is the time between draws, s; DefaultUpdatePeriod when 0.
	UpdatePeriod float64 `json:"update_period,omitempty"`
	// The value before the first draw. A joint has only x.
	InitialX float64 `json:"initial_x,omitempty"`
	InitialY float64 `json:"initial_y,omitempty"`
	// Clamps applied to each draw, per axis; nil is unbounded.
	MinX *float64 `json:"min_x,omitempty"`
	MaxX *float64 `json:"max_x,omitempty"`
	MinY *float64 `json:"min_y,omitempty"`
	MaxY *float64 `json:"max_y,omitempty"`
}

// disturbance is a Disturbance in force.
type disturbance struct {
	d      Disturbance
	j      *joint // nil for the base
	force  bool
	rng    *rand.Rand
	period time.Duration
	next   time.Duration // the next draw
	x, y   float64       // the value in force
	lo, hi [2]float64    // the clamps, ±Inf when unbounded
}

// draw picks the next value: each axis uniform in -1 to 1, normalized,
// times the magnitude, then clamped per axis. A joint has one axis, so its
// direction is a random sign.
func (d *disturbance) draw() {
	var x, y float64
	if d.j != nil {
		x = 1
		if d.rng.Float64() < 0.5 {
			x = -1
		}
	} else {
		for {
			x, y = 2*d.rng.Float64()-1, 2*d.rng.Float64()-1
			if n := math.Hypot(x, y); n > 0 {
				x, y = x/n, y/n
				break
			}
		}
	}
	d.x = max(d.lo[0], min(d.hi[0], x*d.d.Magnitude))
	d.y = max(d.lo[1], min(d.hi[1], y*d.d.Magnitude))
}

// checkDisturbance refuses a disturbance that names no joint the sim can
// push, or whose numbers are out of range; it returns its joint (nil for
// the base) and its update period.
func (s *Sim) checkDisturbance(i int, d Disturbance) (*joint, time.Duration, error) {
	label := "disturbance " + strconv.Itoa(i+1)
	if d.Name != "" {
		label = fmt.Sprintf("disturbance %q", d.Name)
	}
	bad := func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }
	clamp := func(p *float64) bool { return p != nil && bad(*p) }
	switch {
	case d.Kind != "" && d.Kind != DisturbForce && d.Kind != DisturbVelocity:
		return nil, 0, fmt.Errorf("sim: %s: kind %q is not %s or %s", label, d.Kind, DisturbForce, DisturbVelocity)
	case bad(d.Magnitude) || d.Magnitude < 0:
		return nil, 0, fmt.Errorf("sim: %s: magnitude %v must be a number, 0 or more", label, d.Magnitude)
	case bad(d.UpdatePeriod) || d.UpdatePeriod < 0 || (d.UpdatePeriod > 0 && d.UpdatePeriod < 1e-3):
		return nil, 0, fmt.Errorf("sim: %s: update_period %v s must be at least 0.001 s", label, d.UpdatePeriod)
	case bad(d.InitialX) || bad(d.InitialY) || clamp(d.MinX) || clamp(d.MaxX) || clamp(d.MinY) || clamp(d.MaxY):
		return nil, 0, fmt.Errorf("sim: %s: initial values and clamps must be finite numbers", label)
	case d.MinX != nil && d.MaxX != nil && *d.MinX > *d.MaxX, d.MinY != nil && d.MaxY != nil && *d.MinY > *d.MaxY:
		return nil, 0, fmt.Errorf("sim: %s: a min clamp is above its max", label)
	case d.Base == (d.Joint != ""):
		return nil, 0, fmt.Errorf("sim: %s: push a joint or the base, exactly one", label)
	}
	period := d.UpdatePeriod
	if period == 0 {
		period = DefaultUpdatePeriod
	}
	dur := time.Duration(period * float64(time.Second))
	if d.Base {
		if s.base == nil {
			return nil, 0, fmt.Errorf("sim: %s: the base moves only with a drivetrain (sim: drivetrain:)", label)
		}
		return nil, dur, nil
	}
	if d.InitialY != 0 || d.MinY != nil || d.MaxY != nil {
		return nil, 0, fmt.Errorf("sim: %s: a joint has one axis, x: initial_y, min_y and max_y apply to the base", label)
	}
	j := s.byName[d.Joint]
	switch {
	case j == nil:
		return nil, 0, fmt.Errorf("sim: %s: no movable joint named %q: %w", label, d.Joint, hal.ErrNoDevice)
	case j.mimic != nil:
		return nil, 0, fmt.Errorf("sim: %s: joint %q mimics %q and follows it: push that one", label, d.Joint, j.mimic.name)
	case d.Kind == DisturbForce && !j.hasPlant():
		return nil, 0, fmt.Errorf("sim: %s: a force moves a joint with a motor or none; %q is positioned by its actuator (push it with a velocity)", label, d.Joint)
	}
	return j, dur, nil
}

// hasPlant reports whether the joint moves by its dynamics (a motor, or
// nothing): what a force acts on.
func (j *joint) hasPlant() bool {
	switch j.kind {
	case kindPassive, kindPWMMotor, kindNidec, kindCANMotor:
		return true
	}
	return false
}

// SetDisturbances replaces the disturbances; each starts from its initial
// value now and draws every update period from now.
func (s *Sim) SetDisturbances(ds []Disturbance) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.setDisturbances(ds)
}

func (s *Sim) setDisturbances(ds []Disturbance) error {
	var list []*disturbance
	var errs []error
	for i, d := range ds {
		j, period, err := s.checkDisturbance(i, d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		inf := math.Inf(1)
		x := &disturbance{d: d, j: j, force: d.Kind == DisturbForce, period: period, next: s.t + period,
			x: d.InitialX, y: d.InitialY, lo: [2]float64{-inf, -inf}, hi: [2]float64{inf, inf},
			rng: newStream(s.opts.Seed, "disturbance "+strconv.Itoa(i), d.Name)}
		set := func(dst, p *float64) {
			if p != nil {
				*dst = *p
			}
		}
		set(&x.lo[0], d.MinX)
		set(&x.hi[0], d.MaxX)
		set(&x.lo[1], d.MinY)
		set(&x.hi[1], d.MaxY)
		list = append(list, x)
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for _, d := range s.disturb {
		if d.j != nil {
			d.j.ext, d.j.dv, d.j.carried = 0, 0, 0
		}
	}
	s.disturb = list
	return nil
}

// Disturbances returns the disturbances set.
func (s *Sim) Disturbances() []Disturbance {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Disturbance, len(s.disturb))
	for i, d := range s.disturb {
		out[i] = d.d
	}
	return out
}

// DisturbanceValue is the value the i-th disturbance has now (y is 0 for
// a joint); ok is false when there is no such disturbance.
func (s *Sim) DisturbanceValue(i int) (x, y float64, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i < 0 || i >= len(s.disturb) {
		return 0, 0, false
	}
	return s.disturb[i].x, s.disturb[i].y, true
}

// redraw draws the disturbances due by the present time: a value drawn at
// time t is in force from t on.
func (s *Sim) redraw() {
	for _, d := range s.disturb {
		for s.t >= d.next {
			d.draw()
			d.next += d.period
		}
	}
}

// disturbJoints sets the force and velocity each pushed joint gets over
// the present substep.
func (s *Sim) disturbJoints() {
	for _, d := range s.disturb {
		if d.j != nil {
			d.j.ext, d.j.dv = 0, 0
		}
	}
	for _, d := range s.disturb {
		switch {
		case d.j == nil:
		case d.force:
			d.j.ext += d.x
		default:
			d.j.dv += d.x
		}
	}
}

// baseDisturbance is the push on the drive base over the present substep,
// in the field frame: the sum of the force disturbances (N) and of the
// velocity disturbances (m/s) on the base. The drivetrain's model adds
// them to the base's dynamics and motion. Call it holding s.mu.
func (s *Sim) baseDisturbance() (fx, fy, vx, vy float64) {
	for _, d := range s.disturb {
		switch {
		case d.j != nil:
		case d.force:
			fx, fy = fx+d.x, fy+d.y
		default:
			vx, vy = vx+d.x, vy+d.y
		}
	}
	return fx, fy, vx, vy
}
