package hal

import "fmt"

// NamedCANDevices is implemented by backends whose vendor-library CAN
// devices (CANMotor, Pigeon) may sit on a bus other than the default one.
type NamedCANDevices interface {
	// OpenCANMotorOn is CANMotors.OpenCANMotor on the bus of that name.
	OpenCANMotorOn(bus, model string, id int) (CANMotor, error)
	// OpenPigeonOn is Pigeons.OpenPigeon on the bus of that name.
	OpenPigeonOn(bus string, id, talonID int) (Pigeon, error)
}

// OpenCANMotor opens b's motor controller on the bus of that name: ""
// is the default bus (CANMotors.OpenCANMotor); another name needs a
// backend that is a NamedCANDevices. A backend without CANMotors has
// none.
func OpenCANMotor(b Backend, bus, model string, id int) (CANMotor, error) {
	cm, ok := ProviderOf[CANMotors](b)
	if !ok {
		return nil, LackError(b, CapCANMotor)
	}
	if bus == "" {
		return cm.OpenCANMotor(model, id)
	}
	if nb, ok := ProviderOf[NamedCANDevices](b); ok {
		return nb.OpenCANMotorOn(bus, model, id)
	}
	return nil, fmt.Errorf("CAN bus %q: this backend opens motor controllers on its default bus only: %w", bus, ErrUnsupported)
}

// OpenPigeon opens b's Pigeon IMU on the bus of that name, as
// OpenCANMotor does.
func OpenPigeon(b Backend, bus string, id, talonID int) (Pigeon, error) {
	pg, ok := ProviderOf[Pigeons](b)
	if !ok {
		return nil, LackError(b, CapPigeon)
	}
	if bus == "" {
		return pg.OpenPigeon(id, talonID)
	}
	if nb, ok := ProviderOf[NamedCANDevices](b); ok {
		return nb.OpenPigeonOn(bus, id, talonID)
	}
	return nil, fmt.Errorf("CAN bus %q: this backend opens Pigeons on its default bus only: %w", bus, ErrUnsupported)
}
