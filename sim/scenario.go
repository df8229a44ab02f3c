package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/frcd/frcd/robot"
)

// ScenarioFormat names the scenario file format and its version.
const ScenarioFormat = "frcd-sim-scenario/1"

// Scenario is a simulated robot's starting point, saved as JSON (as
// Veranda saves worlds) so that a run can be replayed: the same robot, the
// same scenario and the same commands give bit-identical results. It
// holds everything the sim's randomness and physics start from: the seed,
// the battery and air, each joint's plant and initial state, the link
// sensors' values, the sensor faults and the disturbances.
//
// A scenario is complete: loaded, it replaces the YAML's `sim:` section
// and the seed. Sim.Scenario gives the one a Sim was built from.
type Scenario struct {
	Format string `json:"format"` // ScenarioFormat
	// Robot is the URDF's robot name; the scenario loads onto that robot
	// only.
	Robot string `json:"robot"`
	Seed  int64  `json:"seed"`
	// Enabled starts the Driver Station enabled (teleop).
	Enabled     bool    `json:"enabled"`
	BatteryV    float64 `json:"battery_voltage"`
	BatteryOhm  float64 `json:"battery_resistance"`
	PressurePSI float64 `json:"pressure_psi"`
	// Plants overrides joints' plants (the YAML's sim: joints:), by name.
	Plants map[string]ScenarioPlant `json:"plants,omitempty"`
	// Joints are the joints' initial states, by name (others start at 0,
	// or the nearest limit).
	Joints map[string]JointState `json:"joints,omitempty"`
	// Sensors are the link sensors' initial values, by YAML name.
	Sensors map[string]float64 `json:"sensors,omitempty"`
	// Faults are the sensors' fault models, by YAML name.
	Faults map[string]SensorFault `json:"faults,omitempty"`
	// Disturbances are the random pushes on joints and the base.
	Disturbances []Disturbance `json:"disturbances,omitempty"`
	// CANFaults are the scheduled silences of CAN devices.
	CANFaults []CANFault `json:"can_faults,omitempty"`
	// Drivetrain is the drive base (the YAML's sim: drivetrain:), and Pose
	// where it starts on the field (x, y, yaw; at rest).
	Drivetrain *Drivetrain `json:"drivetrain,omitempty"`
	Pose       *Pose       `json:"pose,omitempty"`
}

// ScenarioPlant is JointParams as a scenario saves it (times in seconds).
type ScenarioPlant struct {
	Motor    string  `json:"motor,omitempty"`
	Motors   int     `json:"motors,omitempty"`
	Gearing  float64 `json:"gearing,omitempty"`
	Inertia  float64 `json:"inertia,omitempty"`
	Damping  float64 `json:"damping,omitempty"`
	Friction float64 `json:"friction,omitempty"`
	Load     float64 `json:"load,omitempty"`
	Travel   float64 `json:"travel_s,omitempty"`
	Brake    bool    `json:"brake,omitempty"` // a PWM controller's jumper on brake
}

// JointState is a joint's position and velocity (rad or m, and per s).
type JointState struct {
	Position float64 `json:"position"`
	Velocity float64 `json:"velocity"`
}

// ScenarioOf is the scenario of a sim built for r with options o, the
// Driver Station enabled or not.
func ScenarioOf(r *robot.Robot, o Options, enabled bool) *Scenario {
	sc := &Scenario{
		Format: ScenarioFormat, Seed: o.Seed, Enabled: enabled,
		BatteryV: o.Battery.Voltage, BatteryOhm: o.Battery.Resistance, PressurePSI: o.Pressure,
		Joints: copyMap(o.Initial), Sensors: copyMap(o.Sensors),
		Faults: copyMap(o.Faults), Disturbances: copyDisturbances(o.Disturbances),
		Drivetrain: copyDrivetrain(o.Drivetrain), Pose: startPose(o.Pose),
		CANFaults: slices.Clone(o.CANFaults),
	}
	if r != nil && r.URDF != nil {
		sc.Robot = r.URDF.Name
	}
	if len(o.Joints) > 0 {
		sc.Plants = map[string]ScenarioPlant{}
		for n, p := range o.Joints {
			sc.Plants[n] = ScenarioPlant{Motor: p.Motor, Motors: p.Motors, Gearing: p.Gearing, Inertia: p.Inertia,
				Damping: p.Damping, Friction: p.Friction, Load: p.Load, Travel: p.Travel.Seconds(), Brake: p.Brake}
		}
	}
	return sc
}

func copyMap[V any](m map[string]V) map[string]V {
	if len(m) == 0 {
		return nil
	}
	c := make(map[string]V, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}

// copyDisturbances copies a list, clamps included (nil when empty).
func copyDisturbances(ds []Disturbance) []Disturbance {
	if len(ds) == 0 {
		return nil
	}
	c := make([]Disturbance, len(ds))
	for i, d := range ds {
		for _, p := range []**float64{&d.MinX, &d.MaxX, &d.MinY, &d.MaxY} {
			if *p != nil {
				v := **p
				*p = &v
			}
		}
		c[i] = d
	}
	return c
}

// copyDrivetrain copies a drivetrain (empty lists as none).
func copyDrivetrain(d *Drivetrain) *Drivetrain {
	if d == nil {
		return nil
	}
	c := *d
	for _, l := range []*[]string{&c.Left, &c.Right, &c.Drive, &c.Steer} {
		if len(*l) == 0 {
			*l = nil
		} else {
			*l = append([]string(nil), (*l)...)
		}
	}
	return &c
}

// startPose is a starting pose: x, y and yaw, at rest.
func startPose(p *Pose) *Pose {
	if p == nil {
		return nil
	}
	return &Pose{X: p.X, Y: p.Y, Yaw: p.Yaw}
}

// Options are the sim options the scenario starts from, for robot r: an
// error when the scenario is for another robot. New checks the values.
func (sc *Scenario) Options(r *robot.Robot, realTime bool) (Options, error) {
	if r != nil && r.URDF != nil && sc.Robot != r.URDF.Name {
		return Options{}, fmt.Errorf("sim: the scenario is for robot %q, not %q", sc.Robot, r.URDF.Name)
	}
	o := Options{
		Seed: sc.Seed, RealTime: realTime, Enabled: sc.Enabled,
		Battery:  Battery{Voltage: sc.BatteryV, Resistance: sc.BatteryOhm},
		Pressure: sc.PressurePSI,
		Initial:  copyMap(sc.Joints), Sensors: copyMap(sc.Sensors),
		Faults: copyMap(sc.Faults), Disturbances: copyDisturbances(sc.Disturbances),
		Drivetrain: copyDrivetrain(sc.Drivetrain), Pose: startPose(sc.Pose),
		CANFaults: slices.Clone(sc.CANFaults),
	}
	if len(sc.Plants) > 0 {
		o.Joints = map[string]JointParams{}
		for n, p := range sc.Plants {
			if !(p.Travel >= 0 && p.Travel <= 3600) {
				return Options{}, fmt.Errorf("sim: plant %q: travel_s %v must be 0-3600", n, p.Travel)
			}
			o.Joints[n] = JointParams{Motor: p.Motor, Motors: p.Motors, Gearing: p.Gearing, Inertia: p.Inertia,
				Damping: p.Damping, Friction: p.Friction, Load: p.Load, Travel: time.Duration(p.Travel * float64(time.Second)), Brake: p.Brake}
		}
	}
	return o, nil
}

// Save writes the scenario to a file, as indented JSON.
func (sc *Scenario) Save(path string) error {
	var b bytes.Buffer
	if err := sc.Write(&b); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// Write writes the scenario as indented JSON (map keys sorted, so the
// same scenario always gives the same bytes).
func (sc *Scenario) Write(w io.Writer) error {
	out, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		return fmt.Errorf("sim: scenario: %w", err)
	}
	_, err = w.Write(append(out, '\n'))
	return err
}

// LoadScenario reads a scenario file. Errors carry file:line:col.
func LoadScenario(path string) (*Scenario, error) {
	data, err := robot.ReadFile(path, robot.MaxScenarioBytes)
	if err != nil {
		return nil, err
	}
	return ParseScenario(path, data)
}

// ParseScenario decodes a scenario; name prefixes its errors, with the
// line and column. Unknown fields, a missing or other format, and values
// that are not finite are errors, all reported at once.
func ParseScenario(name string, data []byte) (*Scenario, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var sc Scenario
	if err := dec.Decode(&sc); err != nil {
		return nil, fmt.Errorf("%s: %s", jsonPos(name, data, err, dec.InputOffset()), strings.TrimPrefix(err.Error(), "json: "))
	}
	if dec.More() {
		return nil, fmt.Errorf("%s: text after the scenario", posAt(name, data, int(dec.InputOffset())))
	}
	if len(sc.Plants) == 0 { // {} is none, as Write omits it
		sc.Plants = nil
	}
	sc.Joints, sc.Sensors, sc.Faults = copyMap(sc.Joints), copyMap(sc.Sensors), copyMap(sc.Faults)
	sc.Disturbances = copyDisturbances(sc.Disturbances)
	if len(sc.CANFaults) == 0 {
		sc.CANFaults = nil
	}
	sc.Drivetrain, sc.Pose = copyDrivetrain(sc.Drivetrain), startPose(sc.Pose)
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{name}, args...)...))
	}
	if sc.Format != ScenarioFormat {
		bad("format %q: want %q", sc.Format, ScenarioFormat)
	}
	finite := func(what string, v float64) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			bad("%s: %v is not a number", what, v)
		}
	}
	for _, n := range sortedKeys(sc.Joints) {
		finite("joints: "+n+": position", sc.Joints[n].Position)
		finite("joints: "+n+": velocity", sc.Joints[n].Velocity)
	}
	for _, n := range sortedKeys(sc.Sensors) {
		finite("sensors: "+n, sc.Sensors[n])
	}
	if p := sc.Pose; p != nil {
		finite("pose: x", p.X)
		finite("pose: y", p.Y)
		finite("pose: yaw", p.Yaw)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return &sc, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// jsonPos is name:line:col of a decoding error: where it says, else
// where the decoder stopped (after an unknown field's name).
func jsonPos(name string, data []byte, err error, stopped int64) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return posAt(name, data, int(syn.Offset))
	case errors.As(err, &typ):
		return posAt(name, data, int(typ.Offset))
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return name
	}
	// An unknown field is reported once its object has been read: point
	// at the field's name.
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if loc := regexp.MustCompile(regexp.QuoteMeta(field) + `\s*:`).FindIndex(data); loc != nil {
			return posAt(name, data, loc[0])
		}
	}
	return posAt(name, data, int(stopped))
}

// posAt is name:line:col of a byte offset (columns count bytes from 1).
func posAt(name string, data []byte, off int) string {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte{'\n'})
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return fmt.Sprintf("%s:%d:%d", name, line, col)
}
