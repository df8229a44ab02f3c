package ros

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/frcd/frcd/hal"
)

func TestParseArgs(t *testing.T) {
	rest, a, err := ParseArgs([]string{"run", "--sim", "r.urdf", "joint_states:=/js", "__name:=arm", "__ns:=/robot1/",
		"__log:=/tmp/x.log", "__ip:=10.0.0.2", "__hostname:=rio", "__master:=http://m:11311", "_rate:=50", "_label:=abc", "_on:=true", "r.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"run", "--sim", "r.urdf", "r.yaml"}; !reflect.DeepEqual(rest, want) {
		t.Errorf("rest %v, want %v", rest, want)
	}
	if a.Name != "arm" || a.NS != "/robot1/" || a.Log != "/tmp/x.log" || a.Remaps["joint_states"] != "/js" {
		t.Errorf("args %+v", a)
	}
	if want := map[string]any{"rate": 50, "label": "abc", "on": true}; !reflect.DeepEqual(a.Params, want) {
		t.Errorf("params %#v, want %#v", a.Params, want)
	}
	env := a.Apply(Env{MasterURI: "http://localhost:11311", IP: "127.0.0.1"})
	if env.MasterURI != "http://m:11311" || env.IP != "10.0.0.2" || env.Hostname != "rio" {
		t.Errorf("env %+v", env)
	}
	for _, bad := range []string{"__nme:=x", "__name:=a/b", ":=x", "a:=", "a b:=c", "_:=1", "__name:=1x"} {
		if _, _, err := ParseArgs([]string{bad}); err == nil || !strings.Contains(err.Error(), bad[:2]) {
			t.Errorf("%q: %v, want an error", bad, err)
		}
	}
	// All at once, each named.
	if _, _, err := ParseArgs([]string{"__x:=1", "__y:=2"}); err == nil || !strings.Contains(err.Error(), "__x") || !strings.Contains(err.Error(), "__y") {
		t.Errorf("two bad: %v", err)
	}
	// A flag with := in its value is not a ROS argument.
	if rest, _, err := ParseArgs([]string{"--x=a:=b"}); err != nil || len(rest) != 1 {
		t.Errorf("flag: %v %v", rest, err)
	}
}

func TestNames(t *testing.T) {
	for _, ns := range []string{"robot1", "/robot1", "/robot1/", "//robot1//", "robot1/"} {
		n, err := NewNames(ns, "frcd", map[string]string{"joint_states": "joints", "/diagnostics": "/robot1/diagnostics", "~enable": "/on"})
		if err != nil {
			t.Fatal(err)
		}
		for in, want := range map[string]string{
			"joint_states":      "/robot1/joints",
			"/joint_states":     "/robot1/joints", // the remap's key resolved: the same name
			"arm/command":       "/robot1/arm/command",
			"/abs/x":            "/abs/x",
			"~list_controllers": "/robot1/frcd/list_controllers",
			"~enable":           "/on",
			"/diagnostics":      "/robot1/diagnostics",
			"robot_description": "/robot1/robot_description",
			"sim//push/":        "/robot1/sim/push",
		} {
			if got := n.Resolve(in); (in == "/joint_states" && got != "/joint_states") || (in != "/joint_states" && got != want) {
				t.Errorf("ns %q: Resolve(%q) = %q, want %q", ns, in, got, want)
			}
		}
		if n.Namespace() != "/robot1" || n.Node() != "/robot1/frcd" {
			t.Errorf("ns %q: namespace %q node %q", ns, n.Namespace(), n.Node())
		}
	}
	root, err := NewNames("", "frcd", nil)
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{"joint_states": "/joint_states", "~enable": "/frcd/enable", "/": "/"} {
		if got := root.Resolve(in); got != want {
			t.Errorf("root: Resolve(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range [][2]string{{"/a b", "frcd"}, {"/", "a/b"}, {"/", ""}, {"/1x", "frcd"}} {
		if _, err := NewNames(c[0], c[1], nil); err == nil {
			t.Errorf("NewNames(%q, %q): no error", c[0], c[1])
		}
	}
}

func TestJoyMessage(t *testing.T) {
	j := hal.JoystickState{NumAxes: 1, NumButtons: 2, NumPOVs: 2, Buttons: 2}
	j.Axes[0], j.POVs[0], j.POVs[1] = -1, 315, -1
	var seq uint32
	m := joyMessage(&j, time.Unix(5, 0), &seq)
	if want := []float32{-1, -1, 1, 0, 0}; !reflect.DeepEqual(m.Axes, want) || !reflect.DeepEqual(m.Buttons, []int32{0, 1}) || m.Header.Seq != 1 {
		t.Errorf("joy %+v, want axes %v", m, want)
	}
}

// FuzzParseArgs: no command line makes ParseArgs or the resolver panic;
// what ParseArgs accepts, NewNames takes.
func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{"a:=b", "__ns:=/x/", "__name:=n", "_p:={a: [1, 2]}", "~x:=/y", "//a//:=b", ":=", "_:=", "__name:=1"} {
		f.Add(s, "robot1")
	}
	f.Fuzz(func(t *testing.T, arg, ns string) {
		_, a, err := ParseArgs([]string{arg, "run"})
		if err != nil {
			return
		}
		name := "frcd"
		if a.Name != "" {
			name = a.Name
		}
		if a.NS != "" {
			ns = a.NS
		}
		n, err := NewNames(ns, name, a.Remaps)
		if err != nil {
			return
		}
		for from := range a.Remaps {
			if r := n.Resolve(from); !strings.HasPrefix(r, "/") || strings.Contains(r, "//") {
				t.Errorf("Resolve(%q) = %q", from, r)
			}
		}
	})
}
