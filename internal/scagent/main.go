// Command scagent drives `frcd run --hal systemcore` inside the kernel
// test's VM (cmd/frcd TestSystemcoreIOOnKernel): it serves the emulated
// system server (internal/systemservertest) on Systemcore's port,
// 127.0.0.1:6810, records can_s0's heartbeat with candump, starts frcd
// with ROS off and NT4 on, commands the drive over frcd's NT4 commands,
// enables and disables it through the system server's Driver Station, and
// ends it with SIGTERM. It prints one JSON event a line, as canagent does:
// "mark" (a named instant on the guest's clock), "valset" (Vals: channel,
// value, as the server took it), "log" (frcd's lines), "candump", "fail".
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/frcd/frcd/internal/systemservertest"
	"github.com/frcd/frcd/internal/vmagent"
	"github.com/frcd/frcd/nt4"
)

func main() {
	frcd := flag.String("frcd", "/bin/frcd", "the frcd binary")
	urdf := flag.String("urdf", "/robot/robot.urdf", "the robot's URDF")
	yaml := flag.String("yaml", "/robot/robot.yaml", "the robot's YAML")
	flag.Parse()
	if err := run(*frcd, *urdf, *yaml); err != nil {
		vmagent.Fail("%s", err)
	}
	vmagent.Mark("done")
}

// until polls ok every millisecond until it holds or d passes.
func until(what string, d time.Duration, ok func() bool) error {
	end := time.Now().Add(d)
	for !ok() {
		if time.Now().After(end) {
			return fmt.Errorf("%s: not within %v", what, d)
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

func run(frcd, urdf, yaml string) error {
	srv, err := systemservertest.StartAt("127.0.0.1:6810")
	if err != nil {
		return err
	}
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	dump := exec.CommandContext(ctx, "candump", "-ta", "can_s0,01011840:1FFFFFFF")
	var dumped bytes.Buffer
	dump.Stdout, dump.Stderr = &dumped, os.Stderr
	if err := dump.Start(); err != nil {
		return fmt.Errorf("candump: %w", err)
	}
	defer func() {
		_ = dump.Process.Signal(syscall.SIGINT)
		_ = dump.Wait()
		for _, l := range strings.Split(strings.TrimSpace(dumped.String()), "\n") {
			if l != "" {
				vmagent.Emit(vmagent.Event{Ev: "candump", Line: l})
			}
		}
	}()

	vmagent.Mark("start")
	d := exec.Command(frcd, "run", "--hal", "systemcore", "--no-ros", "--nt", "127.0.0.1:5810", urdf, yaml)
	exited, err := vmagent.Start(d)
	if err != nil {
		return err
	}
	defer func() {
		if d.ProcessState == nil {
			d.Process.Kill()
		}
	}()

	if err := until("SmartIO modes published", 30*time.Second, func() bool {
		for ch := range 6 {
			if _, ok := srv.Int("/io/" + strconv.Itoa(ch) + "/type"); !ok {
				return false
			}
		}
		return true
	}); err != nil {
		return err
	}
	vmagent.Mark("modes")

	// The drive commanded 6 V over frcd's NT4 server, every 20 ms: refused
	// while disabled, obeyed once the Driver Station enables.
	nt, err := dialFrcd(ctx)
	if err != nil {
		return err
	}
	defer nt.Close()
	var pubs []int64
	for _, c := range []string{"left_voltage", "right_voltage", "arm_voltage"} {
		id, err := nt.Publish("/frcd/commands/"+c, "double")
		if err != nil {
			return err
		}
		pubs = append(pubs, id)
	}
	stopCmd := make(chan struct{})
	cmdDone := make(chan struct{})
	var rounds sync.WaitGroup // the first ten rounds of commands
	rounds.Add(10)
	go func() {
		defer close(cmdDone)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		sent := 0
		for {
			select {
			case <-stopCmd:
				return
			case <-tick.C:
				for _, id := range pubs {
					nt.SetDouble(id, 0, 6)
				}
				if sent++; sent <= 10 {
					rounds.Done()
				}
			}
		}
	}()
	defer func() {
		select {
		case <-stopCmd:
		default:
			close(stopCmd)
		}
		<-cmdDone
	}()

	valset := func(ch string) int64 { v, _ := srv.Int("/io/" + ch + "/valset"); return v }
	driving := func() bool { return valset("0") > 1500 && valset("1") > 0 && valset("1") < 1500 && valset("2") > 1500 }
	neutral := func() bool { return valset("0") == 0 && valset("1") == 0 && valset("2") == 0 }

	rounds.Wait() // ten rounds of commands while disabled: the test checks nothing moved
	vmagent.Mark("disabled-window")
	enabled := systemservertest.Control{Enabled: true, DSConnected: true, Watchdog: true, Mode: 2}
	vmagent.Mark("enable")
	srv.SetControl(&enabled)
	if err := until("driving once enabled", 10*time.Second, driving); err != nil {
		return err
	}
	vmagent.Mark("driving")
	// Driving for a while (about ten heartbeats), for the test to see the
	// heartbeat enabled.
	held := time.Now().Add(200 * time.Millisecond)
	until("driving for 200 ms", time.Second, func() bool { return time.Now().After(held) })
	disabled := enabled
	disabled.Enabled = false
	vmagent.Mark("disable")
	srv.SetControl(&disabled)
	if err := until("neutral once disabled", 10*time.Second, neutral); err != nil {
		return err
	}
	vmagent.Mark("neutral")
	// Disabled for a while (about ten heartbeats), for the test to see
	// the heartbeat disabled.
	held = time.Now().Add(200 * time.Millisecond)
	until("disabled for 200 ms", time.Second, func() bool { return time.Now().After(held) })
	vmagent.Mark("reenable")
	srv.SetControl(&enabled)
	if err := until("driving again", 10*time.Second, driving); err != nil {
		return err
	}
	vmagent.Mark("sigterm")
	if err := d.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	var exitErr error
	select {
	case exitErr = <-exited:
	case <-time.After(20 * time.Second):
		return errors.New("frcd did not exit within 20 s of SIGTERM")
	}
	vmagent.Mark("exited")
	for _, ch := range []string{"0", "1", "2"} {
		for _, v := range srv.History("/io/" + ch + "/valset") {
			vmagent.Emit(vmagent.Event{Ev: "valset", T: float64(v.At.UnixNano()) / 1e9, Vals: []float64{float64(ch[0] - '0'), float64(v.Int)}})
		}
	}
	if exitErr != nil {
		return fmt.Errorf("frcd exited: %v", exitErr)
	}
	return nil
}

// dialFrcd connects to frcd's NT4 server once it listens.
func dialFrcd(ctx context.Context) (*nt4.Conn, error) {
	var c *nt4.Conn
	err := until("frcd's NT4 server", 30*time.Second, func() bool {
		var err error
		c, err = nt4.Dial(ctx, "127.0.0.1:5810", "scagent")
		return err == nil
	})
	return c, err
}
