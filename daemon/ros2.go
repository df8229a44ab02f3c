package daemon

import (
	"errors"
	"sort"

	"github.com/frcd/frcd/jointstate"
	"github.com/frcd/frcd/ros"
	"github.com/frcd/frcd/ros2bridge"
	"github.com/frcd/frcd/ros2node"
)

// ROS2Options configure the ROS 2 bridge (package ros2bridge).
type ROS2Options struct {
	// Node is the node's name (default frcd), namespace, remappings
	// (ros2node.ParseArgs) and participant (ros2node.Discovery:
	// ROS_DOMAIN_ID and the discovery range).
	Node ros2node.Config
	URDF string // the URDF text, for /robot_description
	// Params are the node's parameters from the command line (-p
	// NAME:=VALUE): the controllers' gains (ros2bridge.Bridge.SetParams);
	// a refused one is an error.
	Params map[string]string
	// NodeParams are other nodes' (-p NODE:NAME:=VALUE, by node): the
	// controller manager's and the controllers'
	// (ros2bridge.Bridge.SetNodeParams); a refused one is an error.
	NodeParams map[string]map[string]string
	// ParamsFiles are --params-file's parameters, set on the nodes they
	// match before Params and NodeParams
	// (ros2bridge.Bridge.SetFileParams); a refused one is an error.
	ParamsFiles *ros2node.ParamsOverrides
	// PublishRate overrides the joint state controller's publish_rate.
	PublishRate float64
	Logf        func(format string, args ...any)
}

// setupROS2 starts the ROS 2 node when Options.ROS2 asks for one (Run
// runs it).
func (d *Daemon) setupROS2() error {
	o := d.opts.ROS2
	if o == nil {
		return nil
	}
	b, err := ros2bridge.New(ros2bridge.Options{Loop: d.Loop, URDF: o.URDF, Clock: d.Now, Epoch: d.Epoch(),
		Rest: jointstate.RestPositions(d.Robot), Every: ros.PublishPeriod(d.Robot.Config, d.Loop.Period(), o.PublishRate),
		Node: o.Node, Logf: o.Logf, SetEnabled: d.rosEnable(), Manager: d.manager, State: d.ros2State(), Sim: d.ROS2Sim(),
		OnPanic: func(v any) { d.Panicked(newPanic("a ROS 2 callback", v)) }})
	if err != nil {
		return err
	}
	d.Bridge2 = b
	errs := b.SetFileParams(o.ParamsFiles)
	errs = append(errs, b.SetParams(o.Params)...)
	nodes := make([]string, 0, len(o.NodeParams))
	for n := range o.NodeParams {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	for _, n := range nodes {
		errs = append(errs, b.SetNodeParams(n, o.NodeParams[n])...)
	}
	if len(errs) > 0 {
		b.Close()
		return errors.Join(errs...)
	}
	return nil
}
