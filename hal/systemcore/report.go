package systemcore

import (
	"fmt"
	"slices"
	"strings"

	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/nt4"
)

// LowBattery is the battery voltage under which /diagnostics warns. The
// system server never served Systemcore's own brownout state, so frcd
// warns at WPILib's default brownout voltage for the roboRIO 2
// (RobotController.setBrownoutVoltage's default, 6.75 V).
const LowBattery = 6.75

// report appends the system server's lines for /diagnostics: whether it
// is connected and what it announces; WARN for every topic an open
// channel, the IMU or the Driver Station needs that it does not announce
// (on images whose WPILib uses mrclib it announces none of them); the
// battery, and what it does not serve (brownout, faults); the REV
// Expansion Hubs it reports.
func (l *link) report(dst []hal.Report, rosDS bool) []hal.Report {
	l.mu.Lock()
	c, err, drops := l.conn, l.err, l.drops
	var need []string
	for _, s := range l.io {
		if s != nil {
			need = append(need, s.getTopic)
		}
	}
	if l.imu {
		need = append(need, IMUQuatTopic, IMUGyroTopic, IMUAccelTopic)
	}
	l.mu.Unlock()
	if !rosDS {
		need = append(need, ControlDataTopic)
	}
	r := hal.Report{Name: "system server " + l.addr}
	if c == nil || !l.connected() {
		r.Warn = true
		if err == nil {
			r.Message = "connecting; every SmartIO output neutral, the Driver Station disabled"
		} else {
			r.Message = fmt.Sprintf("not connected (%v); every SmartIO output neutral, the Driver Station disabled", err)
		}
		if len(need) == 0 {
			r.Warn = false
			r.Message = fmt.Sprintf("not connected (%v); frcd needs none of its topics on this robot", err)
		}
		return append(dst, r)
	}
	names := c.Names()
	r.Message = fmt.Sprintf("connected: %d topics announced; %d connections lost", len(names), drops)
	dst = append(dst, r)
	if miss := l.missing(need); len(miss) > 0 {
		dst = append(dst, hal.Report{Name: "system server topics", Warn: true,
			Message: "not announced, so the devices reading them fail: " + strings.Join(miss, ", ") +
				" (the system server of images whose WPILib reaches SmartIO, the Driver Station and the IMU through mrclib serves none of them: docs/systemcore.md)"})
	}
	if !rosDS {
		l.ds.mu.Lock()
		bad := l.ds.bad
		l.ds.mu.Unlock()
		if bad > 0 {
			dst = append(dst, hal.Report{Name: "Driver Station messages", Warn: true, Message: fmt.Sprintf("%d did not decode (counted disabled)", bad)})
		}
	}
	bat, low := "not announced ("+BatteryTopic+")", false
	c.Read(BatteryTopic, func(t *nt4.ClientTopic) {
		if v, ok := t.Value.Double(); ok && t.Value.Raw != nil {
			bat = fmt.Sprintf("%.2f V", v)
			if v < LowBattery {
				bat, low = fmt.Sprintf("%.2f V, under %.2f V (where a roboRIO 2 browns out by default)", v, LowBattery), true
			}
		}
	})
	dst = append(dst, hal.Report{Name: "battery", Warn: low, Message: bat + "; brownout and faults: not served (WPILib's Systemcore HAL read neither from the system server; docs/systemcore.md)"})
	var hubs []string
	for _, n := range names {
		usb, ok := strings.CutSuffix(strings.TrimPrefix(n, "/rhsp/"), "/connected")
		if !ok || !strings.HasPrefix(n, "/rhsp/") {
			continue
		}
		c.Read(n, func(t *nt4.ClientTopic) {
			if on, isBool := t.Value.Bool(); isBool && on {
				hubs = append(hubs, usb)
			}
		})
	}
	if len(hubs) > 0 {
		slices.Sort(hubs)
		dst = append(dst, hal.Report{Name: "REV Expansion Hubs", Message: "connected on USB " + strings.Join(hubs, ", ") + " (frcd drives none)"})
	}
	return dst
}
