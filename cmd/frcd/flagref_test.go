package main

import (
	"os"
	"strings"
	"testing"
)

const flagRefPath = "../../docs/flags.md"

// flagReference is docs/flags.md: each subcommand's usage and flags,
// exactly as `frcd CMD --help` prints them. version's (it names the Go
// release the binary was built with) and help's (the usage, with every
// command) are left out.
func flagReference(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# Flag reference\n\n" +
		"Every subcommand's usage and flags, as `frcd CMD --help` prints them. This page is\n" +
		"generated from the commands' own flag sets (`make docs`), and `go test ./cmd/frcd`\n" +
		"fails when it is out of date, so it cannot drift. What each command does, prints and\n" +
		"exits with: [commands.md](commands.md).\n")
	for _, c := range commands() {
		if c.name == "version" || c.name == "help" {
			continue
		}
		code, out, errOut := runFrcd(c.name, "--help")
		if code != exitOK || errOut != "" || out == "" {
			t.Fatalf("frcd %s --help: exit %d, stdout %q, stderr %q", c.name, code, out, errOut)
		}
		b.WriteString("\n## frcd " + c.name + "\n\n```\n" + strings.TrimRight(out, "\n") + "\n```\n")
	}
	return b.String()
}

// docs/flags.md is what the commands' --help print now (go test ./cmd/frcd
// -run TestFlagReference -update rewrites it; make docs does).
func TestFlagReference(t *testing.T) {
	want := flagReference(t)
	if *update {
		if err := os.WriteFile(flagRefPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(flagRefPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is out of date: run make docs (go test ./cmd/frcd -run TestFlagReference -update)", flagRefPath)
	}
	for _, f := range []string{"-hal", "-json", "-for", "--team"} {
		if !strings.Contains(want, "\n  "+f+" ") && !strings.Contains(want, "\n  "+f+"\n") {
			t.Errorf("the reference lists no %s flag", f)
		}
	}
}

// Every subcommand's --help prints its usage once, with what it does, and
// each of its flags once: not the flag package's bare "Usage of ...", not
// the usage twice (as migrate's once did).
func TestHelpOnce(t *testing.T) {
	for _, c := range commands() {
		if c.name == "version" || c.name == "help" {
			continue
		}
		code, out, errOut := runFrcd(c.name, "--help")
		if code != exitOK || errOut != "" {
			t.Errorf("frcd %s --help: exit %d, stderr %q", c.name, code, errOut)
		}
		if strings.Contains(out, "Usage of") || strings.Count(strings.ToLower(out), "usage:") != 1 || !strings.Contains(out, "frcd "+c.name) {
			t.Errorf("frcd %s --help: want one usage naming the command:\n%s", c.name, out)
		}
		if !strings.Contains(out, "\n                          ") && !strings.Contains(out, "    ") {
			t.Errorf("frcd %s --help says nothing of what the command does:\n%s", c.name, out)
		}
		seen := map[string]bool{}
		for _, line := range strings.Split(out, "\n") {
			f := strings.Fields(line)
			if len(f) == 0 || !strings.HasPrefix(line, "  -") {
				continue
			}
			if seen[f[0]] {
				t.Errorf("frcd %s --help prints %s twice:\n%s", c.name, f[0], out)
			}
			seen[f[0]] = true
		}
	}
}
