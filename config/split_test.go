package config_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	. "github.com/frcd/frcd/config"
	_ "github.com/frcd/frcd/devices"
	"github.com/frcd/frcd/internal/bounds"
)

// sameParse checks that the split decoding of data, when it applies, gives
// what the whole-tree decoding gives: the same devices, sections and
// findings (in position order: the split decodes the list after the
// sections' names are known). It reports whether the split applied.
func sameParse(t *testing.T, name string, data []byte) bool {
	t.Helper()
	sf, sl, ok := ParseSplit(name, data)
	if !ok {
		return false
	}
	restore := SetSplitMin(1 << 62)
	wf, wl := Parse(name, data)
	restore()
	sl, wl = slices.Clone(sl), slices.Clone(wl)
	sl.Sort()
	wl.Sort()
	if !reflect.DeepEqual(sl, wl) {
		t.Errorf("%s: findings differ:\nsplit:\n%v\nwhole:\n%v", name, sl, wl)
	}
	if !reflect.DeepEqual(sf, wf) {
		t.Errorf("%s: the decoded files differ:\nsplit: %v\nwhole: %v", name, describe(sf), describe(wf))
	}
	return true
}

func describe(f *File) string {
	var b strings.Builder
	for _, d := range f.Devices {
		fmt.Fprintf(&b, "%v %v; ", d.Pos, d)
	}
	for _, c := range f.Controllers {
		fmt.Fprintf(&b, "controller %v %v; ", c.Pos, c)
	}
	return b.String()
}

// TestSplitSame: every robot file of the repository, and files written to
// try the split's edges, decode the same split as whole; the split applies
// where the list is in the plain block form and stands alone.
func TestSplitSame(t *testing.T) {
	var files []string
	for _, glob := range []string{"../examples/*/*.yaml", "testdata/*/*.yaml", "../cmd/frcd/testdata/validate/*/*.yaml", "../daemon/testdata/*/*.yaml"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	split := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if sameParse(t, file, data) {
			split++
		}
		// And with CRLF line ends.
		sameParse(t, file+" (CRLF)", []byte(strings.ReplaceAll(string(data), "\n", "\r\n")))
	}
	t.Logf("the split applied to %d of %d files", split, len(files))
	if len(files) < 5 || split < len(files)/2 {
		t.Errorf("the split applied to %d of %d files", split, len(files))
	}
	for _, c := range splitCases {
		if got := sameParse(t, c.name, []byte(c.text)); got != c.split {
			t.Errorf("%s: split %v, want %v", c.name, got, c.split)
		}
	}
}

// splitCases try the split's edges: split says whether it applies.
var splitCases = []struct {
	name, text string
	split      bool
}{
	{"plain", "joints:\n  - {name: a, type: talon_srx, id: 1}\n  - {name: b, type: talon_srx, id: 1, bogus: 2}\nloop: {rate_hz: 50}\n", true},
	{"dashes at column 0", "joints:\n- name: a\n  type: talon_srx\n  id: 1\n- name: b\n  type: pdp\nloop: {rate_hz: 50}\n", true},
	{"comments and blanks", "# robot\n---\njoints:   # the list\n\n  # first\n  - name: a\n\n    type: talon_srx  # t\n# col 0\n    id: 3\n  -\n    name: b\n    type: pdp\n\n# end\nnt4: {port: 5811}\n", true},
	{"anchor within an entry", "joints:\n  - &a {name: a, type: talon_srx, id: 1, pid: &g {p: 1}}\n  - {name: b, type: talon_srx, id: 2}\n", true},
	{"anchor to a later entry", "joints:\n  - {name: a, type: talon_srx, id: 1, x: &g 3}\n  - {name: b, type: talon_srx, id: *g}\n", true},
	{"frc_control names and gains", "joints:\n  - {name: a, type: can_talon_srx, id: 1, velocity_gains: {p: 1, f: 2}}\n  - {name: b, type: can_talon_srx, id: 2, position_gains: {p: 1}}\ncontrollers:\n  jsc: {type: joint_state_controller/JointStateController}\n", true},
	{"gains, controllers a list", "joints:\n  - {name: a, type: talon_srx, id: 1, velocity_gains: {p: 1}}\ncontrollers:\n  - {name: jsc, type: joint_state_controller/JointStateController}\n", true},
	{"gains, controllers null", "controllers:\njoints:\n  - {name: a, type: talon_srx, id: 1, velocity_gains: {p: 1}}\n", true},
	{"gains, controllers merged", "x-c: &c {controllers: {jsc: {type: joint_state_controller/JointStateController}}}\n<<: *c\njoints:\n  - {name: a, type: talon_srx, id: 1, velocity_gains: {p: 1}}\n", true},
	{"top-level controllers", "joints:\n  - {name: a, type: talon_srx, id: 1}\njsc: {type: joint_state_controller/JointStateController}\n", true},
	{"bad entries", "joints:\n  - 3\n  - [a]\n  - {name: '', type: nope}\n  - {name: x, type: talon_srx, id: 0x10, inverted: yes}\n  - {name: y, type: talon_srx, id: 010, pdp_ch: -1_0}\n  - {name: z, type: talon_srx, id: 99999999999}\n  -\n", true},
	{"sections before and after", "loop: {rate_hz: 100}\nsim:\n  joints: [{name: a}]\njoints:\n  - {name: a, type: talon_srx, id: 1}\nlinux: {}\nbogus: 1\n", true},
	{"duplicate joints", "joints:\n  - {name: a, type: talon_srx, id: 1}\njoints: []\n", true},
	{"a joints anchor", "joints: &j\n  - {name: a, type: pdp}\n", false},
	{"alias to a section", "x-d: &d {type: talon_srx}\njoints:\n  - {<<: *d, name: a, id: 1}\n", false},
	{"alias from a section", "joints:\n  - {name: a, type: talon_srx, id: &i 1}\nloop: {rate_hz: *i}\n", false},
	{"flow list", "joints: [{name: a, type: pdp}]\n", false},
	{"on the next line", "joints:\n  [{name: a, type: pdp}]\n", false},
	{"frc_control mapping", "joints:\n  a: {type: pdp}\n", false},
	{"namespaced", "ns:\n  joints:\n    - {name: a, type: pdp}\n", false},
	{"quoted across entries", "joints:\n  - {name: \"a\n  - b\", type: pdp}\n", false},
	{"a second document", "joints:\n  - {name: a, type: pdp}\n---\njoints: []\n", false},
	{"syntax error after", "joints:\n  - {name: a, type: pdp}\nloop: {\n", false},
	{"syntax error in an entry", "joints:\n  - {name: a, type: pdp\n  - {name: b}\n", false},
	{"tab indentation", "joints:\n\t- {name: a, type: pdp}\n", false},
	{"empty list", "joints:\nloop: {}\n", false},
	{"bad indentation", "joints:\n    - {name: a, type: pdp}\n  - {name: b, type: pdp}\n", false},
	{"a lone CR", "joints:\n  - 0\r0", false},
	{"a line separator", "joints:\n  - {name: a,\u2028type: pdp}\n", false},
	{"hal", "hal: roborio\njoints:\n  - {name: a, type: pdp}\nhal: [x]\n", true},
	{"a control character in the joints: comment", "joints: # \x01\n  - {name: a, type: pdp}\n", false},
	{"a tab before the joints: comment", "joints:\t# list\r\n  - {name: a, type: pdp}\r\n", true},
	{"in a quoted string", "x-a: \"\njoints:\n  - {name: a}\n\"\njoints: []\n", false},
}

// FuzzSplitSame: whatever the input, the split decoding, where it applies,
// gives what the whole-tree decoding gives.
func FuzzSplitSame(f *testing.F) {
	for _, c := range splitCases {
		f.Add([]byte(c.text))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer bounds.Slow(t)()
		sameParse(t, "f.yaml", data)
	})
}

// TestSplitPieces: a list longer than a piece decodes in many pieces, with
// the file's own positions, and the same as whole.
func TestSplitPieces(t *testing.T) {
	var b strings.Builder
	b.WriteString("x-n: 1\njoints:\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&b, "  - name: m%d\n    type: talon_srx\n    id: %d\n    pdp_ch: %d\n", i, i%63, i%19)
		if i%100 == 7 {
			b.WriteString("    # a comment\n\n")
		}
	}
	b.WriteString("  - {name: pdp, type: pdp, id: 0}\nloop: {rate_hz: 200}\n")
	data := []byte(b.String())
	if !sameParse(t, "long.yaml", data) {
		t.Fatal("the split did not apply")
	}
	f, list := Parse("long.yaml", data)
	d := f.Device("m2999")
	line := strings.Count(b.String()[:strings.Index(b.String(), "name: m2999\n")], "\n") + 1
	if d == nil || d.Pos.Line != line || d.Pos.Col != 5 || f.Loop.Float("rate_hz") != 200 {
		t.Errorf("m2999 at %+v, want line %d col 5; loop %v", d.Pos, line, f.Loop.Float("rate_hz"))
	}
	for _, fd := range list {
		if fd.Line < 1 || fd.Line > strings.Count(b.String(), "\n") {
			t.Errorf("finding outside the file: %v", fd)
		}
	}
}

// TestSplitMemory: a large file's `joints:` list is decoded a piece at a
// time, so the heap it needs at its peak is about what the decoded devices
// keep, not yaml.v3's node tree of the whole list beside them (213 MB of
// nodes for a file of 190k entries at the 8 MiB limit, about 1.1 KB an
// entry). The peak is measured as the heap the runtime reserves (HeapSys,
// which grows with the peak and does not shrink) while the garbage
// collector runs at every 10 % of growth, each way in a process of its own
// (this test run again), so that no earlier heap hides it: split about
// 420 bytes an entry here (840 under -race), whole about 1260-1470.
func TestSplitMemory(t *testing.T) {
	const n = 20000
	if mode := os.Getenv("FRCD_SPLIT_MEMORY"); mode != "" {
		data := sizeLimitTalons(n) // about 850 KB
		if mode == "whole" {
			defer SetSplitMin(1 << 62)()
		}
		debug.SetGCPercent(10)
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f, list := Parse("r.yaml", data)
		runtime.ReadMemStats(&after)
		if len(f.Devices) != n+1 || len(list) < n-63 {
			t.Fatalf("%d devices, %d findings", len(f.Devices), len(list))
		}
		runtime.KeepAlive(f)
		runtime.KeepAlive(list)
		fmt.Printf("peak-per-entry %d\n", (int64(after.HeapSys)-int64(before.HeapSys))/n)
		return
	}
	peak := func(mode string) int64 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSplitMemory$", "-test.count=1")
		cmd.Env = append(os.Environ(), "FRCD_SPLIT_MEMORY="+mode)
		out, err := cmd.CombinedOutput()
		var per int64
		_, at, _ := bytes.Cut(out, []byte("peak-per-entry "))
		if _, e := fmt.Sscanf(string(at), "%d", &per); err != nil || e != nil {
			t.Fatalf("%s: %v %v\n%s", mode, err, e, out)
		}
		return per
	}
	split, whole := peak("split"), peak("whole")
	t.Logf("heap at the peak per talon_srx entry: split %d bytes, whole tree %d", split, whole)
	// About 850 bytes: the device (with its neutral mode and current
	// limits) and its finding.
	if split > 1000 {
		t.Errorf("decoding a talon_srx entry needs %d bytes of heap at the peak, over 1000", split)
	}
	// yaml.v3's nodes of an entry (a mapping, its keys and values) take
	// 400 bytes and more beside the device
	if whole-split < 300 {
		t.Errorf("the whole tree measured %d bytes an entry, not 300 over the split's %d: the measure does not see the tree", whole, split)
	}
}

// TestSplitLinear: the split decoding is linear in the entries, with a
// piece's size fixed.
func TestSplitLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("measures parse times of up to 32,000 devices: skipped with -short (make test runs it)")
	}
	files := map[int][]byte{}
	for _, n := range []int{8000, 32000} {
		files[n] = sizeLimitTalons(n)
	}
	if _, _, ok := ParseSplit("r.yaml", files[8000]); !ok {
		t.Fatal("the split did not apply")
	}
	bounds.Linear(t, 8000, func(n int) { ParseSplit("r.yaml", files[n]) })
}
