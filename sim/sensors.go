package sim

import "github.com/frcd/frcd/urdf"

// digitalSensor is a YAML digital_input.
type digitalSensor struct {
	j     *joint // nil for a link sensor
	limit int8   // -1 lower, 1 upper, 0 none
	inv   bool
	value float64 // SetSensor, link sensors
	f     *fault  // nil when healthy
}

// active says whether the switch is pressed or the beam broken.
func (d *digitalSensor) active() bool {
	j := d.j
	switch {
	case j == nil:
		return d.value != 0
	case d.limit < 0:
		return j.pos <= j.lower+1e-3
	case d.limit > 0:
		return j.pos >= j.upper-1e-3
	case j.bounded:
		return j.pos > (j.lower+j.upper)/2
	}
	return j.pos > 0
}

// level is the electrical level the sensor drives.
func (d *digitalSensor) level() bool { return d.active() != d.inv }

// analogSensor is a YAML analog_input.
type analogSensor struct {
	j             *joint
	scale, offset float64
	value         float64 // SetSensor, link sensors, in its units
	f             *fault  // nil when healthy
}

// q is what the sensor senses, in its units: its joint's position, or
// the value SetSensor set.
func (a *analogSensor) q() float64 {
	if a.j != nil {
		return a.j.pos
	}
	return a.value
}

// volts is the voltage the sensor puts out sensing q.
func (a *analogSensor) volts(q float64) float64 {
	v := (q - a.offset) / a.scale * 5
	if !(v > 0) {
		return 0
	}
	return min(v, 5)
}

// encoderSensor is a YAML encoder.
type encoderSensor struct {
	a, b int
	j    *joint
	dpp  float64
	inv  bool
	f    *fault // nil when healthy
}

// q is the position the encoder turns with: its joint's (0 in a link or
// when nothing is wired).
func (e *encoderSensor) q() float64 {
	if e == nil || e.j == nil {
		return 0
	}
	return e.j.pos
}

// imuDev is a YAML navx or pigeon_imu.
type imuDev struct {
	name  string
	m     IMU
	nav   *navx  // navX only
	iface string // navX: "spi", "i2c", "serial"
	port  int
	// Pigeon only: the CAN id, or the CAN id of the Talon SRX it is
	// cabled to; -1 when not; its bus, and its presence there (nil on a
	// Talon).
	canID, talonID int
	bus            string
	can            *pigeonCAN
	f              *fault // nil when healthy
	// onBase: the drive base moves it (its frame is fixed to the base, at
	// mount and at in the base's frame), until SetIMU sets its motion.
	frame  string
	onBase bool
	mount  mat3
	at     urdf.Vec3
	// hold, when set, is the motion OverrideIMU holds: it wins over m.
	hold *IMU
}
