package nt4_test

import (
	"math"
	"testing"

	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/nt4"
)

// TestTunables: in WPILib 2027's layout a dashboard sets one gain of a PID
// controller by publishing a double on the gain's own topic under
// /Tunables, as it would a WPILib 2027 robot's; the other gains stay. A
// gain out of range (negative), tuning not allowed by the YAML, or a
// disabled robot: refused, counted by the server and the controller, the
// gains unchanged, and the dashboard gets frcd's value back. Publishing
// another type is refused at the publish.
func TestTunables(t *testing.T) {
	const p = "/Tunables/controllers/hood_position/p"
	for _, c := range []struct {
		name, yaml string
		enabled    bool
		value      float64
		accepted   bool
	}{
		{"allowed", "\nnt4: {tuning: true, layout: \"2027\"}\n", true, 12, true},
		{"negative", "\nnt4: {tuning: true, layout: \"2027\"}\n", true, -1, false},
		{"not a number", "\nnt4: {tuning: true, layout: \"2027\"}\n", true, math.NaN(), false},
		{"not allowed", "\nnt4: {commands: true, layout: \"2027\"}\n", true, 12, false},
		{"disabled", "\nnt4: {tuning: true, layout: \"2027\"}\n", false, 12, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, step := steppedRobot(t, robotWith(t, c.yaml), c.enabled)
			step(1)
			ctl := d.Loop.Controller("hood_position")
			before := ctl.Gains()
			w := dial(t, d, "dashboard")
			w.send(`{"method":"subscribe","params":{"topics":["/Tunables/"],"subuid":1,"options":{"prefix":true}}}`,
				`{"method":"publish","params":{"name":"`+p+`","pubuid":1,"type":"double","properties":{}}}`)
			w.until("the gain p, 20 in the YAML", step, func() bool {
				v := w.values[p]
				return len(v) > 0 && v[0] == 20.0 && len(w.values["/Tunables/controllers/hood_position/.type"]) > 0
			})
			if s := d.NT.Stats(); s.PublishRefused != 0 {
				t.Fatalf("the publish of a tunable refused: %+v", s)
			}
			w.sendBinary(1, nt4.TypeDouble, c.value)
			if c.accepted {
				w.until("the new gain published", step, func() bool {
					v := w.values[p]
					return v[len(v)-1] == 12.0
				})
				if g := ctl.Gains(); g.P != 12 || g.I != before.I || g.D != before.D || g.F != before.F || ctl.Refused() != 0 {
					t.Errorf("gains %+v (were %+v), refused %d", g, before, ctl.Refused())
				}
				return
			}
			w.until("frcd's gain again", step, func() bool { return len(w.values[p]) >= 2 })
			if v := w.values[p]; v[len(v)-1] != 20.0 {
				t.Errorf("p after the refusal: %v, want 20 again", v)
			}
			if s := d.NT.Stats(); s.Refused != 1 || ctl.Refused() != 1 || ctl.Gains() != before {
				t.Errorf("server refused %d, controller %d, gains %+v (were %+v)", s.Refused, ctl.Refused(), ctl.Gains(), before)
			}
			step(5)
			if ctl.Gains() != before {
				t.Errorf("a refused gain reached the controller: %+v", ctl.Gains())
			}
		})
	}

	t.Run("wrong type and 2026 layout", func(t *testing.T) {
		d, step := steppedRobot(t, robotWith(t, "\nnt4: {tuning: true, layout: \"2027\"}\n"), true)
		step(1)
		w := dial(t, d, "dashboard")
		w.send(`{"method":"publish","params":{"name":"`+p+`","pubuid":1,"type":"string","properties":{}}}`,
			`{"method":"publish","params":{"name":"/Tunables/controllers/hood_position/.type","pubuid":2,"type":"string","properties":{}}}`)
		tooltest.Eventually(t, waitLimit, "two publishes refused", func() bool { return d.NT.Stats().PublishRefused == 2 })

		d, step = steppedRobot(t, robotWith(t, "\nnt4: {tuning: true}\n"), true)
		step(1)
		w = dial(t, d, "dashboard")
		w.send(`{"method":"subscribe","params":{"topics":["/frcd/controllers/"],"subuid":1,"options":{"prefix":true}}}`,
			`{"method":"publish","params":{"name":"/frcd/controllers/hood_position/gains","pubuid":1,"type":"double[]","properties":{}}}`)
		w.until("the gains", step, func() bool { return len(w.values["/frcd/controllers/hood_position/gains"]) > 0 })
		if _, announced := w.announce[p]; d.NT.Stats().PublishRefused != 1 || announced {
			t.Errorf("2026 layout: a publish to frcd's own topic not refused (%+v), or a tunable announced", d.NT.Stats())
		}
	})
}
