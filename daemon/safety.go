package daemon

// rosEnable is what /frcd/enable calls, or nil when the service must not
// exist: it is offered on the sim, and on hardware frcd enables itself
// (a Linux coprocessor) only when the YAML's `linux: {ros_enable: true}`
// allows it, for anyone who reaches the ROS master can call it.
func (d *Daemon) rosEnable() func(bool) {
	if d.enabler == nil {
		return nil
	}
	if d.Sim == nil {
		if l := d.Robot.Config.Linux; l == nil || !l.Bool("ros_enable") {
			return nil
		}
	}
	return d.SetEnabled
}
