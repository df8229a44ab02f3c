package devices

import (
	"fmt"
	"slices"
	"time"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
)

func init() {
	MustRegister(Driver{Type: addressableLEDType, New: newAddressableLED, Needs: hal.CapAddressableLED})
}

// maxLEDs is the 2027 HAL's HAL_ADDRESSABLE_LED_MAX_LEN: the LEDs of the
// one buffer every SmartIO channel's LEDs are a window of (allwpilib
// caf0fb2dcc hal/src/main/native/include/hal/AddressableLEDTypes.h,
// docs/systemcore.md).
const maxLEDs = 1024

// The command is one colour for the whole string, 0xRRGGBB as a number,
// on an AnalogCommand handle, which the LEDColorController
// (std_msgs/Float64 on /NAME/command, 0 to 0xFFFFFF) forwards: frcd's
// device command handles carry one value each, and no controller sends
// arrays to a device.
var addressableLEDType = &config.Type{
	Name: "addressable_led", Class: "AddressableLED", Group: "actuator",
	Summary: "A string of addressable LEDs (WS2812B and the like) on a Systemcore SmartIO channel, lit in one colour.",
	Doc: "State: the colour written as an AnalogState (0xRRGGBB, 0 when off); command: an AnalogCommand, the colour as " +
		"0xRRGGBB (red 16711680, green 65280, blue 255), written to every LED of the string. No command, a command that is " +
		"not a whole number from 0 to 16777215, disabled, e-stopped, a stale Driver Station or command, and shutdown turn " +
		"every LED off. It gets no joint state. The LEDs of all channels are windows (start, length) of one buffer of 1024 " +
		"LEDs: give each string its own (validate refuses two that overlap).",
	Place:   config.Output,
	Example: "{name: underglow, type: addressable_led, dio_channel: 4, length: 60}",
	Keys: []config.Key{
		{Name: "dio_channel", Kind: config.Int, Required: true, Resource: config.DIO, Doc: "The SmartIO channel the LEDs' data line is on (0-5 on Systemcore)."},
		{Name: "length", Kind: config.Int, Required: true, HasRange: true, Min: 1, Max: maxLEDs, Doc: "The number of LEDs on the string."},
		{Name: "start", Kind: config.Int, Default: 0, HasRange: true, Min: 0, Max: maxLEDs - 1,
			Doc: "The string's first LED in the buffer of 1024 LEDs all channels share; start + length must be at most 1024."},
		{Name: "color_order", Kind: config.String, Default: "grb", Enum: hal.LEDOrders,
			Doc: "The order the LEDs take their colours in (WS2812B: grb)."},
	},
	Facts: config.Facts{Roles: []config.Role{config.LEDColorController}},
	Check: func(d *config.Device, c *config.Checker) {
		// Two strings over the same LEDs would each repaint the other's.
		c.ClaimSpan(d, "LEDs", d.Int("start"), d.Int("length"), maxLEDs, d.KeyPos("start"))
	},
}

// addressableLED lights a string of LEDs in the colour of the name/analog
// AnalogCommand. It writes only when the colour changes (each write hands
// the HAL's whole buffer to mrclib); Halt writes every LED off always.
type addressableLED struct {
	name  string
	out   hal.AddressableLED
	rgb   []byte // 3 bytes per LED, reused: Write allocates nothing
	last  int    // the colour written, -1 none yet
	cmd   interfaces.AnalogCommand
	state interfaces.AnalogState

	wErr, hErr opError
}

var _ Device = (*addressableLED)(nil)

func newAddressableLED(d *config.Device, env *Env) (Device, error) {
	ch, start, n := d.Int("dio_channel"), d.Int("start"), d.Int("length")
	if start+n > maxLEDs {
		return nil, fmt.Errorf("LEDs %d to %d: start + length is beyond the %d LEDs of the buffer", start, start+n-1, maxLEDs)
	}
	order := slices.Index(hal.LEDOrders, d.Str("color_order"))
	if order < 0 {
		return nil, fmt.Errorf("color_order %q is not one of %v", d.Str("color_order"), hal.LEDOrders)
	}
	out, err := hal.OpenAddressableLED(env.HAL, ch, start, n, hal.LEDOrder(order))
	if err != nil {
		return nil, fmt.Errorf("addressable LEDs on %d: %w", ch, err)
	}
	l := &addressableLED{name: d.Name, out: out, rgb: make([]byte, 3*n), last: -1,
		wErr: newOpError(d, "write"), hErr: newOpError(d, "halt")}
	if err := interfaces.RegisterState(env.Handles, d.Name, interfaces.Analog, &l.state); err != nil {
		return nil, err
	}
	if err := interfaces.RegisterCommand(env.Handles, d.Name, d.Name, interfaces.Analog, &l.cmd); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *addressableLED) Name() string { return l.name }

// Read does nothing: the state is set when written.
func (l *addressableLED) Read(now, dt time.Duration) error { return nil }

// colour is the command as 0xRRGGBB, or 0 (off) when there is none or it
// is not a whole number from 0 to 0xFFFFFF.
func (l *addressableLED) colour() int {
	v := l.cmd.Value
	if !l.cmd.Set || !(v >= 0 && v <= 0xFFFFFF) || v != float64(int(v)) {
		return 0
	}
	return int(v)
}

func (l *addressableLED) Write(now, dt time.Duration) error {
	c := l.colour()
	if c == l.last {
		return nil
	}
	return l.wErr.wrap(l.fill(c))
}

// Halt writes every LED off, whatever was written before.
func (l *addressableLED) Halt() error { return l.hErr.wrap(l.fill(0)) }

func (l *addressableLED) fill(c int) error {
	r, g, b := byte(c>>16), byte(c>>8), byte(c)
	for i := 0; i < len(l.rgb); i += 3 {
		l.rgb[i], l.rgb[i+1], l.rgb[i+2] = r, g, b
	}
	if err := l.out.SetColors(l.rgb); err != nil {
		l.last = -1 // write again next cycle
		return err
	}
	l.last, l.state.Value = c, float64(c)
	return nil
}
