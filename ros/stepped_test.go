package ros

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/devices"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/interfaces"
	"github.com/frcd/frcd/internal/ratelimit"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/sim"
)

// stepped is a session on the stepped sim, for tests of what the
// publishing goroutine publishes when: the competition robot (its YAML
// edited) at 100 Hz, a manager, the bridge connected to an embedded
// master, and step, which runs a cycle and the session's update as run
// does, for the cycles from the time it asks to be woken from.
type stepped struct {
	s     *sim.Sim
	loop  *control.Loop
	m     *control.Manager
	br    *Bridge
	sess  *session
	port  int
	ctx   context.Context
	pace  ratelimit.Cadence
	now   time.Duration
	wakes int
}

// newStepped builds a stepped session from the competition robot's YAML
// as edit changes it.
func newStepped(t *testing.T, edit func(t *testing.T, yaml string) string) *stepped {
	t.Helper()
	src, err := os.ReadFile(buildBenchYAML)
	if err != nil {
		t.Fatal(err)
	}
	yaml := filepath.Join(t.TempDir(), "robot.yaml")
	if err := os.WriteFile(yaml, []byte(edit(t, string(src))), 0o644); err != nil {
		t.Fatal(err)
	}
	r, list, err := robot.Load(buildBenchURDF, yaml)
	if err != nil || list.Errors() > 0 {
		t.Fatalf("load: %v %v", err, list)
	}
	s, err := sim.New(r, sim.ConfigOptions(r.Config, 1, false))
	if err != nil {
		t.Fatal(err)
	}
	s.SetDS(hal.DSState{Enabled: true, Attached: true, Mode: hal.Teleop})
	reg := interfaces.NewRegistry()
	devs, err := devices.Build(r.Config, devices.NewEnv(s, reg))
	if err != nil {
		t.Fatal(err)
	}
	cdevs := make([]control.Device, len(devs))
	for i, d := range devs {
		cdevs[i] = d
	}
	loop, err := control.New(r, reg, cdevs, s, control.Options{Stopwatch: s.Now})
	if err != nil {
		t.Fatal(err)
	}
	if loop.Period() != 10*time.Millisecond {
		t.Fatalf("loop period %v, the test wants 10 ms", loop.Period())
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	m := control.NewManager(r.Config, loop)
	br, err := New(Options{Loop: loop, Config: r.Config, Clock: s.Now, Epoch: s.Epoch(), Manager: m, Logf: t.Logf,
		Env: Env{MasterURI: fmt.Sprintf("http://127.0.0.1:%d", port), IP: "127.0.0.1"}, Master: MasterEmbedded})
	if err != nil {
		t.Fatal(err)
	}
	e := embeddedMaster{b: br}
	if !e.start() {
		t.Fatal("the embedded master did not start")
	}
	t.Cleanup(e.close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	sess, err := br.connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sess.close)
	return &stepped{s: s, loop: loop, m: m, br: br, sess: sess, port: port, ctx: ctx,
		pace: ratelimit.Cadence{Period: br.every, Slack: loop.Period() / 2, CatchUp: loop.Period()}}
}

// step runs a cycle, and the session's update if the loop would signal
// it (from the time it asked for).
func (st *stepped) step() {
	st.now += st.loop.Period()
	st.s.AdvanceTo(st.now)
	st.loop.Cycle(st.now)
	if st.now >= st.br.updated.Wanted() { // as the loop signals run
		st.wakes++
		st.sess.answer(&st.pace, st.now)
	}
}

// jscRate10 is edit's part for the joint state controller at
// publish_rate 10 (the competition robot's is 50).
func jscRate10(t *testing.T, yaml string) string {
	t.Helper()
	const jsc = "type: joint_state_controller/JointStateController\n    publish_rate: 50\n"
	if !strings.Contains(yaml, jsc) {
		t.Fatalf("%s has no %q", buildBenchYAML, jsc)
	}
	return strings.Replace(yaml, jsc, strings.Replace(jsc, "50", "10", 1), 1)
}
