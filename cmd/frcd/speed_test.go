package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/testrobot"
	"github.com/frcd/frcd/internal/tooltest"
)

// run runs a command once and returns its wall and CPU (user + system)
// time.
func runTimed(b *testing.B, name string, args ...string) (wall, cpu time.Duration) {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), tooltest.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	start := time.Now()
	err := cmd.Run()
	wall = time.Since(start)
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		b.Fatalf("%s: %v", name, err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return wall, cpu
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

// BenchmarkValidateVsCheckURDF times `frcd validate` (URDF + YAML, the
// binary `make build` makes) against Debian's check_urdf on the same URDF,
// the two run alternately, each b.N times: a 300-joint robot with its
// 324-device YAML, and the largest real URDF of the corpus (an iCub, with
// an empty device list). It reports each one's median wall and CPU time
// and frcd's as a ratio of check_urdf's (the goal: at most 1.0).
//
//	go test ./cmd/frcd -run '^$' -bench ValidateVsCheckURDF -benchtime 200x
func BenchmarkValidateVsCheckURDF(b *testing.B) {
	tooltest.Require(b, tooltest.CheckURDF)
	dir := b.TempDir()
	frcd := filepath.Join(dir, "frcd")
	build := exec.Command("go", "build", "-trimpath", "-tags", "netgo,osusergo", "-o", frcd, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	u, y := testrobot.Big(300)
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			b.Fatal(err)
		}
		return p
	}
	icub, err := filepath.Abs("../../urdf/testdata/corpus/icub_genova04.urdf")
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct{ name, urdf, yaml string }{
		{"robot300", write("robot300.urdf", u), write("robot300.yaml", y)},
		{"icub", icub, write("empty.yaml", "joints: []\n")},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var fw, fc, cw, cc []time.Duration
			for i := 0; i < b.N; i++ {
				w, p := runTimed(b, tooltest.CheckURDF.Name, c.urdf)
				cw, cc = append(cw, w), append(cc, p)
				w, p = runTimed(b, frcd, "validate", c.urdf, c.yaml)
				fw, fc = append(fw, w), append(fc, p)
			}
			ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
			b.ReportMetric(0, "ns/op")
			b.ReportMetric(ms(median(fw)), "frcd-wall-ms")
			b.ReportMetric(ms(median(cw)), "check_urdf-wall-ms")
			b.ReportMetric(ms(median(fc)), "frcd-cpu-ms")
			b.ReportMetric(ms(median(cc)), "check_urdf-cpu-ms")
			b.ReportMetric(float64(median(fw))/float64(median(cw)), "wall-ratio")
			b.ReportMetric(float64(median(fc))/float64(median(cc)), "cpu-ratio")
		})
	}
}
