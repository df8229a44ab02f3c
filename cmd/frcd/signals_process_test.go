package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/frcd/frcd/internal/tooltest"
	"github.com/frcd/frcd/nt4/wire"
)

// TestSignalsEndNeutral runs frcd on the sim in a child process, drives
// the elevator over NT4 until the WPILib WebSocket shows its PWM running,
// then sends one signal. Every signal that ends frcd must end it with the
// last value every output got neutral (read from the WebSocket's final
// update: every PWM, relay, solenoid and CAN motor) and a proper close;
// SIGQUIT prints the goroutines after that. SIGPIPE, SIGUSR1 and SIGUSR2
// must not end it: it keeps cycling, then SIGTERM stops it as above.
func TestSignalsEndNeutral(t *testing.T) {
	if testing.Short() {
		t.Skip("starts frcd once per signal: skipped with -short")
	}
	dir := t.TempDir()
	yaml, err := os.ReadFile("../../examples/competition/robot.yaml")
	if err != nil {
		t.Fatal(err)
	}
	yamlPath := filepath.Join(dir, "robot.yaml")
	if err := os.WriteFile(yamlPath, append(yaml, "\nnt4: {commands: true}\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sig    syscall.Signal
		ends   bool
		code   int
		dumped bool
	}{
		{syscall.SIGHUP, true, 0, false},
		{syscall.SIGQUIT, true, 131, true},
		{syscall.SIGABRT, true, 134, true},
		{syscall.SIGUSR1, false, 0, false},
		{syscall.SIGUSR2, false, 0, false},
		{syscall.SIGPIPE, false, 0, false},
	} {
		t.Run(c.sig.String(), func(t *testing.T) {
			f := startSignalled(t, yamlPath)
			f.drive(t)
			if err := f.cmd.Process.Signal(c.sig); err != nil {
				t.Fatal(err)
			}
			if !c.ends {
				// Still cycling: three more status lines come.
				f.statuses(t, 3)
				if err := f.cmd.Process.Signal(syscall.SIGTERM); err != nil {
					t.Fatal(err)
				}
			}
			f.finish(t, c.code, c.dumped)
		})
	}
}

// signalled is a child frcd with a WebSocket client watching its outputs
// and an NT4 client commanding the elevator.
type signalled struct {
	cmd    *exec.Cmd
	lines  chan string
	stderr *tooltest.Buffer
	ws     *websocket.Conn
	nt     *wire.Conn
	guard  *time.Timer

	mu       sync.Mutex
	state    map[string]map[string]json.RawMessage // "type device" -> key -> value
	closeErr error
	read     chan struct{} // closed when the WebSocket reader ends
}

func startSignalled(t *testing.T, yamlPath string) *signalled {
	t.Helper()
	f := &signalled{lines: make(chan string, 1024), stderr: &tooltest.Buffer{}, state: map[string]map[string]json.RawMessage{}, read: make(chan struct{})}
	f.cmd = frcdProcess("run", "--sim", "--no-ros", "--status", "20ms", "--wpilibws", "127.0.0.1:0", "--nt", "127.0.0.1:0",
		"../../examples/competition/robot.urdf", yamlPath)
	out, err := f.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	f.cmd.Stderr = f.stderr
	if err := f.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// A guard against a hung child only: the test waits on the child's
	// output, not on a clock.
	f.guard = time.AfterFunc(60*time.Second, func() { _ = f.cmd.Process.Kill() })
	t.Cleanup(func() { f.guard.Stop(); _ = f.cmd.Process.Kill() })
	go func() {
		defer close(f.lines)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			f.lines <- sc.Text()
		}
	}()
	var wsAddr, ntAddr string
	for wsAddr == "" || ntAddr == "" {
		line, ok := <-f.lines
		if !ok {
			t.Fatalf("frcd ended before serving:\n%s", f.stderr)
		}
		if a, ok := strings.CutPrefix(line, "frcd: WPILib simulation WebSocket on ws://"); ok {
			wsAddr = strings.TrimSuffix(a, "/wpilibws")
		}
		if a, ok := strings.CutPrefix(line, "frcd: NetworkTables 4 on ws://"); ok {
			ntAddr = strings.TrimSuffix(a, "/nt/<client>")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	f.ws, _, err = websocket.Dial(ctx, "ws://"+wsAddr+"/wpilibws", nil)
	if err != nil {
		t.Fatal(err)
	}
	go f.readWS()
	f.nt, err = wire.Dial(ctx, ntAddr, "signals")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.nt.CloseNow)
	return f
}

// readWS applies every WebSocket message to state until the connection
// ends.
func (f *signalled) readWS() {
	defer close(f.read)
	for {
		_, b, err := f.ws.Read(context.Background())
		if err != nil {
			f.mu.Lock()
			f.closeErr = err
			f.mu.Unlock()
			return
		}
		var m struct {
			Type, Device string
			Data         map[string]json.RawMessage
		}
		if json.Unmarshal(b, &m) != nil {
			continue
		}
		f.mu.Lock()
		k := m.Type + " " + m.Device
		if f.state[k] == nil {
			f.state[k] = map[string]json.RawMessage{}
		}
		for key, v := range m.Data {
			f.state[k][key] = v
		}
		f.mu.Unlock()
	}
}

func (f *signalled) get(dev, key string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return string(f.state[dev][key])
}

// drive commands the elevator at 6 V over NT4 until the WebSocket shows
// its PWM (4) running, and on until the signal is sent.
func (f *signalled) drive(t *testing.T) {
	t.Helper()
	pub, err := f.nt.Publish("/frcd/commands/elevator_voltage", "double")
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	t.Cleanup(func() { close(stop); <-done })
	go func() {
		defer close(done)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			if f.nt.SetDouble(pub, 0, 6) != nil {
				return
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	for {
		line, ok := <-f.lines
		if !ok {
			t.Fatalf("frcd ended while driving:\n%s", f.stderr)
		}
		var speed float64
		if _, err := fmt.Sscan(f.get("PWM 4", "<speed"), &speed); err == nil && speed > 0.3 && strings.Contains(line, " enabled cycles=") {
			return
		}
	}
}

// statuses waits for n more status lines.
func (f *signalled) statuses(t *testing.T, n int) {
	t.Helper()
	for n > 0 {
		line, ok := <-f.lines
		if !ok {
			t.Fatalf("frcd ended:\n%s", f.stderr)
		}
		if strings.Contains(line, " cycles=") {
			n--
		}
	}
}

// finish waits for the child's exit and checks its code, the dump, and
// the last value of every output.
func (f *signalled) finish(t *testing.T, code int, dumped bool) {
	t.Helper()
	var all []string
	for line := range f.lines {
		all = append(all, line)
	}
	err := f.cmd.Wait()
	got := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		got = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	<-f.read
	stdout, stderr := strings.Join(all, "\n"), f.stderr.String()
	if got != code {
		t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", got, code, stdout, stderr)
	}
	if !strings.Contains(stdout, "frcd: stopped; every output neutral") {
		t.Errorf("no stop line:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if hasDump := strings.Contains(stderr, "every output neutral; the goroutines:\ngoroutine "); hasDump != dumped {
		t.Errorf("goroutine dump after the halt: %v, want %v\nstderr:\n%s", hasDump, dumped, stderr)
	}
	if st := websocket.CloseStatus(f.closeErr); st != websocket.StatusGoingAway {
		t.Errorf("the WebSocket closed with %v (%v), want 1001 going away", st, f.closeErr)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	outputs := 0
	for dev, kv := range f.state {
		for key, v := range kv {
			neutral := ""
			switch key {
			case "<speed", "<position", "<percentOutput":
				neutral = "0"
			case "<fwd", "<rev", "<output":
				neutral = "false"
			default:
				continue
			}
			outputs++
			if string(v) != neutral {
				t.Errorf("%s %s: last value %s, want %s", dev, key, v, neutral)
			}
		}
	}
	if outputs < 10 {
		t.Errorf("only %d outputs seen on the WebSocket: %v", outputs, f.state)
	}
	if e := string(f.state["DriverStation "][">enabled"]); e != "false" {
		t.Errorf("last >enabled %s, want false", e)
	}
}
