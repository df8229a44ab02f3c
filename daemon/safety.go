package daemon

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/frcd/frcd/ros"
)

// rosEnable is what /frcd/enable calls, or nil when the service must not
// exist: it is offered on the sim, and on hardware frcd enables itself
// (a Linux coprocessor) only when the YAML's `linux: {ros_enable: true}`
// allows it, for anyone who reaches the ROS master can call it.
func (d *Daemon) rosEnable() func(bool) error {
	if d.enabler == nil {
		return nil
	}
	if d.Sim == nil {
		if l := d.Robot.Config.Linux; l == nil || !l.Bool("ros_enable") {
			return nil
		}
	}
	return d.Enable
}

// Enable enables (or disables) the robot as SetEnabled does, and says why
// the robot is not enabled when it is asked to be: an e-stop (it holds
// until frcd restarts), no Driver Station, the loop inhibited (a device
// waiting for its gains), or a Driver Station that keeps it disabled.
// Disabling always succeeds. Safe from any goroutine; /frcd/enable
// answers with it.
func (d *Daemon) Enable(on bool) error {
	d.SetEnabled(on)
	if !on {
		return nil
	}
	snap := d.Loop.NewSnapshot()
	d.Loop.ReadSnapshot(snap)
	ds := d.backend.DS()
	switch {
	case ds.EStop || snap.DS.EStop:
		return errors.New("not enabled: the robot is e-stopped, and an e-stop holds until frcd restarts")
	case !ds.Attached:
		return errors.New("not enabled: no Driver Station is attached")
	case d.ClockFault() != "":
		return fmt.Errorf("not enabled: the HAL clock is faulty: %s", d.ClockFault())
	case d.Loop.Inhibited() != "":
		return fmt.Errorf("not enabled: the loop is inhibited: %s", d.Loop.Inhibited())
	case d.Loop.Deactivated() != "":
		return fmt.Errorf("not enabled: the hardware is inactive: %s", d.Loop.Deactivated())
	case !ds.Enabled:
		return errors.New("not enabled: the Driver Station keeps the robot disabled")
	}
	return nil
}

// wsStatus appends the WPILib WebSocket server's counters for
// /diagnostics: WARN when clients sent bad messages (malformed, a value of
// the wrong type or range, an input the sim does not have) since the last
// report. The bridge's goroutine calls it.
func (d *Daemon) wsStatus(dst []ros.Status) []ros.Status {
	if d.WS == nil {
		return dst
	}
	st := d.WS.Stats()
	bad := st.Ignored + st.BadValues
	level, msg := ros.LevelOK, "ok"
	if bad > d.wsBad {
		level, msg = ros.LevelWarn, fmt.Sprintf("%d bad messages since the last report", bad-d.wsBad)
	}
	d.wsBad = bad
	n := func(v uint64) string { return strconv.FormatUint(v, 10) }
	return append(dst, ros.Status{Level: level, Name: "frcd: WPILib WebSocket server", HardwareID: "wpilibws", Message: msg,
		Values: [][2]string{{"clients", strconv.Itoa(st.Clients)}, {"connects", n(st.Connects)}, {"rejected", n(st.Rejected)},
			{"received", n(st.Received)}, {"ignored", n(st.Ignored)}, {"bad values", n(st.BadValues)}, {"dropped", n(st.Dropped)}, {"sent", n(st.Sent)}}})
}
