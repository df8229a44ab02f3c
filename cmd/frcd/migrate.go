package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/frcd/frcd/config"
	"github.com/frcd/frcd/diag"
)

const migrateUsage = `  frcd migrate [-w] ROBOT.yaml
                          rewrite a robot YAML written in frc_control's forms in frcd's own, to
                          standard output (-w: in place); comments are kept
`

// migrate writes a robot YAML in frcd's canonical forms, with a note on
// standard error for each form it rewrote and the findings frcd still has
// on the result.
func migrate(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("migrate", stderr)
	inPlace := fs.Bool("w", false, "rewrite the file in place instead of writing to standard output")
	fs.Usage = func() {
		fmt.Fprint(stderr, "usage:\n"+migrateUsage)
		fs.PrintDefaults()
	}
	files, err := parseFlags(fs, args)
	if err != nil {
		return exitUsage // the flag package printed the usage
	}
	if len(files) != 1 {
		fs.Usage()
		return exitUsage
	}
	path := files[0]
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "frcd migrate: %v\n", err)
		return exitUsage
	}
	out, notes, changed, err := config.Migrate(path, data)
	if err != nil {
		fmt.Fprintf(stderr, "frcd migrate: %v\n", err)
		return exitInvalid
	}
	notes.Sort()
	notes.WriteText(stderr)
	_, rest := config.Parse(path, out)
	var left diag.List
	for _, f := range rest {
		if f.Severity != diag.Note {
			left = append(left, f)
		}
	}
	left.Sort()
	left.WriteText(stderr)
	if !changed {
		fmt.Fprintf(stderr, "%s: already in frcd's forms; nothing to rewrite\n", path)
	}
	switch {
	case !*inPlace:
		stdout.Write(out)
	case changed:
		tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".migrate")
		if err := os.WriteFile(tmp, out, 0o644); err != nil {
			fmt.Fprintf(stderr, "frcd migrate: %v\n", err)
			return exitUsage
		}
		if err := os.Rename(tmp, path); err != nil {
			os.Remove(tmp)
			fmt.Fprintf(stderr, "frcd migrate: %v\n", err)
			return exitUsage
		}
	}
	if left.Errors() > 0 {
		return exitInvalid
	}
	return exitOK
}
