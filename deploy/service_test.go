package deploy

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/frcd/frcd/internal/tooltest"
)

var systemdAnalyze = tooltest.Tool{Name: "systemd-analyze", Package: "systemd"}

// verifyUnit runs `systemd-analyze verify` on the unit text, with its
// ExecStart binary pointed at an executable that exists (verify checks
// that), and returns what it printed.
func verifyUnit(t *testing.T, unit string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	bin := filepath.Join(dir, "frcd")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "frcd.service")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(unit, "/usr/local/bin/frcd", bin)), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(systemdAnalyze.Name, "verify", "--man=no", path).CombinedOutput()
	return string(out), err
}

// TestSystemdUnit checks deploy/frcd.service with systemd's own verifier:
// no error and no warning (an unknown or misspelt key is a warning).
func TestSystemdUnit(t *testing.T) {
	tooltest.Require(t, systemdAnalyze)
	b, err := os.ReadFile("frcd.service")
	if err != nil {
		t.Fatal(err)
	}
	unit := string(b)
	for _, want := range []string{
		"\nExecStart=/usr/local/bin/frcd run --hal linux ", "\nRestart=on-failure\n", "\nUser=frcd\n",
		"\nAmbientCapabilities=CAP_SYS_NICE CAP_NET_RAW\n", "\nMemoryMax=", "\nEnvironment=ROS_MASTER_URI=", "\nEnvironment=GOMEMLIMIT=",
	} {
		if !strings.Contains(unit, want) {
			t.Errorf("frcd.service lacks %q", strings.TrimSpace(want))
		}
	}
	if out, err := verifyUnit(t, unit); err != nil || strings.TrimSpace(out) != "" {
		t.Errorf("systemd-analyze verify frcd.service: %v\n%s", err, out)
	}
	// The check can fail: a misspelt key is reported.
	if out, _ := verifyUnit(t, strings.Replace(unit, "NoNewPrivileges=", "NoNewPrivilege=", 1)); !strings.Contains(out, "NoNewPrivilege") {
		t.Errorf("systemd-analyze did not report a misspelt key: %q", out)
	}
}
