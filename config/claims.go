package config

import (
	"fmt"
	"strings"

	"github.com/frcd/frcd/diag"
)

// Checker is given to a Type's Check to report findings and claim channels.
type Checker struct {
	list   *diag.List
	claims map[claimKey]*Device
	spans  map[string][]*Device // ClaimSpan's buffers: each item's device
}

type claimKey struct {
	r     Resource
	scope string
	n     int
	typ   string // CANDevice: the claiming device's type
}

// Errorf adds an error.
func (c *Checker) Errorf(pos diag.Pos, format string, args ...any) {
	c.list.Errorf(pos, format, args...)
}

// Warnf adds a warning.
func (c *Checker) Warnf(pos diag.Pos, format string, args ...any) { c.list.Warnf(pos, format, args...) }

// Claim records that d uses channel n of resource r (within scope), and
// reports an error when another device already does.
func (c *Checker) Claim(d *Device, r Resource, scope string, n int, pos diag.Pos) {
	k := claimKey{r: r, scope: scope, n: n}
	if r == CANDevice && d.Type != nil {
		k.typ = d.Type.Name
		if d.Type.CANSpace != "" {
			k.typ = d.Type.CANSpace
		}
	}
	if other, taken := c.claims[k]; taken {
		if other != d {
			what := describeClaim(k)
			if pwm, ok := pwmOnDIOPin(d, r, n); ok {
				what = fmt.Sprintf("PWM channel %d is on the MXP pin of DIO channel %d, which", pwm, n)
			} else if pwm, ok := pwmOnDIOPin(other, r, n); ok {
				what = fmt.Sprintf("%s is on the MXP pin of PWM channel %d, which", what, pwm)
			}
			c.list.Errorf(pos, "%s: %s is already used by %s (line %d)", d, what, other, other.Pos.Line)
		}
		return
	}
	c.claims[k] = d
}

// ClaimName records that controller d claims the named joint's command
// interfaces, and reports an error naming both when another controller
// already does: a joint has one controller at a time.
func (c *Checker) ClaimName(d *Device, r Resource, name string, pos diag.Pos) {
	k := claimKey{r: r, scope: name}
	if other, taken := c.claims[k]; taken && other != d {
		c.list.Errorf(pos, "controller %q: joint %q is already claimed by controller %q (line %d); a joint takes commands from one controller", d.Name, name, other.Name, other.Pos.Line)
		return
	}
	c.claims[k] = d
}

// ClaimSpan records that d uses items start to start+n-1 of the buffer
// named what, of size items (the addressable LEDs every SmartIO channel's
// string is a window of), and reports an error naming the first item
// another device already uses. A span outside the buffer is left to the
// keys' ranges. The cost is at most size per device, whatever the file.
func (c *Checker) ClaimSpan(d *Device, what string, start, n, size int, pos diag.Pos) {
	if start < 0 || n <= 0 || start+n > size {
		return
	}
	if c.spans == nil {
		c.spans = map[string][]*Device{}
	}
	owners := c.spans[what]
	if owners == nil {
		owners = make([]*Device, size)
		c.spans[what] = owners
	}
	for i := start; i < start+n; i++ {
		if o := owners[i]; o != nil && o != d {
			c.list.Errorf(pos, "%s: %s %d to %d overlap those of %s (line %d), first at %d; each needs a window of its own",
				d, what, start, start+n-1, o, o.Pos.Line, i)
			return
		}
	}
	for i := start; i < start+n; i++ {
		owners[i] = d
	}
}

// Once reports a second entry of something a file may have only one of.
func (c *Checker) Once(d *Device, what string, pos diag.Pos) {
	k := claimKey{r: onceOnly, scope: what}
	if other, taken := c.claims[k]; taken && other != d {
		c.list.Errorf(pos, "%s: a second %s: a file has one (%s, line %d)", d, what, other, other.Pos.Line)
		return
	}
	c.claims[k] = d
}

// pwmOnDIOPin reports the PWM channel of d whose MXP pin is DIO n, when d
// claims DIO n through a PWM key.
func pwmOnDIOPin(d *Device, r Resource, n int) (int, bool) {
	if r != DIO || d.Type == nil {
		return 0, false
	}
	for _, k := range d.Type.Keys {
		if k.Resource == PWM && d.Has(k.Name) {
			if dio, ok := mxpSharedDIO(PWM, d.Int(k.Name)); ok && dio == n {
				return d.Int(k.Name), true
			}
		}
	}
	return 0, false
}

// mxpSharedDIO says which DIO channel shares its MXP pin with a PWM or
// DIO channel. The WPILib HAL allocates MXP PWM 10-13 on the pins of DIO
// 10-13 and PWM 14-19 on those of DIO 18-23 (the MXP's SPI pins sit
// between), and refuses a second allocation of a pin.
func mxpSharedDIO(r Resource, n int) (int, bool) {
	if r != PWM {
		return 0, false
	}
	switch {
	case n >= 10 && n <= 13:
		return n, true
	case n >= 14 && n <= 19:
		return n + 4, true
	}
	return 0, false
}

func describeClaim(k claimKey) string {
	switch k.r {
	case PCMChannel:
		return fmt.Sprintf("channel %d of %s", k.n, k.scope)
	case PDPChannel:
		return fmt.Sprintf("channel %d of PDP %q", k.n, k.scope)
	case PCMCompressor:
		return fmt.Sprintf("the compressor of %s", k.scope)
	case NavXPort:
		if strings.HasPrefix(k.scope, "/dev/") {
			return k.scope // a Linux bus
		}
		return fmt.Sprintf("%s port %d", k.scope, k.n)
	case CANDevice:
		what := fmt.Sprintf("CAN id %d of a %s", k.n, k.typ)
		if k.scope != "" {
			what += fmt.Sprintf(" on CAN bus %q", k.scope)
		}
		return what
	case CANMotor, CANGyro, CANPower, CANPneumatics:
		if k.scope != "" {
			return fmt.Sprintf("%s %d on CAN bus %q", k.r, k.n, k.scope)
		}
	}
	return fmt.Sprintf("%s %d", k.r, k.n)
}
