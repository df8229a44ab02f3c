package control

import (
	"errors"
	"fmt"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/urdf"
)

type sourceKind int

const (
	srcRate     sourceKind = iota // position and velocity
	srcLimit                      // pressed -> pos, velocity 0
	srcBinary                     // on -> upper, off -> lower, velocity 0
	srcTernary                    // forward -> upper, reverse -> lower, off -> held
	srcAnalog                     // position only (a servo's commanded angle)
	srcRatePos                    // an analog output's value: position and velocity
	srcNoEffort                   // a digital input or output: effort 0 (the spec)
	srcEffort                     // an actuator's own effort (a SPARK's current × k_eff)
)

// source is one handle feeding a joint's state.
type source struct {
	kind sourceKind
	dev  int // index of the device whose Read must have succeeded
	rate *interfaces.RateState
	bin  *interfaces.BinaryState
	tri  *interfaces.TernaryState
	an   *interfaces.AnalogState
	pos  float64 // srcLimit: the limit

	held    float64 // srcTernary: the last position it reported
	hasHeld bool
}

// mergedJoint is one URDF joint's state and where it comes from.
type mergedJoint struct {
	name         string
	state        interfaces.JointState
	lower, upper float64
	limited      bool    // lower and upper hold (revolute and prismatic joints with <limit>)
	maxVelocity  float64 // the URDF limit's velocity, or 0
	maxEffort    float64 // the URDF limit's effort, or 0
	continuous   bool
	sources      []source

	// effort: the actuator's PDP channel current x k_eff, signed like the
	// applied voltage.
	pdp    *interfaces.PDPState
	pdpDev int
	pdpCh  int
	kEff   float64
	volts  *interfaces.AnalogState

	// limit switches, for safety: indexes into sources.
	lowerSwitch, upperSwitch int

	mimic          int // index of the followed joint, or -1
	mult, mimicOff float64
}

type merger struct {
	joints []mergedJoint
	byName map[string]int
	devOK  []bool // per device: its last Read succeeded
	robot  *robot.Robot
}

// newMerger registers a JointState per movable joint and finds its sources
// in the registry.
func newMerger(r *robot.Robot, reg *interfaces.Registry, devIndex map[string]int, devOK []bool) (*merger, error) {
	m := &merger{joints: make([]mergedJoint, len(r.Joints)), byName: map[string]int{}, devOK: devOK, robot: r}
	var errs []error
	fail := func(err error) { errs = append(errs, err) }
	for i, rj := range r.Joints {
		mj := &m.joints[i]
		mj.name, mj.mimic, mj.lowerSwitch, mj.upperSwitch, mj.pdpDev = rj.Name, -1, -1, -1, -1
		mj.continuous = rj.URDF.Type == urdf.Continuous
		if rj.URDF.HasLimits() {
			mj.lower, mj.upper, mj.limited = rj.URDF.Limit.Lower, rj.URDF.Limit.Upper, true
		}
		if rj.URDF.Limit != nil {
			mj.maxVelocity, mj.maxEffort = rj.URDF.Limit.Velocity, rj.URDF.Limit.Effort
		}
		m.byName[rj.Name] = i
		if err := interfaces.RegisterState(reg, rj.Name, interfaces.Joint, &mj.state); err != nil {
			fail(err)
		}
		dev := func(d *config.Device) int {
			idx, ok := devIndex[d.Name]
			if !ok {
				fail(fmt.Errorf("joint %q: no device %q", rj.Name, d.Name))
			}
			return idx
		}
		add := func(s source) { mj.sources = append(mj.sources, s) }
		// Sensors: the first encoder or analog input gives position and
		// velocity; limit switches and plain digital inputs follow.
		if ps := rj.PositionSensor(); ps != nil {
			if h, err := interfaces.State[interfaces.RateState](reg, ps.Name, interfaces.Rate); err != nil {
				fail(err)
			} else {
				add(source{kind: srcRate, dev: dev(ps), rate: h})
			}
		}
		for _, s := range rj.Sensors {
			if s.Type.Joint != config.SwitchSource {
				continue
			}
			h, err := interfaces.State[interfaces.BinaryState](reg, s.Name, interfaces.Binary)
			if err != nil {
				fail(err)
				continue
			}
			switch s.Str("limit") {
			case "lower":
				mj.lowerSwitch = len(mj.sources)
				add(source{kind: srcLimit, dev: dev(s), bin: h, pos: mj.lower})
			case "upper":
				mj.upperSwitch = len(mj.sources)
				add(source{kind: srcLimit, dev: dev(s), bin: h, pos: mj.upper})
			default:
				add(source{kind: srcBinary, dev: dev(s), bin: h})
				if s.Type.ZeroEffort {
					add(source{kind: srcNoEffort, dev: dev(s)})
				}
			}
		}
		if a := rj.Actuator; a != nil {
			// What the actuator reports of its joint: its type's Joint fact.
			switch a.Type.Joint {
			case config.BinarySource:
				if h, err := interfaces.State[interfaces.BinaryState](reg, a.Name, interfaces.Binary); err != nil {
					fail(err)
				} else {
					add(source{kind: srcBinary, dev: dev(a), bin: h})
					if a.Type.ZeroEffort {
						add(source{kind: srcNoEffort, dev: dev(a)})
					}
				}
			case config.TernarySource:
				if h, err := interfaces.State[interfaces.TernaryState](reg, a.Name, interfaces.Ternary); err != nil {
					fail(err)
				} else {
					add(source{kind: srcTernary, dev: dev(a), tri: h})
				}
			case config.PositionSource:
				if h, err := interfaces.State[interfaces.AnalogState](reg, a.Name, interfaces.Position); err != nil {
					fail(err)
				} else {
					add(source{kind: srcAnalog, dev: dev(a), an: h})
				}
			case config.RateSource:
				if h, err := interfaces.State[interfaces.RateState](reg, a.Name, interfaces.Rate); err != nil {
					fail(err)
				} else {
					add(source{kind: srcRatePos, dev: dev(a), rate: h})
				}
			}
			if a.Type.EffortState {
				if h, err := interfaces.State[interfaces.AnalogState](reg, a.Name, interfaces.Effort); err != nil {
					fail(err)
				} else {
					add(source{kind: srcEffort, dev: dev(a), an: h})
				}
			}
			if rj.PDP != nil {
				pdp, err := interfaces.State[interfaces.PDPState](reg, rj.PDP.Name, interfaces.PDP)
				if err != nil {
					fail(err)
				}
				volts, err := interfaces.State[interfaces.AnalogState](reg, a.Name, interfaces.Voltage)
				if err != nil {
					fail(err)
				}
				mj.pdp, mj.pdpDev, mj.pdpCh, mj.kEff, mj.volts = pdp, dev(rj.PDP), rj.PDPChannel, rj.KEff, volts
			}
		}
	}
	// A joint with no source of its own follows the joint it mimics.
	for i, rj := range r.Joints {
		mj := &m.joints[i]
		if mm := rj.URDF.Mimic; mm != nil && len(mj.sources) == 0 && mj.pdp == nil {
			if k, ok := m.byName[mm.Joint]; ok && k != i {
				mj.mimic, mj.mult, mj.mimicOff = k, mm.Multiplier, mm.Offset
			}
		}
	}
	return m, errors.Join(errs...)
}

// pressed reports whether source i (a limit switch) reads pressed.
func (m *merger) pressed(mj *mergedJoint, i int) bool {
	if i < 0 {
		return false
	}
	s := &mj.sources[i]
	return m.devOK[s.dev] && s.bin.Value
}

// merge rebuilds every joint's state from its sources.
func (m *merger) merge() {
	for i := range m.joints {
		mj := &m.joints[i]
		js := &mj.state
		js.Clear()
		for k := range mj.sources {
			s := &mj.sources[k]
			if !m.devOK[s.dev] {
				continue
			}
			switch s.kind {
			case srcRate:
				if js.Has&interfaces.HasPosition == 0 {
					js.SetPosition(s.rate.State)
					js.SetVelocity(s.rate.Rate)
				}
			case srcLimit:
				if s.bin.Value && js.Has&interfaces.HasPosition == 0 {
					js.SetPosition(s.pos)
					js.SetVelocity(0)
				}
			case srcBinary:
				if js.Has&interfaces.HasPosition == 0 {
					p := mj.lower
					if s.bin.Value {
						p = mj.upper
					}
					js.SetPosition(p)
					js.SetVelocity(0)
				}
			case srcNoEffort:
				if js.Has&interfaces.HasEffort == 0 {
					js.SetEffort(0)
				}
			case srcEffort:
				if js.Has&interfaces.HasEffort == 0 {
					js.SetEffort(s.an.Value)
				}
			case srcTernary:
				switch s.tri.Value {
				case interfaces.Forward:
					s.held, s.hasHeld = mj.upper, true
				case interfaces.Reverse:
					s.held, s.hasHeld = mj.lower, true
				}
				if s.hasHeld && js.Has&interfaces.HasPosition == 0 {
					js.SetPosition(s.held)
				}
			case srcAnalog:
				if js.Has&interfaces.HasPosition == 0 {
					js.SetPosition(s.an.Value)
				}
			case srcRatePos:
				if js.Has&interfaces.HasPosition == 0 {
					js.SetPosition(s.rate.State)
					js.SetVelocity(s.rate.Rate)
				}
			}
		}
		if mj.pdp != nil && m.devOK[mj.pdpDev] && mj.pdpCh >= 0 && mj.pdpCh < interfaces.PDPChannels {
			e := mj.pdp.Current[mj.pdpCh] * mj.kEff
			switch {
			case mj.volts == nil || mj.volts.Value == 0:
				e = 0
			case mj.volts.Value < 0:
				e = -e
			}
			js.SetEffort(e)
		}
	}
	// Mimic joints follow their leader; a chain resolves in URDF order.
	for i := range m.joints {
		mj := &m.joints[i]
		if mj.mimic < 0 {
			continue
		}
		lead := &m.joints[mj.mimic].state
		if lead.Has&interfaces.HasPosition != 0 {
			mj.state.SetPosition(mj.mult*lead.Position + mj.mimicOff)
		}
		if lead.Has&interfaces.HasVelocity != 0 {
			mj.state.SetVelocity(mj.mult * lead.Velocity)
		}
	}
}
