package devices

import (
	"errors"
	"maps"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

// The contract's handle table (doc.go): the state and command interfaces
// each type registers under its name.
var ownHandles = map[string]struct{ states, commands []string }{
	"analog_input":    {[]string{interfaces.Rate, interfaces.Analog}, nil},
	"digital_input":   {[]string{interfaces.Binary}, nil},
	"encoder":         {[]string{interfaces.Rate, interfaces.Analog}, nil},
	"pigeon_imu":      {[]string{interfaces.IMU}, nil},
	"built_in_accel":  {[]string{interfaces.IMU}, nil},
	"analog_output":   {[]string{interfaces.Rate, interfaces.Analog}, []string{interfaces.Analog}},
	"digital_output":  {[]string{interfaces.Binary}, []string{interfaces.Binary}},
	"solenoid":        {[]string{interfaces.Binary}, []string{interfaces.Binary}},
	"double_solenoid": {[]string{interfaces.Ternary}, []string{interfaces.Ternary}},
	"relay":           {[]string{interfaces.Ternary}, []string{interfaces.Ternary}},
	"servo":           {[]string{interfaces.Position}, []string{interfaces.Position}},
	"compressor":      {[]string{interfaces.Binary, interfaces.Compressor}, []string{interfaces.Binary}},
	"pdp":             {[]string{interfaces.PDP}, nil},
	"rev_pdh":         {[]string{interfaces.PDP, interfaces.Binary}, []string{interfaces.Binary}},
	"rev_ph":          {[]string{interfaces.Compressor}, nil},
}

// handleTable is ownHandles plus every speed controller's (config's Speed
// fact): a name/voltage state and command, and the name/rate and
// name/analog states of one with a built-in encoder (its Joint fact a
// RateSource: a REV SPARK). It is made once the drivers have registered.
var handleTable = sync.OnceValue(func() map[string]struct{ states, commands []string } {
	m := maps.Clone(ownHandles)
	for _, typ := range config.TypesWhere(func(t *config.Type) bool { return t.Speed }) {
		states := []string{interfaces.Voltage}
		if config.Lookup(typ).Joint == config.RateSource {
			states = append(states, interfaces.Rate, interfaces.Analog)
		}
		if config.Lookup(typ).EffortState {
			states = append(states, interfaces.Effort)
		}
		m[typ] = struct{ states, commands []string }{states, []string{interfaces.Voltage}}
	}
	return m
})

// The registered drivers and config's device types are the same set, both
// ways: a type config validates can be built, and a driver's type is one
// `frcd validate` knows.
func TestDriversAreConfigTypes(t *testing.T) {
	drivers, types := Types(), config.TypeNames()
	for _, name := range drivers {
		if config.Lookup(name) != registry[name].Type {
			t.Errorf("driver %s: config has another type of that name", name)
		}
	}
	for _, name := range types {
		if !slices.Contains(drivers, name) {
			t.Errorf("config type %s has no driver", name)
		}
	}
	if !slices.Equal(drivers, types) {
		t.Errorf("drivers %v, config types %v", drivers, types)
	}
}

// The handle table names registered types only. (A type may keep its
// handles to its own test instead: the table is the spec's types'.)
func TestTypesRegistered(t *testing.T) {
	types := Types()
	for typ := range handleTable() {
		if !slices.Contains(types, typ) {
			t.Errorf("no driver for %s", typ)
		}
	}
}

// Each type of the table registers its handles: its documented example
// entry built alone, or, when that names another device (a Pigeon on a
// Talon), the example robots' entries of it (TestBuildCompetition,
// TestBuildREVExample).
func TestHandlesOfEachType(t *testing.T) {
	inExamples := map[string]bool{}
	for _, path := range []string{"../examples/competition/robot.yaml", "../examples/rev/robot.yaml"} {
		f, _ := config.Parse(path, must(os.ReadFile(path)))
		for _, d := range f.Devices {
			inExamples[d.TypeName] = true
		}
	}
	for _, name := range Types() {
		if name == "navx" { // its fake is navx_test.go's
			continue
		}
		h, listed := handleTable()[name]
		if !listed {
			continue // its own test checks its handles
		}
		entry := config.Lookup(name).ExampleEntry()
		f, list := config.Parse("example.yaml", []byte("joints:\n  - "+entry+"\n"))
		if list.Errors() > 0 {
			if !inExamples[name] {
				t.Errorf("%s: its example entry %s does not stand alone and no example robot has one", name, entry)
			}
			continue
		}
		r := build(t, f)
		d := f.Devices[0]
		var wantStates, wantCommands []string
		for _, i := range h.states {
			wantStates = append(wantStates, interfaces.Key(d.Name, i))
		}
		for _, i := range h.commands {
			wantCommands = append(wantCommands, interfaces.Key(d.Name, i))
		}
		slices.Sort(wantStates)
		slices.Sort(wantCommands)
		if got := r.reg.StateKeys(); !slices.Equal(got, wantStates) {
			t.Errorf("%s: state keys %v, want %v", name, got, wantStates)
		}
		if got := r.reg.CommandKeys(); !slices.Equal(got, wantCommands) {
			t.Errorf("%s: command keys %v, want %v", name, got, wantCommands)
		}
	}
}

// competition binds the competition robot, less its navX (another
// driver's business, with its own SPI fake).
func competition(t *testing.T) *rig {
	t.Helper()
	data, err := os.ReadFile("../examples/competition/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, list := config.Parse("robot.yaml", data)
	if list.Errors() > 0 {
		t.Fatalf("config: %v", list)
	}
	f.Devices = slices.DeleteFunc(f.Devices, func(d *config.Device) bool { return d.TypeName == "navx" })
	return build(t, f)
}

func TestBuildCompetition(t *testing.T) {
	r := competition(t)
	data, _ := os.ReadFile("../examples/competition/robot.yaml")
	f, _ := config.Parse("robot.yaml", data)
	var wantStates, wantCommands []string
	for _, d := range f.Devices {
		if d.TypeName == "navx" {
			continue
		}
		h := handleTable()[d.TypeName]
		for _, i := range h.states {
			wantStates = append(wantStates, interfaces.Key(d.Name, i))
		}
		for _, i := range h.commands {
			wantCommands = append(wantCommands, interfaces.Key(d.Name, i))
		}
	}
	slices.Sort(wantStates)
	slices.Sort(wantCommands)
	if got := r.reg.StateKeys(); !slices.Equal(got, wantStates) {
		t.Errorf("state keys\n%v\nwant\n%v", got, wantStates)
	}
	if got := r.reg.CommandKeys(); !slices.Equal(got, wantCommands) {
		t.Errorf("command keys\n%v\nwant\n%v", got, wantCommands)
	}
	// A few by name, with their types.
	state[interfaces.PDPState](r, "pdp", interfaces.PDP)
	state[interfaces.CompressorState](r, "compressor", interfaces.Compressor)
	state[interfaces.IMUState](r, "pigeon", interfaces.IMU)
	state[interfaces.RateState](r, "left_drive_encoder", interfaces.Rate)
	state[interfaces.AnalogState](r, "shoulder_pot", interfaces.Analog)
	state[interfaces.AnalogState](r, "left_front_wheel_joint", interfaces.Voltage)
	command[float64](r, "shooter_joint", interfaces.Voltage)
	command[interfaces.Tri](r, "intake_deploy_joint", interfaces.Ternary)
	command[float64](r, "wrist_joint", interfaces.Position)
	// The shared PCM first, then the file's order.
	if r.devs[0].Name() != "pcm 0" || r.devs[1].Name() != "pdp" || len(r.devs) != len(f.Devices) {
		t.Errorf("%d devices, first %s, %s", len(r.devs), r.devs[0].Name(), r.devs[1].Name())
	}
}

// Every output of the competition robot Halts to neutral.
func TestHaltCompetition(t *testing.T) {
	r := competition(t)
	for _, c := range claimAll(r) {
		c(1.2, 0) // 1.2 V, on, forward
	}
	r.cycle2()
	if r.hal.PWM[0].Pulse == 0 || r.hal.DIO[13].High != true || r.hal.Relay[0].Forward != true || !approx(r.hal.Motors[1].Duty, 0.1, 1e-15) {
		t.Fatalf("before Halt: outputs not driven")
	}
	r.halt()
	for i, p := range r.hal.PWM {
		if p.Pulse != 0 {
			t.Errorf("PWM %d: %v after Halt", i, p.Pulse)
		}
	}
	if r.hal.DIO[11].Duty != 0.5 || r.hal.DIO[13].High || r.hal.AnalogOut[0].Volts != 0 || r.hal.Relay[0].Forward || r.hal.Relay[0].Reverse {
		t.Errorf("after Halt: nidec duty %v, LED %v, underglow %v V, relay %+v", r.hal.DIO[11].Duty, r.hal.DIO[13].High, r.hal.AnalogOut[0].Volts, r.hal.Relay[0])
	}
	if r.hal.Motors[1].Duty != 0 || r.hal.Motors[2].Duty != 0 || r.hal.Bus.Last[pcmControl1ID].Data != [8]byte{} {
		t.Errorf("after Halt: CAN motors %v %v, PCM %x", r.hal.Motors[1].Duty, r.hal.Motors[2].Duty, r.hal.Bus.Last[pcmControl1ID].Data)
	}
	for _, key := range r.reg.StateKeys() {
		name, iface, _ := cut(key)
		if iface == interfaces.Voltage {
			if v := state[interfaces.AnalogState](r, name, iface).Value; v != 0 {
				t.Errorf("%s = %v V after Halt", key, v)
			}
		}
	}
}

// claimAll claims every command handle, returning setters: v volts or
// rad or units for float commands, v > 0 for binary ones, forward for
// ternary ones when v > 0.
func claimAll(r *rig) []func(v float64, now time.Duration) {
	var cmds []func(v float64, now time.Duration)
	for _, key := range r.reg.CommandKeys() {
		name, iface, _ := cut(key)
		switch iface {
		case interfaces.Voltage, interfaces.Position, interfaces.Analog:
			c := command[float64](r, name, iface)
			cmds = append(cmds, func(v float64, now time.Duration) { c.Put(v, now) })
		case interfaces.Binary:
			c := command[bool](r, name, iface)
			cmds = append(cmds, func(v float64, now time.Duration) { c.Put(v > 0, now) })
		case interfaces.Ternary:
			c := command[interfaces.Tri](r, name, iface)
			cmds = append(cmds, func(v float64, now time.Duration) {
				switch {
				case v > 0:
					c.Put(interfaces.Forward, now)
				case v < 0:
					c.Put(interfaces.Reverse, now)
				default:
					c.Put(interfaces.Off, now)
				}
			})
		default:
			r.t.Fatalf("command %s of an unknown interface", key)
		}
	}
	return cmds
}

// Read and Write of every device of the competition robot, and Halt, do
// not allocate: fresh, stale, and with the HAL failing.
func TestCompetitionDoesNotAllocate(t *testing.T) {
	r := competition(t)
	cmds := claimAll(r)
	b := r.hal
	frames := []uint32{pcmStatus1ID, pdpStatus1ID, pdpStatus2ID, pdpStatus3ID, pdpEnergyID}
	run := func(fresh bool) float64 {
		i := 0
		return testing.AllocsPerRun(500, func() {
			i++
			b.Advance(time.Millisecond)
			now := b.Now()
			for _, c := range cmds {
				c(float64(i%7)-3, now)
			}
			b.Encoder[0].Edges += 3
			b.AnalogIn[0].Volts = float64(i%50) / 10
			if fresh {
				for _, id := range frames {
					b.Bus.Inject(hal.Frame{ID: id, Len: 8, Data: [8]byte{byte(i)}}, now)
				}
			}
			for _, d := range r.devs {
				_ = d.Read(now, time.Millisecond)
			}
			for k := len(r.devs) - 1; k >= 0; k-- {
				_ = r.devs[k].Write(now, time.Millisecond)
			}
			b.Bus.Sent = b.Bus.Sent[:0]
		})
	}
	if a := run(true); a != 0 {
		t.Errorf("fresh: %v allocations per cycle", a)
	}
	if a := run(false); a != 0 {
		t.Errorf("stale: %v allocations per cycle", a)
	}
	boom := errors.New("failing")
	b.PWM[0].Err, b.Motors[1].StatusErr, b.AnalogIn[1].Err, b.Encoder[2].Err, b.Relay[0].Err = boom, boom, boom, boom, boom
	b.TalonPigeons[1].Err = boom
	if a := run(true); a != 0 {
		t.Errorf("failing: %v allocations per cycle", a)
	}
	if a := testing.AllocsPerRun(100, func() {
		for k := len(r.devs) - 1; k >= 0; k-- {
			_ = r.devs[k].Halt()
		}
	}); a != 0 {
		t.Errorf("Halt: %v allocations", a)
	}
	// The failing cycle did fail.
	if err := r.step(time.Millisecond); !errors.Is(err, boom) {
		t.Errorf("failing cycle: %v", err)
	}
}

func cut(key string) (name, iface string, ok bool) {
	for i := len(key) - 1; i >= 0; i-- {
		if key[i] == '/' {
			return key[:i], key[i+1:], true
		}
	}
	return key, "", false
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
