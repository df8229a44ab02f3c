// Command canagent runs inside the virtual machine of cmd/frcd's
// real-kernel CAN test (TestLinuxCANOnKernel): with vcan0 up, it starts
// candump and `frcd run --hal linux`, enables frcd over ROS
// (/frcd/enable), commands its solenoids, feeds it PDP status frames with
// cansend, takes vcan0 down and up again, stops frcd with SIGTERM and
// shows a CAN FD frame on vcan1. It asserts nothing: it reports what
// happened, as JSON lines on its standard output (the VM's second serial
// port), for the test on the host to check.
//
// Each line is an Event: "mark" when a step starts (its time on the
// guest's clock, the clock candump's timestamps use), "log" for each line
// frcd printed, "diag" for each /diagnostics status that is not OK,
// "currents" and "battery" for the PDP's topics, "exit" for frcd's exit,
// "candump" for each line of candump's output, "cmd" for the output of
// the commands the CAN FD step ran, "fail" when a step could not run.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/diagnostic_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/sensor_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_srvs"
	"github.com/frcd/frcd/internal/vmagent"
)

func main() {
	frcd := flag.String("frcd", "/bin/frcd", "the frcd binary")
	urdf := flag.String("urdf", "/robot/robot.urdf", "the robot's URDF")
	yaml := flag.String("yaml", "/robot/robot.yaml", "the robot's YAML")
	iface := flag.String("iface", "vcan0", "the CAN interface frcd uses")
	halName := flag.String("hal", "linux", "frcd's --hal: linux or systemcore")
	flag.Parse()
	if err := run(*frcd, *halName, *urdf, *yaml, *iface); err != nil {
		vmagent.Fail("%v", err)
	}
	canFD()
}

// pdpFrames are the PDP's four status frames (device 0) the agent sends,
// as cansend writes them: channels 1-6 at 1, 2, 3, 4, 5, 6 A (10 bits of
// 0.125 A, packed high bits first), 12.5 V (b6 170: 170 × 0.05 + 4),
// total current 3.75 A (30 × 0.125). cmd/frcd's test checks the decoded
// values.
var pdpFrames = []string{
	"08041400#02010060200A0300", // ch1-6 raw 8, 16, 24, 32, 40, 48
	"08041440#0000000000000000",
	"08041480#000000000000AA5A", // 12.5 V, 25.1 degC
	"08041740#1401E00000000000",
}

func run(frcd, halName, urdf, yaml, iface string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	// candump exits when its interface goes down ("read: Network is
	// down"): one before the down step, another after it.
	dumps := []*bytes.Buffer{}
	var procs []*exec.Cmd
	startDump := func() error {
		c := exec.CommandContext(ctx, "candump", "-ta", iface+",01011840:1FFFFFFF,09041C00:1FFFFFFF,09050C01:1FFFFFFF,08041400:1FFFFFFF")
		var out bytes.Buffer
		c.Stdout, c.Stderr = &out, os.Stderr
		if err := c.Start(); err != nil {
			return fmt.Errorf("candump: %w", err)
		}
		dumps, procs = append(dumps, &out), append(procs, c)
		return nil
	}
	if err := startDump(); err != nil {
		return err
	}
	defer func() {
		for i, c := range procs {
			_ = c.Process.Signal(syscall.SIGINT)
			_ = c.Wait()
			for _, l := range strings.Split(strings.TrimSpace(dumps[i].String()), "\n") {
				if l != "" {
					vmagent.Emit(vmagent.Event{Ev: "candump", Line: l})
				}
			}
		}
	}()

	vmagent.Mark("start")
	d := exec.Command(frcd, "run", "--hal", halName, urdf, yaml)
	d.Env = append(os.Environ(), "ROS_MASTER_URI=http://127.0.0.1:11311", "ROS_IP=127.0.0.1")
	exited, err := vmagent.Start(d)
	if err != nil {
		return err
	}
	stopped := false
	defer func() {
		if !stopped {
			_ = d.Process.Kill()
			<-exited
		}
	}()

	node, err := connect(ctx, exited)
	if err != nil {
		return err
	}
	defer node.Close()
	var subs []*goroslib.Subscriber
	defer func() {
		for _, s := range subs {
			s.Close()
		}
	}()
	sub := func(topic string, cb any) {
		s, err := goroslib.NewSubscriber(goroslib.SubscriberConf{Node: node, Topic: topic, Callback: cb})
		if err != nil {
			vmagent.Fail("subscribe %s: %v", topic, err)
			return
		}
		subs = append(subs, s)
	}
	sub("/diagnostics", func(m *diagnostic_msgs.DiagnosticArray) {
		for _, st := range m.Status {
			if st.Level != 0 || strings.Contains(st.Name, iface) {
				vmagent.Emit(vmagent.Event{Ev: "diag", Name: st.Name, Line: st.Message, Code: int(st.Level)})
			}
		}
	})
	var pdpCur, pdpBat atomic.Bool
	sub("/pdp/currents", changes("currents", func(m *std_msgs.Float64MultiArray) []float64 {
		if len(m.Data) >= 6 && slices.Equal(m.Data[:6], []float64{1, 2, 3, 4, 5, 6}) {
			pdpCur.Store(true)
		}
		return m.Data
	}))
	sub("/pdp/battery", changes("battery", func(m *sensor_msgs.BatteryState) []float64 {
		if m.Voltage == 12.5 && m.Current == -3.75 {
			pdpBat.Store(true)
		}
		return []float64{float64(m.Voltage), float64(m.Current)}
	}))
	pdpSeen := &pdpSeenT{&pdpCur, &pdpBat}
	latch, err := goroslib.NewPublisher(goroslib.PublisherConf{Node: node, Topic: "/latch/command", Msg: &std_msgs.Bool{}})
	if err != nil {
		return err
	}
	defer latch.Close()
	intake, err := goroslib.NewPublisher(goroslib.PublisherConf{Node: node, Topic: "/intake/command", Msg: &std_msgs.Int8{}})
	if err != nil {
		return err
	}
	defer intake.Close()

	// Disabled: the heartbeat goes out with the enable bits clear.
	vmagent.Mark("disabled")
	time.Sleep(time.Second)

	vmagent.Mark("enabling")
	if err := enable(ctx, node, true); err != nil {
		return err
	}
	vmagent.Mark("enabled")
	time.Sleep(500 * time.Millisecond)

	// Commands at 20 Hz from here on (a command holds for 0.5 s).
	vmagent.Mark("commanded")
	cmdCtx, stopCmds := context.WithCancel(ctx)
	defer stopCmds()
	cmdsDone := make(chan struct{})
	go func() {
		defer close(cmdsDone)
		tk := time.NewTicker(50 * time.Millisecond)
		defer tk.Stop()
		for {
			latch.Write(&std_msgs.Bool{Data: true})
			intake.Write(&std_msgs.Int8{Data: 1})
			select {
			case <-cmdCtx.Done():
				return
			case <-tk.C:
			}
		}
	}()
	time.Sleep(time.Second)

	// The PDP's status frames, from cansend every 20 ms, until frcd has
	// published what they say (or 10 s): each cansend is a process, which
	// under plain emulation takes a good part of the PDP's 100 ms timeout.
	vmagent.Mark("pdp")
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end) && !pdpSeen.Load(); {
		for _, f := range pdpFrames {
			if out, err := exec.CommandContext(ctx, "cansend", iface, f).CombinedOutput(); err != nil {
				vmagent.Fail("cansend %s %s: %v: %s", iface, f, err, out)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	vmagent.Mark("pdp-end")
	time.Sleep(300 * time.Millisecond)

	// The interface goes down for a second, then comes back.
	vmagent.Mark("down")
	if out, err := exec.CommandContext(ctx, "ip", "link", "set", iface, "down").CombinedOutput(); err != nil {
		vmagent.Fail("ip link set %s down: %v: %s", iface, err, out)
	}
	vmagent.Mark("is-down") // ip has returned: the interface is down from here
	time.Sleep(1500 * time.Millisecond)
	vmagent.Mark("up")
	if out, err := exec.CommandContext(ctx, "ip", "link", "set", iface, "up").CombinedOutput(); err != nil {
		vmagent.Fail("ip link set %s up: %v: %s", iface, err, out)
	}
	if err := startDump(); err != nil {
		return err
	}
	time.Sleep(3 * time.Second) // past the next two reports on /diagnostics
	stopCmds()
	<-cmdsDone

	// SIGTERM, still enabled and commanded: every output goes neutral and
	// frcd exits 0 within the deadline.
	vmagent.Mark("sigterm")
	_ = d.Process.Signal(syscall.SIGTERM)
	stopped = true
	select {
	case err := <-exited:
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			code = -1
		}
		vmagent.Emit(vmagent.Event{Ev: "exit", Code: code})
	case <-time.After(10 * time.Second):
		_ = d.Process.Kill()
		<-exited
		vmagent.Fail("frcd did not exit within 10 s of SIGTERM")
	}
	time.Sleep(time.Second) // let candump take the last frames
	return nil
}

// pdpSeenT is whether frcd has published the PDP frames' currents and
// battery.
type pdpSeenT struct{ cur, bat *atomic.Bool }

func (p *pdpSeenT) Load() bool { return p.cur.Load() && p.bat.Load() }

// changes makes a subscriber's callback that reports the values of each
// message that differ from the last one's.
func changes[M any](ev string, vals func(*M) []float64) func(*M) {
	var last []float64
	var mu sync.Mutex
	return func(m *M) {
		v := vals(m)
		mu.Lock()
		defer mu.Unlock()
		if last == nil || !slices.Equal(v, last) {
			last = v
			vmagent.Emit(vmagent.Event{Ev: ev, Vals: v})
		}
	}
}

// connect waits for frcd's embedded master and /frcd/enable.
func connect(ctx context.Context, exited chan error) (*goroslib.Node, error) {
	deadline := time.Now().Add(30 * time.Second)
	for {
		node, err := goroslib.NewNode(goroslib.NodeConf{Name: "canagent", MasterAddress: "127.0.0.1:11311", Host: "127.0.0.1",
			LogDestinations: goroslib.LogDestinationCallback})
		if err == nil {
			var svcs map[string]*goroslib.InfoService
			if svcs, err = node.MasterGetServices(); err == nil {
				if _, ok := svcs["/frcd/enable"]; ok {
					return node, nil
				}
				err = errors.New("/frcd/enable is not registered")
			}
			node.Close()
		}
		select {
		case e := <-exited:
			exited <- e // for run's deferred wait, which would block on it otherwise
			return nil, fmt.Errorf("frcd exited before its ROS node was up: %v", e)
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("no /frcd/enable within 30 s: %v", err)
		}
	}
}

func enable(ctx context.Context, node *goroslib.Node, on bool) error {
	c, err := goroslib.NewServiceClient(goroslib.ServiceClientConf{Node: node, Name: "/frcd/enable", Srv: &std_srvs.SetBool{}})
	if err != nil {
		return fmt.Errorf("/frcd/enable: %w", err)
	}
	defer c.Close()
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var res std_srvs.SetBoolRes
	if err := c.CallContext(cctx, &std_srvs.SetBoolReq{Data: on}, &res); err != nil {
		return fmt.Errorf("/frcd/enable %v: %w", on, err)
	}
	if !res.Success {
		return fmt.Errorf("/frcd/enable %v refused: %s", on, res.Message)
	}
	return nil
}

// canFD shows that this kernel's vcan takes the CAN FD MTU (72) and
// carries a 64-byte CAN FD frame from cansend to candump.
func canFD() {
	vmagent.Mark("canfd")
	sh := func(args ...string) string {
		out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
		if err != nil {
			vmagent.Fail("%s: %v: %s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	sh("ip", "link", "add", "dev", "vcan1", "type", "vcan")
	sh("ip", "link", "set", "vcan1", "mtu", "72")
	sh("ip", "link", "set", "vcan1", "up")
	vmagent.Emit(vmagent.Event{Ev: "cmd", Name: "ip link show vcan1", Line: sh("ip", "link", "show", "vcan1")})
	dump := exec.Command("candump", "-n", "1", "vcan1")
	var out bytes.Buffer
	dump.Stdout = &out
	if err := dump.Start(); err != nil {
		vmagent.Fail("candump vcan1: %v", err)
		return
	}
	// candump binds before it reads; send until it has taken a frame.
	done := make(chan error, 1)
	go func() { done <- dump.Wait() }()
	for i := 0; ; i++ {
		sh("cansend", "vcan1", "1FFFFFF0##3"+strings.Repeat("A5", 64))
		select {
		case <-done:
			vmagent.Emit(vmagent.Event{Ev: "cmd", Name: "candump vcan1", Line: out.String()})
			return
		case <-time.After(50 * time.Millisecond):
		}
		if i == 100 {
			_ = dump.Process.Kill()
			vmagent.Fail("candump vcan1 saw no CAN FD frame in 5 s")
			return
		}
	}
}
