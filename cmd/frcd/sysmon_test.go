package main

import (
	"bufio"
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestWithSysmonSetting(t *testing.T) {
	for _, c := range []struct {
		env  []string
		want []string // nil: no re-exec
	}{
		{[]string{"PATH=/bin"}, []string{"PATH=/bin", "GODEBUG=" + sysmonSetting}},
		{[]string{"GODEBUG=", "HOME=/root"}, []string{"GODEBUG=" + sysmonSetting, "HOME=/root"}},
		{[]string{"GODEBUG=madvdontneed=1", "PATH=/bin"}, []string{"GODEBUG=madvdontneed=1," + sysmonSetting, "PATH=/bin"}},
		{[]string{"GODEBUG=schedtrace=0"}, nil},
		{[]string{"PATH=/bin", "GODEBUG=madvdontneed=1,schedtrace=1000"}, nil},
		// Not schedtrace: a key that only ends the same.
		{[]string{"GODEBUG=xschedtrace=1"}, []string{"GODEBUG=xschedtrace=1," + sysmonSetting}},
		{[]string{"GODEBUGX=1"}, []string{"GODEBUGX=1", "GODEBUG=" + sysmonSetting}},
		// The runtime reads the first GODEBUG: the one to set.
		{[]string{"GODEBUG=madvdontneed=1", "GODEBUG=schedtrace=0"}, []string{"GODEBUG=madvdontneed=1," + sysmonSetting, "GODEBUG=schedtrace=0"}},
		{[]string{"GODEBUG=schedtrace=0", "GODEBUG=madvdontneed=1"}, nil},
	} {
		if got := withSysmonSetting(c.env); !slices.Equal(got, c.want) {
			t.Errorf("withSysmonSetting(%q) = %q, want %q", c.env, got, c.want)
		}
	}
}

// TestRunReexecsForSysmon runs frcd on the sim in a child process and
// reads its environment from /proc once it cycles: `frcd run` executes
// itself again, same process and arguments, with sysmonSetting added to
// GODEBUG, unless GODEBUG sets schedtrace already. It must still stop
// neutral on SIGTERM.
func TestRunReexecsForSysmon(t *testing.T) {
	for _, c := range []struct {
		godebug string // "": none in the environment
		want    string
	}{
		{"", sysmonSetting},
		{"madvdontneed=1", "madvdontneed=1," + sysmonSetting},
		{"schedtrace=0", "schedtrace=0"},
	} {
		t.Run("GODEBUG="+c.godebug, func(t *testing.T) {
			cmd := frcdProcess("run", "--sim", "--no-ros", "--status", "20ms", "--wpilibws", "off", "--nt", "off",
				"../../examples/minimal/robot.urdf", "../../examples/minimal/robot.yaml")
			env := slices.DeleteFunc(cmd.Env, func(kv string) bool { return strings.HasPrefix(kv, "GODEBUG=") })
			if c.godebug != "" {
				env = append(env, "GODEBUG="+c.godebug)
			}
			cmd.Env = env
			out, stderr := startChild(t, cmd)
			guard := time.AfterFunc(60*time.Second, func() { _ = cmd.Process.Kill() })
			defer guard.Stop()
			sc := bufio.NewScanner(out)
			for !strings.HasPrefix(sc.Text(), "t=") {
				if !sc.Scan() {
					t.Fatalf("frcd ended before its first status line:\n%s", stderr)
				}
			}
			pid := strconv.Itoa(cmd.Process.Pid)
			environ, err := os.ReadFile("/proc/" + pid + "/environ")
			if err != nil {
				t.Fatal(err)
			}
			var godebug []string
			for _, kv := range bytes.Split(environ, []byte{0}) {
				if v, ok := strings.CutPrefix(string(kv), "GODEBUG="); ok {
					godebug = append(godebug, v)
				}
			}
			if !slices.Equal(godebug, []string{c.want}) {
				t.Errorf("the running frcd's GODEBUG: %q, want %q", godebug, c.want)
			}
			cmdline, err := os.ReadFile("/proc/" + pid + "/cmdline")
			if err != nil {
				t.Fatal(err)
			}
			if got, want := string(cmdline), strings.Join(cmd.Args, "\x00")+"\x00"; got != want {
				t.Errorf("the running frcd's arguments: %q, want %q", got, want)
			}
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			neutral := false
			for sc.Scan() {
				neutral = neutral || strings.Contains(sc.Text(), "every output neutral")
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("frcd after SIGTERM: %v\n%s", err, stderr)
			}
			if !neutral {
				t.Error("frcd did not say every output went neutral after SIGTERM")
			}
			if strings.Contains(stderr.String(), "running without GODEBUG") {
				t.Errorf("the re-exec failed:\n%s", stderr)
			}
		})
	}
}
