package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/nt4/wire"
)

// lines runs a scanner of r into a channel.
func lines(r io.Reader) <-chan string {
	ch := make(chan string, 1024)
	go func() {
		defer close(ch)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			ch <- sc.Text()
		}
	}()
	return ch
}

// waitLine reads ch until a line containing want, returning it.
func waitLine(t *testing.T, ch <-chan string, want string, also *tooltest.Buffer) string {
	t.Helper()
	for line := range ch {
		if strings.Contains(line, want) {
			return line
		}
	}
	t.Fatalf("ended without %q\n%s", want, also)
	return ""
}

// TestTwoRobotsOnOneMachine: two frcd started alike (the same NT4 and
// WebSocket ports, as two runs with the default options have) both run:
// the second reports both servers down (its first lines, its status line,
// its log) and keeps cycling; once the first stops, the second takes the
// ports and serves a dashboard. A log directory that cannot be written
// (here: a file) is reported the same way and does not stop the robot.
func TestTwoRobotsOnOneMachine(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two frcd for several seconds: skipped with -short")
	}
	nt, ws := tooltest.FreePort(t), tooltest.FreePort(t)
	args := []string{"run", "--sim", "--no-ros", "--status", "50ms", "--nt", "127.0.0.1:" + itoa(nt), "--wpilibws", "127.0.0.1:" + itoa(ws),
		"../../examples/competition/robot.urdf", "../../examples/competition/robot.yaml"}
	start := func(extra ...string) (cmd *exec.Cmd, out <-chan string, errs <-chan string, all *tooltest.Buffer) {
		cmd = frcdProcess(append(append([]string(nil), args[:2]...), append(extra, args[2:]...)...)...)
		o, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		e, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		guard := time.AfterFunc(90*time.Second, func() { _ = cmd.Process.Kill() }) // a hung child only
		t.Cleanup(func() { guard.Stop(); _ = cmd.Process.Kill() })
		all = &tooltest.Buffer{}
		return cmd, lines(io.TeeReader(o, all)), lines(io.TeeReader(e, all)), all
	}
	first, out1, _, all1 := start()
	waitLine(t, out1, "frcd: NetworkTables 4 on ws://", all1)
	waitLine(t, out1, " enabled cycles=", all1)

	notDir := t.TempDir() + "/file"
	if err := writeFile(notDir); err != nil {
		t.Fatal(err)
	}
	second, out2, err2, all2 := start("--log", notDir)
	waitLine(t, out2, "frcd: WPILib simulation WebSocket not served yet:", all2)
	waitLine(t, out2, "frcd: NetworkTables 4 not served yet:", all2)
	waitLine(t, out2, "frcd: not logging:", all2)
	var cycles []string
	for len(cycles) < 3 {
		line := waitLine(t, out2, " enabled cycles=", all2)
		if !strings.Contains(line, "down: NT4 server, WPILOG log, WPILib WebSocket server") {
			t.Fatalf("the second's status line does not say what is down: %s", line)
		}
		cycles = append(cycles, strings.Fields(line)[2])
	}
	if cycles[0] == cycles[2] {
		t.Errorf("the second robot does not cycle: %v", cycles)
	}
	waitLine(t, err2, "frcd: NT4 server is down, the robot runs on: cannot listen on 127.0.0.1:"+itoa(nt), all2)

	// The first stops: the second takes the ports within PartRetry.
	if err := first.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("the first: %v\n%s", err, all1)
	}
	waitLine(t, err2, "frcd: NT4 server is up: listening on 127.0.0.1:"+itoa(nt), all2)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := wire.Dial(ctx, "127.0.0.1:"+itoa(nt), "dashboard")
	if err != nil {
		t.Fatalf("a dashboard on the second: %v", err)
	}
	c.Close()
	if err := second.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	err = second.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) || err != nil {
		t.Fatalf("the second: %v\n%s", err, all2)
	}
}

func writeFile(path string) error { return os.WriteFile(path, []byte("not a directory\n"), 0o644) }
