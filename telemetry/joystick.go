package telemetry

import (
	"time"

	"github.com/frcd/frcd/hal"
)

// The Driver Station's joysticks under PREFIX/ds/joystickN/ (N 0-5), one
// topic each for axes, POVs and buttons, as WPILib's DataLogManager logs
// them (DS:joystickN/axes, /povs, /buttons: allwpilib caf0fb2dcc
// wpilibc/src/main/native/cpp/driverstation/internal/DriverStationBackend.cpp,
// JoystickLogSender; allwpilib v2026.2.2 wpilibc/src/main/native/cpp/DriverStation.cpp
// the same). WPILib publishes no joysticks over NT4; frcd's go under its
// own prefix, all three as double[] (frcd's topics have no float[],
// int[] or boolean[] kind): axes -1 to 1, POVs in degrees clockwise from
// up (-1 centred), buttons 1 pressed, 0 not (button 1 first). The WPILOG
// records them as WPILib does, under DS:joystickN/ with WPILib's types:
// buttons boolean[], axes float[], povs int64[] (Topic.LogAs). A
// joystick that is not plugged in keeps its last value (none until one
// is).

type joystickTopics struct {
	axes, povs, buttons *Topic
	st                  hal.JoystickState
	buf                 [hal.MaxJoystickButtons]float64
}

func (s *Source) addJoysticks() {
	if s.o.Joystick == nil {
		return
	}
	s.joys = make([]joystickTopics, hal.MaxJoysticks)
	for n := range s.joys {
		p := s.o.Prefix + "/ds/joystick" + string(rune('0'+n)) + "/"
		j := &s.joys[n]
		j.axes = s.addArray(p+"axes", "double[]", hal.MaxJoystickAxes, "{}")
		j.povs = s.addArray(p+"povs", "double[]", hal.MaxJoystickPOVs, props("unit", "degrees clockwise from up, -1 centred"))
		j.buttons = s.addArray(p+"buttons", "double[]", hal.MaxJoystickButtons, props("unit", "1 pressed, 0 released; button 1 first"))
		ds := "DS:joystick" + string(rune('0'+n)) + "/"
		j.axes.LogAs, j.axes.LogAsType = ds+"axes", "float[]"
		j.povs.LogAs, j.povs.LogAsType = ds+"povs", "int64[]"
		j.buttons.LogAs, j.buttons.LogAsType = ds+"buttons", "boolean[]"
	}
}

// sampleJoysticks reads each joystick plugged in whose topics are needed
// and updates what changed. It does not allocate.
func (s *Source) sampleJoysticks(now time.Duration) {
	for n := range s.joys {
		j := &s.joys[n]
		if !anyNeeded(j.axes, j.povs, j.buttons) {
			continue
		}
		if !s.o.Joystick(n, &j.st) || j.st.NumAxes == 0 && j.st.NumButtons == 0 && j.st.NumPOVs == 0 {
			continue
		}
		na, np, nb := min(j.st.NumAxes, hal.MaxJoystickAxes), min(j.st.NumPOVs, hal.MaxJoystickPOVs), min(j.st.NumButtons, hal.MaxJoystickButtons)
		j.axes.setDoubles(j.st.Axes[:na], now)
		for i := range np {
			j.buf[i] = float64(j.st.POVs[i])
		}
		j.povs.setDoubles(j.buf[:np], now)
		for i := range nb {
			j.buf[i] = 0
			if j.st.Button(i + 1) {
				j.buf[i] = 1
			}
		}
		j.buttons.setDoubles(j.buf[:nb], now)
	}
}
