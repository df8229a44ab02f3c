package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/netip"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/jointstate"
	"github.com/frcd/frcd/robot"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2node"
)

// serveFlag makes ros2bench the publisher of the joint-states-only
// measure: `ros2bench -serve --rate RATE --ros js|none URDF YAML` runs the
// robot as `frcd run --sim` does (the daemon on the real-time sim,
// disabled, at the normal priority, no NT4, no WebSocket server) at RATE
// Hz, with ROS "js"
// a ROS 2 node /frcd whose bridge publishes /joint_states alone every
// cycle (ros2bridge.Options.JointStatesOnly), or "none" without ROS: the
// same process either way, so that the difference is the publishing. It
// runs until SIGTERM.
const serveFlag = "-serve"

func serve(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("ros2bench -serve", flag.ContinueOnError)
	rate := fs.Float64("rate", 100, "the loop's rate, Hz")
	ros := fs.String("ros", "js", "js: a ROS 2 node publishing /joint_states alone; none: no ROS")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the run to this file (go tool pprof)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 2 || (*ros != "js" && *ros != "none") || *rate <= 0 || *rate > 10000 {
		return errors.New("usage: ros2bench -serve --rate (0, 10000] --ros js|none URDF YAML")
	}
	urdf, err := os.ReadFile(fs.Arg(0))
	if err != nil {
		return err
	}
	r, list, err := robot.Load(fs.Arg(0), fs.Arg(1))
	if err != nil {
		return err
	}
	if list.Errors() > 0 {
		return fmt.Errorf("%s: %v", fs.Arg(1), list)
	}
	d, err := daemon.NewSim(r, daemon.SimOptions{RealTime: true}, daemon.Options{Rate: *rate, Priority: -1})
	if err != nil {
		return err
	}
	defer d.Close()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	bridgeDone := make(chan error, 1)
	bridgeDone <- nil
	if *ros == "js" {
		cfg, err := ros2node.Discovery(os.Getenv, netip.Addr{})
		if err != nil {
			return err
		}
		b, err := ros2bridge.New(ros2bridge.Options{Loop: d.Loop, URDF: string(urdf), Clock: d.Now, Epoch: d.Epoch(),
			Rest: jointstate.RestPositions(r), Every: d.Loop.Period(), Node: ros2node.Config{Name: "frcd", RTPS: cfg}, JointStatesOnly: true})
		if err != nil {
			return err
		}
		<-bridgeDone
		go func() { bridgeDone <- b.Run(ctx) }()
		defer func() {
			st := b.Node().Participant().Stats()
			fmt.Fprintf(os.Stderr, "ros2bench: %d joint states, %d datagrams sent (%d bytes), participant %+v\n", b.Stats().JointStates, st.SentDatagrams, st.SentBytes, st)
		}()
		fmt.Fprintf(out, "ros2bench: ROS 2 node /frcd, domain %d; publishing /joint_states alone every %v\n", cfg.Domain, b.Every())
	}
	err = d.Run(ctx)
	stop()
	return errors.Join(err, <-bridgeDone)
}
