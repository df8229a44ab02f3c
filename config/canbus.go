package config

// DefaultCANBusName is the first CAN interface of a Linux coprocessor when
// the file has no `linux: can:`: the bus devices without can_bus are on.
const DefaultCANBusName = "can0"

// DefaultCANBus is the name of the bus devices without can_bus are on:
// the first interface of `linux: can:`, can0 unless it says otherwise.
func (f *File) DefaultCANBus() string {
	if f != nil && f.Linux != nil {
		if l := f.Linux.List("can"); len(l) > 0 {
			return l[0]
		}
	}
	return DefaultCANBusName
}

// CANBus is the CAN bus the device is on, "" for the default bus: a
// device without can_bus, or whose can_bus names the default bus (can0, or
// the first of `linux: can:`), which is the same bus. Claims of CAN ids,
// the load estimate and the inventory all go by it.
func (d *Device) CANBus() string { return d.bus }

// resolveCANBuses sets each entry's CANBus.
func (p *parser) resolveCANBuses() {
	def := p.file.DefaultCANBus()
	for _, list := range [][]*Device{p.file.Devices, p.file.Controllers, p.file.SimJoints, p.file.SimSensors, p.file.SimDisturbances, p.file.SimCANFaults} {
		for _, d := range list {
			if b := d.Str("can_bus"); b != "" && b != def {
				d.bus = b
			}
		}
	}
}
