package main

import (
	"os"

	"github.com/frcd/frcd/daemon"
	"github.com/frcd/frcd/ros"
)

// rosArgs takes the ROS 1 command-line arguments (from:=to, __ns:=,
// __name:=, _param:=value, ...; roslaunch adds some to every node) out
// of args, and returns the rest and the ROS environment they amend.
func rosArgs(args []string, getenv func(string) string) (rest []string, env ros.Env, a ros.Args, err error) {
	rest, a, err = ros.ParseArgs(args)
	env = a.Apply(ros.EnvFrom(getenv))
	if a.NS == "" {
		a.NS = getenv("ROS_NAMESPACE")
	}
	return rest, env, a, err
}

// nodeOptions sets the node's name, namespace, remappings and private
// parameters on o. goroslib reads ROS_NAMESPACE itself, refusing one
// with a trailing slash: frcd has read it (a.NS), so it is unset here.
func nodeOptions(o *daemon.ROSOptions, a ros.Args) {
	o.Name, o.Namespace, o.Remaps, o.Params = a.Name, a.NS, a.Remaps, a.Params
	os.Unsetenv("ROS_NAMESPACE")
}
