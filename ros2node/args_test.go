package ros2node

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/frcd/frcd/internal/bounds"
)

func TestParseArgs(t *testing.T) {
	args := []string{"run", "--sim", "--ros-args", "-r", "__ns:=/robot", "-r", "__node:=frcd2", "-r", "/joint_states:=/js",
		"-r", "other:/x:=/y", "-r", "frcd:/a:=/b", "-p", "publish_rate:=50.0", "--param", "frcd:use_sim_time:=true",
		"-p", "turret_position:gains.turret_joint.p:=30.0", "-p", "turret_position:update_rate:=50",
		"--params-file", "p.yaml", "-e", "/enclave", "--log-level", "debug", "--disable-stdout-logs", "--", "robot.urdf", "--ros-args", "-p", "x:=1"}
	rest, a, err := ParseArgs(args, "frcd")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rest, []string{"run", "--sim", "robot.urdf"}) {
		t.Errorf("rest %q", rest)
	}
	want := Args{Namespace: "/robot", Node: "frcd2", Remaps: map[string]string{"/joint_states": "/js", "/a": "/b"},
		Params: map[string]string{"publish_rate": "50.0", "use_sim_time": "true", "x": "1"}, ParamsFiles: []string{"p.yaml"},
		NodeParams: map[string]map[string]string{"turret_position": {"gains.turret_joint.p": "30.0", "update_rate": "50"}},
		Enclave:    "/enclave", LogLevels: []string{"debug"}}
	if !reflect.DeepEqual(a, want) {
		t.Errorf("got %+v\nwant %+v", a, want)
	}
	// Everything wrong is said at once.
	_, _, err = ParseArgs([]string{"--ros-args", "-r", "nope", "--bogus", "-p"}, "frcd")
	if err == nil || !strings.Contains(err.Error(), `"nope"`) || !strings.Contains(err.Error(), "--bogus") || !strings.Contains(err.Error(), "-p: a value") {
		t.Errorf("error %v", err)
	}
	// No --ros-args: every argument is the program's, even one like a rule.
	rest, a, err = ParseArgs([]string{"-r", "a:=b"}, "frcd")
	if err != nil || len(rest) != 2 || len(a.Remaps) != 0 {
		t.Errorf("%q %+v %v", rest, a, err)
	}
}

func TestResolveRemapped(t *testing.T) {
	remaps := map[string]string{"/joint_states": "js", "~/commands": "/arm/commands"}
	for _, c := range []struct{ name, want string }{
		{"/joint_states", "/robot/js"},
		{"joint_states", "/robot/joint_states"}, // /robot/joint_states is not the rule's /joint_states
		{"~/commands", "/arm/commands"},
		{"/other", "/other"},
	} {
		got, err := ResolveRemapped("/robot", "frcd", c.name, remaps)
		if err != nil || got != c.want {
			t.Errorf("%q: %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// FuzzParseArgs: any command line, split at NUL bytes into arguments, is
// parsed without a panic within the fuzz bound, and what ParseArgs leaves
// is the arguments outside the --ros-args sections, in their order: all of
// them when there is no --ros-args.
func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{
		"run\x00--ros-args\x00-r\x00__ns:=/robot\x00--\x00x.urdf",
		"--ros-args\x00-p\x00rate:=100\x00-r\x00frcd:a:=b\x00--params-file",
		"--ros-args\x00--log-level\x00debug\x00-e\x00/e\x00--ros-args\x00-r",
		"a\x00b\x00c",
	} {
		f.Add(s, "frcd")
	}
	f.Fuzz(func(t *testing.T, line, node string) {
		defer bounds.Slow(t)()
		args := strings.Split(line, "\x00")
		rest, _, _ := ParseArgs(args, node)
		if !slices.Contains(args, "--ros-args") {
			if !slices.Equal(rest, args) {
				t.Fatalf("no --ros-args: rest %q, want every argument %q", rest, args)
			}
			return
		}
		i := 0 // rest is a subsequence of args
		for _, r := range rest {
			for i < len(args) && args[i] != r {
				i++
			}
			if i == len(args) {
				t.Fatalf("rest %q is not a subsequence of %q", rest, args)
			}
			i++
		}
	})
}
