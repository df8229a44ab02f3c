// Command scagent drives `frcd run --hal systemcore` inside the kernel
// test's VM (cmd/frcd TestSystemcoreIOOnKernel) over the fake 2027 WPILib
// HAL (internal/fakehal): it starts frcd with ROS off and NT4 on, the fake
// HAL on LD_LIBRARY_PATH, commands the drive over frcd's NT4 commands,
// enables and disables it through the fake's Driver Station, and ends it
// with SIGTERM; the Driver Station also goes stale once. It prints one JSON event a line, as canagent does: "mark"
// (a named instant on the guest's wall clock), "pulse" (Vals: SmartIO
// channel, µs, as the HAL was told, T when), "log" (frcd's lines), "fail".
// With -layouts it instead runs frcd once on each fake HAL named
// (matchLayouts): "match" (Name the layout, Line the event name, Vals the
// match type, number and replay read on NT4) or "exit" (Name the layout,
// Code frcd's exit status).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/vmagent"
	"github.com/frcd/frcd/nt4/wire"
)

func main() {
	frcd := flag.String("frcd", "/bin/frcd", "the frcd binary")
	urdf := flag.String("urdf", "/robot/robot.urdf", "the robot's URDF")
	yaml := flag.String("yaml", "/robot/robot.yaml", "the robot's YAML")
	lib := flag.String("hal", "/robot/lib", "the directory of the fake libwpiHal.so")
	layouts := flag.String("layouts", "", "comma-separated layouts: run frcd on each DIR-LAYOUT's fake HAL (DIR from -hal) and report the match it reads")
	flag.Parse()
	if *layouts != "" {
		if err := matchLayouts(*frcd, *urdf, *yaml, *lib, strings.Split(*layouts, ",")); err != nil {
			vmagent.Fail("%s", err)
		}
		vmagent.Mark("done")
		return
	}
	if err := run(*frcd, *urdf, *yaml, *lib); err != nil {
		vmagent.Fail("%s", err)
	}
	vmagent.Mark("done")
}

// until polls ok every 5 ms until it holds or d passes (each poll reads
// the fake HAL's whole log: more often would take the VM's one CPU from
// frcd).
func until(what string, d time.Duration, ok func() bool) error {
	end := time.Now().Add(d)
	for !ok() {
		if time.Now().After(end) {
			return fmt.Errorf("%s: not within %v", what, d)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return nil
}

func run(frcd, urdf, yaml, lib string) error {
	dir, err := os.MkdirTemp("", "fakehal")
	if err != nil {
		return err
	}
	f, err := fakehal.NewFiles(dir)
	if err != nil {
		return err
	}
	pulses := func() [6]int {
		calls, _ := f.Calls()
		return fakehal.LastPulses(calls)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	vmagent.Mark("start")
	d := exec.Command(frcd, "run", "--hal", "systemcore", "--no-ros", "--nt", "127.0.0.1:5810", urdf, yaml)
	d.Env = append(os.Environ(), append(f.Env(), "FAKEHAL_STAMP=1", "LD_LIBRARY_PATH="+lib)...)
	exited, err := vmagent.Start(d)
	if err != nil {
		return err
	}
	defer func() {
		if d.ProcessState == nil {
			d.Process.Kill()
		}
	}()
	if err := until("SmartIO PWMs opened", 30*time.Second, func() bool { p := pulses(); return p[0] >= 0 && p[1] >= 0 && p[2] >= 0 }); err != nil {
		return err
	}
	vmagent.Mark("opened")

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

	driving := func() bool { p := pulses(); return p[0] > 1500 && p[1] > 0 && p[1] < 1500 && p[2] > 1500 }
	neutral := func() bool { p := pulses(); return p[0] == 0 && p[1] == 0 && p[2] == 0 }

	rounds.Wait() // ten rounds of commands while disabled: the test checks nothing moved
	vmagent.Mark("disabled-window")
	for _, step := range []struct{ name, in string }{
		{"enable", "cw 1 2 0 0 1"}, {"disable", "cw 0 2 0 0 1"},
		{"reenable", "cw 1 2 0 0 1"}, {"stale", "stale 1"},
		{"fresh", "stale 0"},
	} {
		vmagent.Mark(step.name)
		if err := f.Set(step.in); err != nil {
			return err
		}
		switch step.name {
		case "enable", "reenable", "fresh":
			if err := until("driving after "+step.name, 10*time.Second, driving); err != nil {
				return err
			}
		default:
			if err := until("neutral after "+step.name, 10*time.Second, neutral); err != nil {
				return err
			}
		}
	}
	// Driving, SIGTERM: every output neutral, then exit 0. (E-stop, which
	// latches until frcd restarts, is TestExampleOnFakeHAL's.)
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
	calls, err := f.Calls()
	if err != nil {
		return err
	}
	for _, p := range fakehal.Pulses(calls) {
		vmagent.Emit(vmagent.Event{Ev: "pulse", T: float64(p.At) / 1e6, Vals: []float64{float64(p.Channel), float64(p.Micros)}})
	}
	if exitErr != nil {
		return fmt.Errorf("frcd exited: %v", exitErr)
	}
	return nil
}

// dialFrcd connects to frcd's NT4 server once it listens.
func dialFrcd(ctx context.Context) (*wire.Conn, error) {
	var c *wire.Conn
	err := until("frcd's NT4 server", 30*time.Second, func() bool {
		var err error
		c, err = wire.Dial(ctx, "127.0.0.1:5810", "scagent")
		return err == nil
	})
	return c, err
}
