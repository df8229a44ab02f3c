package main

import (
	"testing"

	"github.com/frcd/frcd/ros2node"
)

// TestROS2Distro: ROS_DISTRO humble (or older) makes frcd's node Humble's
// (no type hashes, Humble's controller_manager_msgs and 24-byte gids);
// jazzy, a later one or none makes it Jazzy's.
func TestROS2Distro(t *testing.T) {
	for distro, humble := range map[string]bool{"": false, "jazzy": false, "kilted": false, "humble": true, "foxy": true} {
		env := map[string]string{"ROS_DISTRO": distro, "ROS_AUTOMATIC_DISCOVERY_RANGE": "LOCALHOST"}
		o, err := ros2Options(ros2node.Args{}, "", func(k string) string { return env[k] }, "<robot/>", t.Logf)
		if err != nil {
			t.Fatal(err)
		}
		if o.Node.Humble != humble || o.Node.TypeHashes == humble {
			t.Errorf("ROS_DISTRO=%q: Humble %v, TypeHashes %v", distro, o.Node.Humble, o.Node.TypeHashes)
		}
	}
}
