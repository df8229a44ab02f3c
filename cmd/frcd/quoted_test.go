package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/frcd/frcd/internal/tooltest"
)

// The output the README and getting-started quote is the binary's: each
// quoted start-up line (frcd: ..., ros: ...) is a line frcd prints, up to
// its addresses and pid; each quoted status line's fields are a status
// line's, in its order; each quoted validate line is validate's. The
// README's is the competition robot's `make run`; getting-started's is
// the minimal robot with the limit switch and the controller the guide
// adds (taken from the guide's own blocks), whose arm then moves to a
// commanded position as the guide says.

// quotedLines are the lines of a page's unlabelled code blocks (the
// output it quotes) that start with one of the prefixes.
func quotedLines(t *testing.T, page string, prefixes ...string) []string {
	t.Helper()
	text, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	open, in := false, false // in a block; in an unlabelled one
	for _, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(line, "```") {
			open = !open
			in = open && line == "```"
			continue
		}
		if !in {
			continue
		}
		for _, p := range prefixes {
			if strings.HasPrefix(line, p) {
				out = append(out, line)
				break
			}
		}
	}
	return out
}

// pageBlocks are the contents of a page's code blocks labelled lang.
func pageBlocks(t *testing.T, page, lang string) []string {
	t.Helper()
	text, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	var cur *strings.Builder
	for _, line := range strings.Split(string(text), "\n") {
		switch {
		case cur == nil && line == "```"+lang:
			cur = &strings.Builder{}
		case cur != nil && line == "```":
			blocks = append(blocks, cur.String())
			cur = nil
		case cur != nil:
			cur.WriteString(line + "\n")
		}
	}
	return blocks
}

var (
	quotedAddr = regexp.MustCompile(`(https?|ws)://[^/\s]+`)
	quotedPid  = regexp.MustCompile(`\(pid \d+\)`)
	// the loop's priority line says SCHED_FIFO or normal, as permitted
	quotedPrio = regexp.MustCompile(`^frcd: the loop's thread runs at .*`)
	statusKey  = regexp.MustCompile(`([a-z][a-z0-9]*)(=|<=)`)
)

func normalQuoted(line string) string {
	line = quotedAddr.ReplaceAllString(line, "$1://ADDR")
	line = quotedPid.ReplaceAllString(line, "(pid N)")
	return quotedPrio.ReplaceAllString(line, "frcd: the loop's thread runs at ...")
}

// statusKeys are a status line's field names in order (t, cycles, mean...).
func statusKeys(line string) string {
	var keys []string
	for _, m := range statusKey.FindAllStringSubmatch(line, -1) {
		keys = append(keys, m[1])
	}
	return strings.Join(keys, " ")
}

// checkQuoted fails for each quoted line the output has not.
func checkQuoted(t *testing.T, page string, quoted, output []string) {
	t.Helper()
	have := map[string]bool{}
	var status []string
	for _, l := range output {
		have[normalQuoted(l)] = true
		if strings.HasPrefix(l, "t=") {
			status = append(status, l)
		}
	}
	for _, q := range quoted {
		if strings.HasPrefix(q, "t=") {
			if len(status) == 0 {
				t.Errorf("%s quotes a status line; frcd printed none", page)
				continue
			}
			real := statusKeys(status[len(status)-1])
			if want := statusKeys(q); !inOrder(want, real) {
				t.Errorf("%s quotes a status line with fields %q; frcd's has %q:\n%s", page, want, real, status[len(status)-1])
			}
			continue
		}
		if !have[normalQuoted(q)] {
			t.Errorf("%s quotes a line frcd does not print:\n  %s\nfrcd printed:\n  %s", page, q, strings.Join(output, "\n  "))
		}
	}
}

// inOrder says whether every word of want is in have, in that order.
func inOrder(want, have string) bool {
	h := strings.Fields(have)
	for _, w := range strings.Fields(want) {
		for len(h) > 0 && h[0] != w {
			h = h[1:]
		}
		if len(h) == 0 {
			return false
		}
		h = h[1:]
	}
	return true
}

// runQuoted runs `frcd run --sim` in dir on robot.urdf and robot.yaml, with
// its own master and ports, until it has printed two status lines; then
// while it runs, during calls; it returns every line of stdout and stderr.
func runQuoted(t *testing.T, dir string, env *tooltest.ROS, during func()) []string {
	t.Helper()
	cmd := frcdProcess("run", "--sim", "--nt", "127.0.0.1:0", "--wpilibws", "127.0.0.1:0", "robot.urdf", "robot.yaml")
	cmd.Dir = dir
	cmd.Env = append(env.Vars, "FRCD_RUN_MAIN=1")
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pw.Close()
	// A guard against a hung child only: the test waits on its output.
	guard := time.AfterFunc(120*time.Second, func() { _ = cmd.Process.Kill() })
	defer guard.Stop()
	var lines []string
	sc := bufio.NewScanner(pr)
	statuses := 0
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.HasPrefix(sc.Text(), "t=") {
			if statuses++; statuses == 2 {
				if during != nil {
					during()
				}
				_ = cmd.Process.Signal(syscall.SIGINT)
			}
		}
	}
	_ = cmd.Wait()
	return lines
}

func rosEnv(t *testing.T) *tooltest.ROS {
	return tooltest.NewROS(t, "http://127.0.0.1:"+strconv.Itoa(tooltest.FreePort(t)))
}

// The README's `make run` output is the competition robot's, and so is
// commands.md's status line.
func TestREADMEQuotesTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs frcd and a ROS master for a few seconds of real time; make test runs it without -short")
	}
	dir := t.TempDir()
	for _, f := range []string{"robot.urdf", "robot.yaml"} {
		copyFile(t, filepath.Join("../../examples/competition", f), filepath.Join(dir, f))
	}
	quoted := quotedLines(t, "../../README.md", "frcd: ", "ros: ", "t=")
	if len(quoted) < 3 {
		t.Fatalf("README quotes %d output lines", len(quoted))
	}
	lines := runQuoted(t, dir, rosEnv(t), nil)
	checkQuoted(t, "README.md", quoted, lines)
	// commands.md's status line is the competition robot's too.
	status := quotedLines(t, "../../docs/commands.md", "t=")
	if len(status) == 0 {
		t.Fatal("commands.md quotes no status line")
	}
	checkQuoted(t, "docs/commands.md", status, lines)
}

// getting-started, followed as written.
func TestGettingStartedQuotesTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs frcd and a ROS master for a few seconds of real time; make test runs it without -short")
	}
	const page = "../../docs/getting-started.md"
	dir := t.TempDir()
	for _, f := range []string{"robot.urdf", "robot.yaml"} {
		copyFile(t, filepath.Join("../../examples/minimal", f), filepath.Join(dir, f))
	}
	// Step 2: the URDF's sensor next to the encoder's, the YAML's blocks
	// at the end of robot.yaml (its joints: list is last).
	xml, yml := pageBlocks(t, page, "xml"), pageBlocks(t, page, "yaml")
	if len(xml) != 1 || len(yml) != 2 || !strings.Contains(yml[1], "controllers:") {
		t.Fatalf("getting-started's blocks changed: xml %q, yaml %q", xml, yml)
	}
	urdf := readText(t, filepath.Join(dir, "robot.urdf"))
	const encoder = `    <sensor name="arm_encoder" type="encoder"/>` + "\n"
	if !strings.Contains(urdf, encoder) {
		t.Fatalf("examples/minimal/robot.urdf has no %q", encoder)
	}
	writeText(t, filepath.Join(dir, "robot.urdf"), strings.Replace(urdf, encoder, encoder+xml[0], 1))
	writeText(t, filepath.Join(dir, "robot.yaml"), readText(t, filepath.Join(dir, "robot.yaml"))+yml[0]+yml[1])

	// Step 3: validate.
	cmd := frcdProcess("validate", "robot.urdf", "robot.yaml")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("validate: %v\n%s", err, out)
	}
	checkQuoted(t, "getting-started.md (validate)", quotedLines(t, page, "CAN bus ", "robot.urdf + "), strings.Split(strings.TrimSpace(string(out)), "\n"))

	// Steps 4 and 5: run, command the arm.
	env := rosEnv(t)
	var moved bool
	var echo string
	command := func() {
		if _, err := exec.LookPath(tooltest.Rostopic.Name); err != nil && os.Getenv("FRCD_REQUIRE_TOOLS") != "1" {
			return
		}
		if _, err := env.Run("rostopic", "pub", "-1", "/arm_position/command", "std_msgs/Float64", "data: 0.5"); err != nil {
			t.Error(err)
			return
		}
		tooltest.Eventually(t, 60*time.Second, "the arm at 0.5 rad", func() bool {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			b, _ := env.Command(ctx, "rostopic", "echo", "-n", "1", "/joint_states/position[0]").Output()
			echo = string(b)
			f, err := strconv.ParseFloat(strings.TrimSpace(strings.SplitN(echo, "\n", 2)[0]), 64)
			moved = err == nil && f > 0.3 && f < 0.7
			return moved
		})
	}
	lines := runQuoted(t, dir, env, command)
	quoted := quotedLines(t, page, "frcd: ", "ros: ", "t=")
	if len(quoted) < 3 {
		t.Fatalf("getting-started quotes %d output lines of run", len(quoted))
	}
	checkQuoted(t, "getting-started.md (run)", quoted, lines)
	if _, err := exec.LookPath(tooltest.Rostopic.Name); err == nil && !moved {
		t.Errorf("the arm did not move to 0.5 rad: %q", echo)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	writeText(t, to, readText(t, from))
}

func readText(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeText(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
