package daemon

import (
	"sync"
	"time"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/telemetry"
)

// gameMessage keeps the backend's game-specific message for the ROS
// bridges, read from the backend (hal.MatchInfos: a HAL call that copies
// strings) at most once a second of loop time.
type gameMessage struct {
	mu  sync.Mutex
	at  time.Duration
	msg string
	ok  bool // read once
}

// driverStation fills what the Driver Station says for the ROS bridge's
// driver_station/ topics: on the sim its joysticks (set over the WPILib
// WebSocket or by the sim) and the station and match time a WebSocket
// client sent; on hardware what the backend hears (the roboRIO's
// joysticks and match time), as far as it implements hal.Joysticks and
// hal.MatchTimer, and the game-specific message (the sim's from the
// WebSocket, the backend's from hal.MatchInfos). Brownout comes from the backend, sim or hardware, when
// it implements hal.Brownouts (the sim's from its battery's sag); a
// failed read leaves it unknown.
func (d *Daemon) driverStation(dst *hal.DSInfo) {
	dst.OpModes = d.opModes.ops
	if bo, ok := d.backend.(hal.Brownouts); ok {
		b, err := bo.BrownedOut()
		dst.Brownout, dst.HasBrownout = b, err == nil
	}
	if d.Sim != nil {
		for n := range dst.Joysticks {
			d.Sim.ReadJoystick(n, &dst.Joysticks[n])
		}
		if d.WS != nil {
			station, t := d.WS.Match()
			dst.Alliance, dst.Station = hal.ParseStation(station)
			dst.MatchTime = t
			dst.GameMessage = d.WS.GameData()
		}
		return
	}
	dst.GameMessage = d.backendGameMessage()
	if js, ok := d.backend.(hal.Joysticks); ok {
		for n := range dst.Joysticks {
			if js.Joystick(n, &dst.Joysticks[n]) != nil {
				dst.Joysticks[n] = hal.JoystickState{}
			}
		}
	}
	if mt, ok := d.backend.(hal.MatchTimer); ok {
		if t, err := mt.MatchTime(); err == nil {
			dst.MatchTime = t
		}
	}
}

// backendGameMessage is the backend's game-specific message, read again
// when a second old; "" without hal.MatchInfos.
func (d *Daemon) backendGameMessage() string {
	mi, ok := d.backend.(hal.MatchInfos)
	if !ok {
		return ""
	}
	g := &d.game
	g.mu.Lock()
	defer g.mu.Unlock()
	if now := d.Now(); !g.ok || now-g.at >= time.Second || now < g.at {
		g.at, g.ok = now, true
		if m, err := mi.MatchInfo(); err == nil {
			g.msg = m.GameMessage
		}
	}
	return g.msg
}

// joystick fills joystick n for the telemetry's PREFIX/ds/joystickN/
// topics, as driverStation does for ROS: the sim's, or what the backend
// hears (hal.Joysticks); false when neither knows it.
func (d *Daemon) joystick(n int, dst *hal.JoystickState) bool {
	if d.Sim != nil {
		d.Sim.ReadJoystick(n, dst)
		return true
	}
	js, ok := d.backend.(hal.Joysticks)
	return ok && js.Joystick(n, dst) == nil
}

// wpilibMatch fills the match for the /FMSInfo and /DriverStation tables:
// what the backend hears of it (hal.MatchInfos), and on the sim the
// alliance station and game data a WPILib WebSocket client set.
func (d *Daemon) wpilibMatch(m *telemetry.Match) {
	if mi, ok := d.backend.(hal.MatchInfos); ok {
		if info, err := mi.MatchInfo(); err == nil {
			m.MatchInfo = info
		}
	}
	if d.Sim != nil && d.WS != nil {
		station, _ := d.WS.Match()
		alliance, n := hal.ParseStation(station)
		m.Red, m.Station = alliance == "red", n
		m.GameMessage = d.WS.GameData()
	}
}
