package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsNameWhatExists fails when the README or a page under docs/ or
// deploy/ names a frcd subcommand or flag, a make target or a file of the
// repository that does not exist. Subcommands come from the command
// table, each one's flags from its own flag set (its --help), make targets
// from the Makefile, files from the disk.
func TestDocsNameWhatExists(t *testing.T) {
	const root = "../.."
	pages := []string{filepath.Join(root, "README.md")}
	for _, dir := range []string{"docs", "deploy"} {
		m, err := filepath.Glob(filepath.Join(root, dir, "*.md"))
		if err != nil || len(m) == 0 {
			t.Fatalf("no pages in %s: %v", dir, err)
		}
		pages = append(pages, m...)
	}
	flags := commandFlags(t)
	targets := makeTargets(t, filepath.Join(root, "Makefile"))
	for _, page := range pages {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, page)
		for _, p := range docProblems(string(text), filepath.Dir(page), root, flags, targets) {
			t.Errorf("%s: %s", name, p)
		}
	}
}

// The checker itself finds each kind of drift.
func TestDocProblemsFindsDrift(t *testing.T) {
	flags := commandFlags(t)
	targets := makeTargets(t, "../../Makefile")
	good := "Run `frcd validate --json a.urdf b.yaml`, `make run`, see [the docs](docs/devices.md) and `examples/minimal/robot.yaml`.\n" +
		"```sh\nfrcd run --sim --nt off robot.urdf robot.yaml   # --not-a-flag in a comment is prose\nmake test\n```\n" +
		"`frcd deploy --team 1 --run-flags \"--log /u/logs --nt 0.0.0.0:5810\" a.urdf b.yaml`: a quoted value is one word\n"
	if p := docProblems(good, "../..", "../..", flags, targets); len(p) != 0 {
		t.Errorf("good text: %v", p)
	}
	for _, bad := range []string{
		"`frcd valdate a b`", "`frcd validate --jsn a b`", "```\nfrcd run --simm a b\n```\n", "`make instal`",
		"[x](docs/nowhere.md)", "`examples/nowhere/robot.yaml`", "`frcd can scan --bogus`",
	} {
		if p := docProblems(bad, "../..", "../..", flags, targets); len(p) != 1 {
			t.Errorf("%q: problems %v, want one", bad, p)
		}
	}
}

// commandFlags maps each subcommand to the flags its --help lists.
func commandFlags(t *testing.T) map[string]map[string]bool {
	t.Helper()
	flag := regexp.MustCompile(`(?m)^\s+--?(\w[\w-]*)`)
	all := map[string]map[string]bool{}
	for _, c := range commands() {
		_, out, _ := runFrcd(c.name, "--help")
		set := map[string]bool{"h": true, "help": true}
		for _, m := range flag.FindAllStringSubmatch(out, -1) {
			set[m[1]] = true
		}
		all[c.name] = set
	}
	if !all["run"]["hal"] || !all["validate"]["json"] || !all["can"]["for"] {
		t.Fatalf("flags not found in --help: %v", all)
	}
	return all
}

func makeTargets(t *testing.T, makefile string) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(makefile)
	if err != nil {
		t.Fatal(err)
	}
	targets := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^([a-z][a-z-]*):`).FindAllStringSubmatch(string(b), -1) {
		targets[m[1]] = true
	}
	if !targets["run"] || !targets["test"] || !targets["install"] {
		t.Fatalf("make targets %v", targets)
	}
	return targets
}

var (
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	mdLink   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	// frcd where a shell runs it: at the start, after && ; | or $, or as a path
	frcdCmd   = regexp.MustCompile(`(?:^|&& |; |\| |\$ |/)frcd ([a-z][a-z-]*)((?: +[^\s#|;&]+)*)`)
	makeCmd   = regexp.MustCompile(`^make ([a-z][a-z-]*)`)
	flagWord  = regexp.MustCompile(`^--?([a-z][\w-]*)`)
	repoPath  = regexp.MustCompile(`^[\w.-]+(/[\w.-]+)+/?$`)
	localPage = regexp.MustCompile(`^[\w.-]+\.(md|service|launch)$`)
	// NAME, TYPE: a placeholder, not a file
	placeholder = regexp.MustCompile(`(?:^|[^A-Za-z])(?:NAME|TYPE|DIR|FILE|ADDR)(?:[^A-Za-z]|$)`)
	// allwpilib's paths, cited as sources: hal/src/..., hal/include/...,
	// hal/build.gradle
	foreign = regexp.MustCompile(`^((hal/(src|include)|ntcore|wpilibc|wpilibj|wpiutil)/|hal/build\.gradle$)`)
)

// hypothetical are files docs/adding-a-device.md has you create.
var hypothetical = map[string]bool{
	"devices/pwm_spark_max.go": true, "devices/team_can_encoder.go": true, "sim/part_team_can_encoder.go": true,
}

// docProblems lists what a page names that does not exist: code spans and
// code-block lines are commands and paths; links are files.
func docProblems(text, dir, root string, flags map[string]map[string]bool, targets map[string]bool) []string {
	var probs []string
	var code []string // code-block lines and code spans
	inBlock := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			inBlock = !inBlock
			continue
		}
		if inBlock {
			code = append(code, strings.TrimSpace(line))
			continue
		}
		for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
			code = append(code, m[1])
		}
		for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
			target := strings.SplitN(m[1], "#", 2)[0]
			if target == "" || strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(dir, target)); err != nil {
				probs = append(probs, "link to a missing file "+m[1])
			}
		}
	}
	for _, c := range code {
		probs = append(probs, codeProblems(c, dir, root, flags, targets)...)
	}
	return probs
}

// quotedArg is a flag's value in double quotes (frcd deploy's --run-flags
// "--log DIR"): one word, whatever it holds.
var quotedArg = regexp.MustCompile(`"[^"]*"`)

func codeProblems(c, dir, root string, flags map[string]map[string]bool, targets map[string]bool) []string {
	var probs []string
	if m := makeCmd.FindStringSubmatch(c); m != nil && !targets[m[1]] {
		probs = append(probs, "no make target "+m[1]+": "+c)
	}
	if cmt := strings.Index(c, " #"); cmt >= 0 {
		c = c[:cmt]
	}
	for _, m := range frcdCmd.FindAllStringSubmatch(quotedArg.ReplaceAllString(c, `"…"`), -1) {
		sub, set := m[1], flags[m[1]]
		if set == nil {
			probs = append(probs, "no subcommand frcd "+sub+": "+c)
			continue
		}
		for _, w := range strings.Fields(m[2]) {
			if f := flagWord.FindStringSubmatch(strings.Trim(w, "[]()")); f != nil {
				name := strings.SplitN(f[1], "=", 2)[0]
				if !set[name] {
					probs = append(probs, "frcd "+sub+" has no flag -"+name+": "+c)
				}
			}
		}
	}
	p := strings.TrimSuffix(c, ":")
	switch {
	case strings.HasPrefix(p, "bin/"), strings.ContainsAny(p, "*<>$"), placeholder.MatchString(p), hypothetical[p]:
		return probs // build output, a pattern, a placeholder, a file a guide has you write
	case repoPath.MatchString(p):
		// a file (with an extension) or a folder (ending in /) under
		// one of our folders; else a topic, or another repository's path
		clean := strings.TrimSuffix(p, "/")
		if !strings.HasSuffix(p, "/") && !strings.Contains(filepath.Base(clean), ".") {
			return probs
		}
		top := strings.SplitN(clean, "/", 2)[0]
		if fi, err := os.Stat(filepath.Join(root, top)); err != nil || !fi.IsDir() || foreign.MatchString(p) {
			return probs
		}
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			probs = append(probs, "no file "+p)
		}
	case localPage.MatchString(p):
		_, e1 := os.Stat(filepath.Join(dir, p))
		_, e2 := os.Stat(filepath.Join(root, p))
		if e1 != nil && e2 != nil {
			probs = append(probs, "no file "+p)
		}
	}
	return probs
}

// Every page under docs/ and deploy/ is reachable from the README by
// following links.
func TestEveryDocReachableFromREADME(t *testing.T) {
	root, _ := filepath.Abs("../..")
	seen := map[string]bool{}
	queue := []string{filepath.Join(root, "README.md")}
	for len(queue) > 0 {
		page := queue[0]
		queue = queue[1:]
		if seen[page] {
			continue
		}
		seen[page] = true
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(text), -1) {
			target := strings.SplitN(m[1], "#", 2)[0]
			if strings.HasSuffix(target, ".md") && !strings.Contains(target, "://") {
				queue = append(queue, filepath.Join(filepath.Dir(page), target))
			}
		}
	}
	for _, dir := range []string{"docs", "deploy"} {
		pages, _ := filepath.Glob(filepath.Join(root, dir, "*.md"))
		for _, p := range pages {
			if !seen[p] {
				t.Errorf("%s is not reachable from README.md", p[len(root)+1:])
			}
		}
	}
}
