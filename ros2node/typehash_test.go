package ros2node

import "testing"

// TestTypeHashesFor: hashes as Jazzy sends them, none for Humble and
// older, which speak Humble's layouts (HumbleFor).
func TestTypeHashesFor(t *testing.T) {
	for distro, want := range map[string]bool{"": true, "humble": false, "foxy": false, "iron": true, "jazzy": true, "kilted": true, "rolling": true} {
		if got := TypeHashesFor(distro); got != want {
			t.Errorf("TypeHashesFor(%q) = %v", distro, got)
		}
		if got := HumbleFor(distro); got == want {
			t.Errorf("HumbleFor(%q) = %v", distro, got)
		}
	}
	on := &Node{cfg: Config{TypeHashes: true}}
	off := &Node{}
	if string(on.userData("std_msgs::msg::dds_::String_")) != "typehash=RIHS01_df668c740482bbd48fb39d76a70dfd4bd59db1288021743503259e948f6b1a18;" || off.userData("std_msgs::msg::dds_::String_") != nil {
		t.Errorf("userData: %q %q", on.userData("std_msgs::msg::dds_::String_"), off.userData("std_msgs::msg::dds_::String_"))
	}
}
