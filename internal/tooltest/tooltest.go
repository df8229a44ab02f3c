// Package tooltest runs the external tools integration tests need (the
// Debian ROS 1 tools, check_urdf) from tests: it finds them, skipping or
// failing as `make test` asks, and runs each in its own process group so
// that nothing it starts outlives the test.
package tooltest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Timeout bounds every tool run.
const Timeout = 30 * time.Second

// Tool is a command (a name on PATH or an absolute path) and the Debian
// package that installs it.
type Tool struct{ Name, Package string }

// The tools scripts/install-deps.sh installs.
var (
	CheckURDF           = Tool{"check_urdf", "liburdfdom-tools"}
	Rosmaster           = Tool{"rosmaster", "python3-rosmaster"}
	Rostopic            = Tool{"rostopic", "python3-rostopic"}
	Rosnode             = Tool{"rosnode", "python3-rosnode"}
	Rosparam            = Tool{"rosparam", "python3-rosparam"}
	Rosservice          = Tool{"rosservice", "python3-rosservice"}
	RobotStatePublisher = Tool{"/usr/lib/robot_state_publisher/robot_state_publisher", "ros-robot-state-publisher"}
	Node                = Tool{"node", "nodejs"}
	CC                  = Tool{"cc", "gcc"}
	AArch64CC           = Tool{"aarch64-linux-gnu-gcc", "gcc-aarch64-linux-gnu"}
	SSHD                = Tool{"/usr/sbin/sshd", "openssh-server"}
)

// RequireFile is Require for a file a tool needs (a package that
// scripts/install-deps.sh installs outside apt, such as an npm module):
// the test skips when it is missing, or fails under FRCD_REQUIRE_TOOLS=1.
func RequireFile(t testing.TB, path, installedBy string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		missing(t, fmt.Sprintf("%s not found: %s installs it (make deps runs scripts/install-deps.sh)", path, installedBy))
	}
}

// Require skips the test when a tool is missing, or fails it when the
// environment has FRCD_REQUIRE_TOOLS=1, as `make test` (and so CI) sets:
// there the real tools always run.
func Require(t testing.TB, tools ...Tool) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool.Name); err != nil {
			missing(t, fmt.Sprintf("%s not found: install the Debian package %s (make deps runs scripts/install-deps.sh)", tool.Name, tool.Package))
		}
	}
}

// missing skips the test for a missing tool, or fails it under
// FRCD_REQUIRE_TOOLS=1.
func missing(t testing.TB, msg string) {
	t.Helper()
	if os.Getenv("FRCD_REQUIRE_TOOLS") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// Service is a long-running Run(ctx) of a test: a daemon or a server.
type Service struct {
	done chan struct{}
	err  error
}

// Serve runs serve in a goroutine until the test ends; then it cancels
// serve's context, waits for it, and fails the test on its error.
func Serve(t testing.TB, serve func(context.Context) error) *Service {
	ctx, cancel := context.WithCancel(context.Background())
	s := &Service{done: make(chan struct{})}
	go func() {
		defer close(s.done)
		s.err = serve(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-s.done
		if s.err != nil {
			t.Errorf("%v", s.err)
		}
	})
	return s
}

// Alive fails the test if serve has returned.
func (s *Service) Alive(t testing.TB) {
	t.Helper()
	select {
	case <-s.done:
		t.Fatalf("stopped: %v", s.err)
	default:
	}
}

// Await waits for ready, failing the test if serve returns first or
// nothing comes within Timeout.
func (s *Service) Await(t testing.TB, what string, ready <-chan struct{}) {
	t.Helper()
	guard := time.NewTimer(Timeout)
	defer guard.Stop()
	select {
	case <-ready:
	case <-s.done:
		t.Fatalf("stopped before %s: %v", what, s.err)
	case <-guard.C:
		t.Fatalf("no %s within %s", what, Timeout)
	}
}

// FreePort returns a TCP port on 127.0.0.1 that nothing listened on a
// moment ago, for a server a test starts.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// Eventually re-checks cond until it holds, failing the test at the
// deadline: for a condition nothing can be waited on for (each check
// typically runs a tool, which takes its own time).
func Eventually(t testing.TB, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, limit)
		}
		runtime.Gosched()
	}
}

// ROS is the environment of ROS tools talking to one master: the caller's
// environment without its ROS_ variables, plus the master's URI, this host
// by IP and private ROS_HOME and log directories.
type ROS struct {
	MasterURI string
	Vars      []string
}

// NewROS returns the environment for a master at masterURI.
func NewROS(t testing.TB, masterURI string) *ROS {
	var vars []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ROS_") {
			vars = append(vars, kv)
		}
	}
	vars = append(vars, "ROS_MASTER_URI="+masterURI, "ROS_IP=127.0.0.1", "ROS_HOME="+t.TempDir(),
		"ROS_LOG_DIR="+t.TempDir(), "PYTHONDONTWRITEBYTECODE=1")
	return &ROS{MasterURI: masterURI, Vars: vars}
}

// Command prepares a tool in its own process group, killed group and all
// when ctx ends.
func (e *ROS) Command(ctx context.Context, name string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env = e.Vars
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// Run runs a tool to completion within Timeout and returns its standard
// output; an error carries its standard error.
func (e *ROS) Run(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	cmd := e.Command(ctx, name, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // whatever it left in its group
	if err != nil {
		return stdout.String(), fmt.Errorf("%s %s: %w\nstdout: %s\nstderr: %s", name, strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String(), nil
}

// MustRun is Run that fails the test on error.
func (e *ROS) MustRun(t testing.TB, name string, args ...string) string {
	t.Helper()
	out, err := e.Run(name, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Start starts a long-running tool. stop kills its process group and
// waits for it; it also runs at the end of the test, which logs the
// tool's output if the test failed.
func (e *ROS) Start(t testing.TB, name string, args ...string) (stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := e.Command(ctx, name, args...)
	var out Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			<-done
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		})
	}
	t.Cleanup(func() {
		stop()
		if t.Failed() {
			t.Logf("%s output:\n%s", name, out.String())
		}
	})
	return stop
}

// Buffer collects a process's output, safe to read while the process
// writes it.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is what was written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
