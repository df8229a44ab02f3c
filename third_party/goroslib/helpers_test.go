package goroslib

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"
)

// waitLimit bounds every wait on a real process or socket; a test that
// reaches it has failed (it is no measure of speed).
const waitLimit = 30 * time.Second

// startMaster runs Debian's rosmaster on a free port and returns its
// address. A machine without it skips the test, except in CI or with
// FRCD_REQUIRE_TOOLS set (frcd's make test), where it fails.
func startMaster(t testing.TB) string {
	t.Helper()
	path, err := exec.LookPath("rosmaster")
	if err != nil {
		if os.Getenv("CI") != "" || os.Getenv("FRCD_REQUIRE_TOOLS") != "" {
			t.Fatal("rosmaster not installed (scripts/install-deps.sh)")
		}
		t.Skip("rosmaster not installed")
	}
	// The port is free when picked, but another process may take it
	// before rosmaster binds it: a rosmaster that exits is started again
	// on another port, and its output is shown if none comes up.
	var out strings.Builder
	for attempt := 1; ; attempt++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()

		cmd := exec.Command(path, "--core", "-p", strconv.Itoa(port))
		home := t.TempDir()
		cmd.Env = append(os.Environ(), "ROS_HOME="+home, "ROS_LOG_DIR="+home)
		var log bytes.Buffer
		cmd.Stdout, cmd.Stderr = &log, &log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		t.Cleanup(func() {
			cmd.Process.Kill()
			<-exited
		})

		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		for deadline := time.Now().Add(waitLimit); ; {
			c, err := net.Dial("tcp", addr)
			if err == nil {
				c.Close()
				return addr
			}
			select {
			case <-exited:
			default:
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					<-exited // its output complete
					t.Fatalf("rosmaster not listening on %s: %v\n%s%s", addr, err, out.String(), log.String())
				}
				time.Sleep(20 * time.Millisecond) // a separate process: its open port is the only sign it is up
				continue
			}
			break
		}
		fmt.Fprintf(&out, "rosmaster on port %d exited:\n%s\n", port, log.String())
		if attempt == 3 {
			t.Fatalf("rosmaster did not start in 3 attempts:\n%s", out.String())
		}
	}
}

func newTestNode(t testing.TB, master, name string) *Node {
	t.Helper()
	n, err := NewNode(NodeConf{Name: name, MasterAddress: master, Host: "127.0.0.1",
		LogDestinations: LogDestinationCallback})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Close)
	return n
}

func newTestPublisher(t testing.TB, conf PublisherConf) *Publisher {
	t.Helper()
	if conf.Msg == nil {
		conf.Msg = &sensor_msgs.JointState{}
	}
	p, err := NewPublisher(conf)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func jointState(seq uint32, n int) *sensor_msgs.JointState {
	m := &sensor_msgs.JointState{Header: std_msgs.Header{Seq: seq, Stamp: time.Unix(int64(seq), 0)}}
	for i := 0; i < n; i++ {
		m.Name = append(m.Name, fmt.Sprintf("joint_%d", i))
		m.Position = append(m.Position, float64(seq)+float64(i)/10)
		m.Velocity = append(m.Velocity, -float64(i))
		m.Effort = append(m.Effort, 0.5)
	}
	return m
}
