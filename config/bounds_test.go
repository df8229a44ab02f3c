package config_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	. "github.com/frcd/frcd/config"
	_ "github.com/frcd/frcd/devices"
	"github.com/frcd/frcd/internal/bounds"
)

// mergeBomb is about a kilobyte: six anchors, each merging k copies of the
// one before, k⁵ pairs in all once expanded.
func mergeBomb(k int) string {
	var b strings.Builder
	b.WriteString("a0: &a0 {x: 1}\n")
	for i := 1; i <= 5; i++ {
		refs := strings.Repeat(fmt.Sprintf("*a%d, ", i-1), k)
		fmt.Fprintf(&b, "a%d: &a%d {<<: [%s]}\n", i, i, strings.TrimSuffix(refs, ", "))
	}
	b.WriteString("joints:\n  - {name: j, type: talon, <<: *a5}\n")
	return b.String()
}

// TestMergeBomb: merge keys that expand to 40⁵ pairs are refused, with an
// error at the merge; the parse stops expanding (it once took 26 s and
// 5.8 GB).
func TestMergeBomb(t *testing.T) {
	text := mergeBomb(40)
	if len(text) > 1200 {
		t.Fatalf("the bomb is %d bytes", len(text))
	}
	_, list := Parse("bomb.yaml", []byte(text))
	if !strings.Contains(fmt.Sprint(list), "merge keys expand to more than") {
		t.Errorf("no merge-limit error:\n%v", list)
	}
	// The work stops at the limit: a bomb 10× larger still costs about the same.
	bounds.Linear(t, 1, func(n int) {
		Parse("bomb.yaml", []byte(mergeBomb(10*n)))
	})
}

// TestMergeWithinLimit: ordinary merges are untouched by the limit.
func TestMergeWithinLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("x-d: &d {type: talon, pdp_ch: 1}\njoints:\n  - {name: pdp, type: pdp, id: 0}\n")
	for i := 0; i < 60; i++ {
		fmt.Fprintf(&b, "  - {<<: *d, name: m%d, id: %d}\n", i, i)
	}
	f, list := Parse("ok.yaml", []byte(b.String()))
	if strings.Contains(fmt.Sprint(list), "merge keys expand") {
		t.Errorf("an ordinary file refused:\n%v", list)
	}
	if d := f.Device("m59"); d == nil || d.Type == nil || d.Ref("pdp") != f.Device("pdp") {
		t.Errorf("m59: %+v, want a talon with the default PDP", d)
	}
}

// TestParseLinear: checking n speed controllers is linear in n (each once
// scanned every device for its default PDP: 64k devices took 16 s).
func TestParseLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("measures parse times of up to 32,000 devices: skipped with -short (make test runs it)")
	}
	files := map[int][]byte{}
	for _, n := range []int{8000, 32000} {
		var b strings.Builder
		b.WriteString("joints:\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  - {name: m%d, type: talon, id: %d, pdp_ch: %d}\n", i, i%63, i%16)
		}
		b.WriteString("  - {name: pdp, type: pdp, id: 0}\n")
		files[n] = []byte(b.String())
	}
	bounds.Linear(t, 8000, func(n int) { Parse("many.yaml", files[n]) })
}

// sizeLimitTalons is a file of n talon_srx entries as a user writes them:
// name, type and id, every other key left to its default.
func sizeLimitTalons(n int) []byte {
	var b strings.Builder
	b.WriteString("joints:\n  - {name: pdp, type: pdp, id: 0}\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "  - {name: m%d, type: talon_srx, id: %d}\n", i, i%63)
	}
	return []byte(b.String())
}

// TestDeviceMemory: a decoded device keeps what its file wrote, not a copy
// of every default of its type in a map of its own (a talon_srx kept
// 1.8 KB; an 8 MiB file of 190k of them held 280 MB live while it was
// validated, past validate's 256 MiB heap limit: 17 s of garbage
// collection). Measured as the heap the parsed file keeps, per device.
func TestDeviceMemory(t *testing.T) {
	const n = 20000
	data := sizeLimitTalons(n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f, list := Parse("r.yaml", data)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if f == nil || len(f.Devices) != n+1 || f.Device("m7").Int("id") != 7 {
		t.Fatalf("the file did not parse: %d devices", len(f.Devices))
	}
	if v, ok := f.Device("m7").Value("inverted"); !ok || v.Set || v.Bool {
		t.Errorf("m7's inverted: %+v %v, want the default false", v, ok)
	}
	perDevice := (int64(after.HeapAlloc) - int64(before.HeapAlloc)) / n
	t.Logf("%d devices, %d findings: %d bytes kept per device", n, len(list), perDevice)
	// About 680 bytes: the device, its one written value, its default PDP
	// and its finding (CAN id reuse); 1805 when every default was stored
	// in a map per device.
	if perDevice > 1000 {
		t.Errorf("a parsed talon_srx keeps %d bytes, over 1000", perDevice)
	}
	runtime.KeepAlive(f)
	runtime.KeepAlive(list)
}

// TestParseFindingsLinear: a file whose every entry is wrong (an unknown
// key, a channel out of range, a reused CAN id) costs work linear in its
// entries, findings included (the 8 MiB file of these once took 26 s of
// CPU to validate).
func TestParseFindingsLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("measures parse times of up to 32,000 devices: skipped with -short (make test runs it)")
	}
	files := map[int][]byte{}
	for _, n := range []int{8000, 32000} {
		var b strings.Builder
		b.WriteString("joints:\n  - {name: pdp, type: pdp, id: 0}\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  - {name: m%d, type: talon_srx, id: %d, pdp_ch: 99, bogus: 1}\n", i, i%63)
		}
		files[n] = []byte(b.String())
	}
	if _, list := Parse("bad.yaml", files[8000]); len(list) < 3*8000-63 {
		t.Fatalf("%d findings for 8000 bad entries, want 3 each (2 for the first 63, whose CAN ids are new)", len(list))
	}
	bounds.Linear(t, 8000, func(n int) { Parse("bad.yaml", files[n]) })
}
