package control

// ControllerSample is a PID controller's state after a cycle, as
// control_msgs/JointControllerState reports it: its set point (a profiled
// controller's current setpoint along its profile), the measured value and
// its rate, the error, the cycle's time step, the output (volts, or the
// set point handed to a device's own loop), and the gains.
type ControllerSample struct {
	Name                                           string
	Active                                         bool // a command drove the output this cycle
	SetPoint, Process, ProcessDot, Error, TimeStep float64
	Command                                        float64
	P, I, D, IClamp                                float64
}

// recordState keeps a PID cycle's values for the snapshot.
func (c *Controller) recordState(sp, meas, rate, err, dt, out float64) {
	c.st = ControllerSample{Name: c.Name, Active: true, SetPoint: sp, Process: meas, ProcessDot: rate, Error: err,
		TimeStep: dt, Command: out, P: c.pid.P, I: c.pid.I, D: c.pid.D, IClamp: c.pid.IClamp}
}

// idleState marks the controller's state idle (no command, or neutral).
func (c *Controller) idleState(dt float64) {
	c.st.Active, c.st.Command, c.st.TimeStep = false, 0, dt
	c.st.P, c.st.I, c.st.D, c.st.IClamp = c.pid.P, c.pid.I, c.pid.D, c.pid.IClamp
}
