package telemetry_test

import (
	"strings"
	"testing"
	"time"
)

// examples/2026's SPARKs starting up (the version request, then their
// configuration) are warning Alerts, "configuring", not errors; once
// configured, no Alert at all.
func TestAlertsConfiguring(t *testing.T) {
	d, s, topics := sourceOf(t, "2026")
	defer d.Close()
	errs, warns := topics["/SmartDashboard/Alerts/errors"], topics["/SmartDashboard/Alerts/warnings"]
	if errs == nil || warns == nil {
		t.Fatal("no /SmartDashboard/Alerts/errors or warnings topic")
	}
	d.Step()
	s.Sample()
	configuring := 0
	for _, w := range warns.Strings {
		if strings.Contains(w, ": configuring: ") && strings.Contains(w, "starting up") {
			configuring++
		}
	}
	if configuring == 0 || len(errs.Strings) != 0 {
		t.Errorf("first cycle: warnings %q, errors %q; want the SPARKs configuring, no error", warns.Strings, errs.Strings)
	}
	for end := d.Now() + time.Second; d.Now() < end; {
		d.Step()
		s.Sample()
	}
	if len(warns.Strings) != 0 || len(errs.Strings) != 0 {
		t.Errorf("after 1 s: warnings %q, errors %q; want none", warns.Strings, errs.Strings)
	}
}
