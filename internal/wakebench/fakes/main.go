// Command fakes builds, for internal/wakebench, the fake 2026 WPILib HAL
// (internal/fakehal) and the fake CTRE libraries (hal/ctre/testdata, under
// both of the names hal/ctre looks for) into the directory it is given,
// with the host's C compiler ($CC, else cc). Run from the repository's
// root.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/frcd/frcd/internal/fakehal"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: fakes DIR")
		os.Exit(2)
	}
	if err := build(os.Args[1]); err != nil {
		fmt.Fprintf(os.Stderr, "fakes: %v\n", err)
		os.Exit(1)
	}
}

func build(dir string) error {
	cc := os.Getenv("CC")
	if cc == "" {
		cc = "cc"
	}
	if _, err := fakehal.Build(dir, cc, "2026"); err != nil {
		return err
	}
	ctre := filepath.Join(dir, "libCTRE_PhoenixCCI.so")
	if msg, err := exec.Command(cc, "-shared", "-fPIC", "-O1", "-o", ctre, "hal/ctre/testdata/fakectre.c").CombinedOutput(); err != nil {
		return fmt.Errorf("%s fakectre.c: %v\n%s", cc, err, msg)
	}
	b, err := os.ReadFile(ctre)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "libCTRE_PhoenixTools.so"), b, 0o755)
}
