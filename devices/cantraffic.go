package devices

import (
	"fmt"
	"slices"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/diag"
	"github.com/frcd/frcd/frc"
	"github.com/frcd/frcd/hal"
)

// CANFrame is one periodic frame a CAN device and the robot controller
// exchange, for the bus load estimate and the inventory.
type CANFrame struct {
	Name string
	// API is the 10-bit API (class and index) of its FRC id (frc.FRCID).
	API    int
	Len    int           // data bytes
	Period time.Duration // default period; 0 for a frame sent now and then (a parameter write) or instead of another (a set point of another mode): not in the load
	// FromDevice is true for the device's status frames, false for the
	// controller's control frames to it.
	FromDevice bool
}

// CANKind is a kind of CAN device: its FRC device type, manufacturer and
// the frames it exchanges at their default periods.
type CANKind struct {
	Name         string // "CTRE PDP"
	DevType, Mfr int
	Frames       []CANFrame
	// Rider marks a device whose frames go out under another's type and
	// number (a Pigeon cabled to a Talon SRX): the inventory knows its
	// frames by their exact ids only.
	Rider bool
	// BusFrames are the controller's frames to device number 0 that serve
	// every device of the kind on a bus at once (REV's SPARK heartbeat):
	// the load counts each once per bus, the inventory knows them as
	// control frames.
	BusFrames []CANFrame
}

// ID is the frame's arbitration id for device number n.
func (k *CANKind) ID(f CANFrame, n int) uint32 { return frc.FRCID(k.DevType, k.Mfr, f.API, n) }

// The kinds of CAN device frcd knows. Sources, and what is assumed:
//
//   - CTRE PDP: Status1-3 (API 0x50-0x52) and Energy (0x5D), 8 bytes, every
//     25 ms (allwpilib CTREPDP.cpp StatusPeriodMs = 25; PROTOCOLS.md).
//
//   - CTRE PCM: Status1, StatusSolFaults and StatusDebug (0x50-0x52), 8
//     bytes every 25 ms (CTREPCM.cpp StatusPeriodMs = 25); Control1 (0x70),
//     8 bytes every 20 ms (ControlSendPeriod = 20).
//
//   - Talon SRX and Victor SPX, Phoenix 5 defaults (v5.docs.ctr-electronics.com
//     "Common Device API", status groups): Status 1 General every 10 ms,
//     Status 2 Feedback0 every 20 ms, the other status groups ">100 ms",
//     taken as 160 ms here; frame ids from StatusFrameEnhanced (0x1400...:
//     API = value >> 6). The control frame Control_3_General (0x040080, API
//     0x02) goes every 10 ms, Phoenix's default. The Victor SPX has no
//     sensor ports, so no Status 3 (quadrature) or 8 (pulse width).
//
//   - Pigeon IMU: device type 0x15 with CTRE's manufacturer (its base
//     arbitration id 0x15000000, CTRE's PigeonIMU_LowLevel), status frames
//     from PigeonIMU_StatusFrame (CondStatus_1_General 0x042000, API
//     0x80...). Default periods: YPR (CondStatus 9) and fused heading
//     (CondStatus 6) 10 ms, accumulated gyro (11) 20 ms, general (1)
//     100 ms, the others ">100 ms" taken as 160 ms (from Phoenix 5's
//     documentation; no public Pigeon frame spec exists, PROTOCOLS.md).
//     A Pigeon cabled to a Talon SRX sends the same frames through it,
//     with the Talon's device type and number.
//
//   - REV PDH: Status0-4 (API 0x60-0x64), 8 bytes every 20 ms (allwpilib
//     REVPDH.cpp reads each with a timeout of twice kPDHFrameStatusNTimeout
//     = 20 ms).
//
//   - REV PH: Status0-1 (API 0x60-0x61), 8 bytes every 20 ms (REVPH.cpp,
//     likewise); SetAll (API 0x30), 4 bytes every 20 ms from the
//     controller (kDefaultControlPeriod). CompressorConfig goes on change
//     only and is not counted.
//
// Frames are taken at 8 bytes where the length is not published.
var (
	canPDP = &CANKind{Name: "CTRE PDP", DevType: frc.DevPowerDistribution, Mfr: frc.MfrCTRE, Frames: []CANFrame{
		{"Status1", 0x50, 8, 25 * time.Millisecond, true},
		{"Status2", 0x51, 8, 25 * time.Millisecond, true},
		{"Status3", 0x52, 8, 25 * time.Millisecond, true},
		{"Energy", 0x5D, 8, 25 * time.Millisecond, true},
	}}
	canPCM = &CANKind{Name: "CTRE PCM", DevType: frc.DevPneumatics, Mfr: frc.MfrCTRE, Frames: []CANFrame{
		{"Status1", 0x50, 8, 25 * time.Millisecond, true},
		{"StatusSolFaults", 0x51, 8, 25 * time.Millisecond, true},
		{"StatusDebug", 0x52, 8, 25 * time.Millisecond, true},
		{"Control1", 0x70, 8, 20 * time.Millisecond, false},
	}}
	canTalonSRX = &CANKind{Name: "CTRE Talon SRX", DevType: frc.DevMotorController, Mfr: frc.MfrCTRE,
		Frames: append(phoenixMotorFrames(), CANFrame{"Status_3_Quadrature", 0x52, 8, phoenixSlow, true},
			CANFrame{"Status_8_PulseWidth", 0x57, 8, phoenixSlow, true})}
	canVictorSPX = &CANKind{Name: "CTRE Victor SPX", DevType: frc.DevMotorController, Mfr: frc.MfrCTRE, Frames: phoenixMotorFrames()}
	canREVPDH    = &CANKind{Name: "REV PDH", DevType: frc.DevPowerDistribution, Mfr: frc.MfrREV, Frames: []CANFrame{
		{"Status0", 0x60, 8, 20 * time.Millisecond, true},
		{"Status1", 0x61, 8, 20 * time.Millisecond, true},
		{"Status2", 0x62, 8, 20 * time.Millisecond, true},
		{"Status3", 0x63, 8, 20 * time.Millisecond, true},
		{"Status4", 0x64, 8, 20 * time.Millisecond, true},
	}}
	canREVPH = &CANKind{Name: "REV PH", DevType: frc.DevPneumatics, Mfr: frc.MfrREV, Frames: []CANFrame{
		{"Status0", 0x60, 8, 20 * time.Millisecond, true},
		{"Status1", 0x61, 8, 20 * time.Millisecond, true},
		{"SetAll", 0x30, 4, 20 * time.Millisecond, false},
	}}
	canPigeon        = &CANKind{Name: "CTRE Pigeon IMU", DevType: pigeonDevType, Mfr: frc.MfrCTRE, Frames: pigeonFrames()}
	canPigeonOnTalon = &CANKind{Name: "CTRE Pigeon IMU on a Talon SRX", DevType: frc.DevMotorController, Mfr: frc.MfrCTRE, Frames: pigeonFrames(), Rider: true}
)

// pigeonDevType is the device type of a Pigeon IMU's frames on CAN: its
// base id 0x15000000 (CTRE's, outside the FRC device type list).
const pigeonDevType = 0x15

// phoenixSlow is the period taken for Phoenix status groups documented as
// ">100 ms".
const phoenixSlow = 160 * time.Millisecond

// phoenixMotorFrames are the frames a Talon SRX and a Victor SPX share.
func phoenixMotorFrames() []CANFrame {
	return []CANFrame{
		{"Control_3_General", 0x02, 8, 10 * time.Millisecond, false},
		{"Status_1_General", 0x50, 8, 10 * time.Millisecond, true},
		{"Status_2_Feedback0", 0x51, 8, 20 * time.Millisecond, true},
		{"Status_4_AinTempVbat", 0x53, 8, phoenixSlow, true},
		{"Status_10_Targets", 0x59, 8, phoenixSlow, true},
		{"Status_12_Feedback1", 0x5B, 8, phoenixSlow, true},
		{"Status_13_Base_PIDF0", 0x5C, 8, phoenixSlow, true},
		{"Status_14_Turn_PIDF1", 0x5D, 8, phoenixSlow, true},
	}
}

func pigeonFrames() []CANFrame {
	return []CANFrame{
		{"CondStatus_9_SixDeg_YPR", 0x88, 8, 10 * time.Millisecond, true},
		{"CondStatus_6_SensorFusion", 0x85, 8, 10 * time.Millisecond, true},
		{"CondStatus_11_GyroAccum", 0x8A, 8, 20 * time.Millisecond, true},
		{"CondStatus_1_General", 0x80, 8, 100 * time.Millisecond, true},
		{"CondStatus_2_GeneralCompass", 0x81, 8, phoenixSlow, true},
		{"CondStatus_3_GeneralAccel", 0x82, 8, phoenixSlow, true},
		{"CondStatus_10_SixDeg_Quat", 0x89, 8, phoenixSlow, true},
		{"BiasedStatus_2_Gyro", 0x71, 8, phoenixSlow, true},
		{"BiasedStatus_4_Mag", 0x73, 8, phoenixSlow, true},
		{"BiasedStatus_6_Accel", 0x75, 8, phoenixSlow, true},
	}
}

// CANTraffic is the CAN device an entry of a type puts on its bus: a
// kind, numbered by a key, or what Of says when the entry decides (a
// solenoid puts its pneumatics module there, a Pigeon cabled to a Talon
// the Talon's frames).
type CANTraffic struct {
	Kind      *CANKind
	NumberKey string
	Of        func(d *config.Device) (kind *CANKind, number int, bus string, ok bool)
}

// CANDevice is one physical device the YAML puts on a CAN bus: a PCM
// appears once however many solenoids name it.
type CANDevice struct {
	Kind   *CANKind
	Number int
	Bus    string // config.Device.CANBus: "" the default bus, however it is named
	// Label names the bus in reports: the default bus by its name (can0,
	// or the first of linux: can), the others by their can_bus.
	Label string
	// Entries are the YAML entries that name it, in file order; Required
	// is true when any of them is `required`.
	Entries  []*config.Device
	Required bool
}

// Name is the device's YAML name: its first entry's, and the others' after
// a comma.
func (d *CANDevice) Name() string {
	s := ""
	for i, e := range d.Entries {
		if i > 0 {
			s += ", "
		}
		s += e.Name
	}
	return s
}

// StatusIDs are the ids the device sends.
func (d *CANDevice) StatusIDs() []uint32 {
	var ids []uint32
	for _, f := range d.Kind.Frames {
		if f.FromDevice {
			ids = append(ids, d.Kind.ID(f, d.Number))
		}
	}
	return ids
}

// key is what makes two entries the same physical device: a Pigeon on a
// Talon SRX shares the Talon's bus, type, manufacturer and number, and is
// a device of its own.
func (d *CANDevice) key() canKey {
	return canKey{d.Bus, d.Kind.DevType, d.Kind.Mfr, d.Number, d.Kind}
}

type canKey struct {
	bus               string
	devType, mfr, num int
	kind              *CANKind
}

// canDeviceOf is the CAN device a YAML entry puts on its bus, or ok false.
func canDeviceOf(d *config.Device) (kind *CANKind, number int, bus string, ok bool) {
	if d.Type == nil {
		return nil, 0, "", false
	}
	drv := registry[d.Type.Name]
	if drv == nil || drv.CAN == nil {
		return nil, 0, "", false
	}
	if drv.CAN.Of != nil {
		return drv.CAN.Of(d)
	}
	return drv.CAN.Kind, d.Int(drv.CAN.NumberKey), d.CANBus(), true
}

// pneumaticsCAN is the CAN device of an entry on a pneumatics module (a
// solenoid, a compressor): the PCM or PH of its module_type and pcm_id.
func pneumaticsCAN(d *config.Device) (*CANKind, int, string, bool) {
	module, id := config.PneumaticsModule(d)
	if module == config.ModuleREVPH {
		return canREVPH, id, d.CANBus(), true
	}
	return canPCM, id, d.CANBus(), true
}

// ExpectedCAN lists the physical CAN devices of a robot's YAML, in file
// order of their first entry.
func ExpectedCAN(c *config.File) []*CANDevice {
	var out []*CANDevice
	byKey := map[canKey]*CANDevice{}
	def := c.DefaultCANBus()
	for _, d := range c.Devices {
		kind, n, bus, ok := canDeviceOf(d)
		if !ok {
			continue
		}
		dev := &CANDevice{Kind: kind, Number: n, Bus: bus, Label: bus}
		if bus == "" {
			dev.Label = def
		}
		if have := byKey[dev.key()]; have != nil {
			dev = have
		} else {
			byKey[dev.key()] = dev
			out = append(out, dev)
		}
		dev.Entries = append(dev.Entries, d)
		dev.Required = dev.Required || d.Bool("required")
	}
	return out
}

// The load thresholds of `frcd validate`.
const (
	CANLoadWarn  = 0.70
	CANLoadError = 0.90
)

// BusLoad is one CAN bus's estimated load.
type BusLoad struct {
	Bus     string `json:"bus"` // its name: the default bus's is can0, or the first of linux: can
	Devices int    `json:"devices"`
	// FramesPerSecond and BitsPerSecond count both ways, the heartbeat
	// included; Load is BitsPerSecond / hal.CANBitRate.
	FramesPerSecond float64 `json:"frames_per_second"`
	BitsPerSecond   float64 `json:"bits_per_second"`
	Load            float64 `json:"load"`
	// First is the bus's first device in the file, where findings go.
	First *config.Device `json:"-"`
}

// BusName names a bus for messages: "default" for "".
func BusName(bus string) string {
	if bus == "" {
		return "default"
	}
	return bus
}

// String is the line `frcd validate` prints.
func (b BusLoad) String() string {
	return fmt.Sprintf("CAN bus %s: %d %s, %.1f %% estimated load (%.0f frames/s, %.0f kbit/s of %d)",
		BusName(b.Bus), b.Devices, plural(b.Devices, "device"), 100*b.Load, b.FramesPerSecond, b.BitsPerSecond/1000, hal.CANBitRate/1000)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// heartbeatFrame is the universal heartbeat, on every bus with devices:
// the roboRIO's, or frcd's where it owns the bus.
var heartbeatFrame = CANFrame{"heartbeat", 0x061, 8, hal.HeartbeatPeriod, false}

// EstimateCANLoad estimates each bus's load from its devices' frames at
// their default periods, buses in natural order of their names (can2
// before can10); devices without can_bus and those naming the default
// bus are on one bus. Each frame counts at its
// worst-case length on the wire (hal.WorstFrameBits: every stuff bit the
// data could need), a safe bound: the contents, and so the stuffing,
// change from frame to frame, and a bus must have room for the worst.
// Typical frames are 5-10 % shorter (hal.FrameBits of real data).
func EstimateCANLoad(c *config.File) []BusLoad {
	byBus := map[string]*BusLoad{}
	busFrames := map[string]map[uint32]bool{} // by bus: the BusFrames counted
	for _, d := range ExpectedCAN(c) {
		b := byBus[d.Label]
		if b == nil {
			b = &BusLoad{Bus: d.Label, First: d.Entries[0]}
			byBus[d.Label] = b
			busFrames[d.Label] = map[uint32]bool{}
			addFrame(b, heartbeatFrame)
		}
		b.Devices++
		for _, f := range d.Kind.Frames {
			addFrame(b, f)
		}
		for _, f := range d.Kind.BusFrames {
			if id := d.Kind.ID(f, 0); !busFrames[d.Label][id] {
				busFrames[d.Label][id] = true
				addFrame(b, f)
			}
		}
	}
	out := make([]BusLoad, 0, len(byBus))
	for _, b := range byBus {
		b.Load = b.BitsPerSecond / hal.CANBitRate
		out = append(out, *b)
	}
	slices.SortFunc(out, func(a, b BusLoad) int { return compareBuses(a.Bus, b.Bus) })
	return out
}

func addFrame(b *BusLoad, f CANFrame) {
	if f.Period <= 0 {
		return
	}
	rate := float64(time.Second) / float64(f.Period)
	b.FramesPerSecond += rate
	b.BitsPerSecond += rate * float64(hal.WorstFrameBits(f.Len))
}

// CheckCANLoad estimates each bus's load and adds a warning at
// CANLoadWarn and an error at CANLoadError, at the bus's first device.
func CheckCANLoad(c *config.File, list *diag.List) []BusLoad {
	loads := EstimateCANLoad(c)
	for _, b := range loads {
		switch {
		case b.Load >= CANLoadError:
			list.Errorf(b.First.Pos, "CAN bus %s: %.1f %% estimated load with %d devices, over %.0f %%: devices will miss frames; "+
				"move devices to another bus (can_bus, on a Linux coprocessor with more than one) or remove some", BusName(b.Bus), 100*b.Load, b.Devices, 100*CANLoadError)
		case b.Load >= CANLoadWarn:
			list.Warnf(b.First.Pos, "CAN bus %s: %.1f %% estimated load with %d devices, over %.0f %%: little room for retries and bursts",
				BusName(b.Bus), 100*b.Load, b.Devices, 100*CANLoadWarn)
		}
	}
	return loads
}
