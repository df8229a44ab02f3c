// Package fakehal builds and drives the fake WPILib HALs (fake
// libwpiHal.so files written in C from WPILib's headers: fakehal2026.c for
// the roboRIO's 2026 HAL, fakehal2027.c for Systemcore's 2027 HAL, sharing
// fakeio.h). A fake logs every call to the file named by $FAKEHAL_LOG and
// reads what the robot senses, and the Driver Station it plays, from the
// file named by $FAKEHAL_IN (the comments of the C files list the keys).
// hal/wpihal's and hal/systemcore's tests, cmd/frcd's and the Systemcore
// VM's agent use it.
package fakehal

import (
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

//go:embed c/fakehal2026.c
var src2026 []byte

//go:embed c/fakehal2027.c
var src2027 []byte

//go:embed c/fakeio.h
var fakeio []byte

// Library is the file name Build gives the fake.
const Library = "libwpiHal.so"

// Layouts are the 2027 fake's layouts, as BuildLayout takes them: "main"
// (allwpilib main at caf0fb2dcc), "alpha-6" (tag v2027.0.0-alpha-6) and
// "between" (main between allwpilib #8858 and #9238: a layout frcd
// refuses). The 2026 fake has one, "".
var Layouts = []string{"main", "alpha-6", "between"}

var layoutFlags = map[string]string{"main": "", "alpha-6": "-DFAKEHAL_LAYOUT_ALPHA6", "between": "-DFAKEHAL_LAYOUT_BETWEEN"}

// Build compiles the fake HAL of year ("2026" or "2027") with the C
// compiler cc ("" is $FAKEHAL_CC, else cc) into dir/libwpiHal.so and
// returns its path. The 2027 fake is of the layout $FAKEHAL_LAYOUT names
// (Layouts; unset is "main").
func Build(dir, cc, year string) (string, error) {
	layout := ""
	if year == "2027" {
		layout = os.Getenv("FAKEHAL_LAYOUT")
	}
	return BuildLayout(dir, cc, year, layout)
}

// BuildLayout is Build of a given layout ("" is the year's default).
func BuildLayout(dir, cc, year, layout string) (string, error) {
	src := map[string][]byte{"2026": src2026, "2027": src2027}[year]
	if src == nil {
		return "", fmt.Errorf("fakehal: no fake HAL of year %q", year)
	}
	if layout == "" && year == "2027" {
		layout = "main"
	}
	flag, ok := layoutFlags[layout]
	if year == "2026" {
		flag, ok = "", layout == ""
	}
	if !ok {
		return "", fmt.Errorf("fakehal: no fake %s HAL of layout %q (FAKEHAL_LAYOUT: %s for 2027)", year, layout, strings.Join(Layouts, ", "))
	}
	if cc == "" {
		cc = os.Getenv("FAKEHAL_CC")
	}
	if cc == "" {
		cc = "cc"
	}
	name := "fakehal" + year + ".c"
	if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "fakeio.h"), fakeio, 0o644); err != nil {
		return "", err
	}
	out := filepath.Join(dir, Library)
	args := []string{"-shared", "-fPIC", "-Wall", "-Werror", "-O1", "-o", out}
	if flag != "" {
		args = append(args, flag)
	}
	b, err := exec.Command(cc, append(args, filepath.Join(dir, name))...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("fakehal: %s %s: %v\n%s", cc, name, err, b)
	}
	return out, nil
}

// Files are a fake's input and log files.
type Files struct {
	In, Log string
}

// NewFiles makes empty input and log files in dir.
func NewFiles(dir string) (Files, error) {
	f := Files{In: filepath.Join(dir, "fakehal.in"), Log: filepath.Join(dir, "fakehal.log")}
	for _, p := range []string{f.In, f.Log} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			return f, err
		}
	}
	return f, nil
}

// Env is the environment that points a fake at f.
func (f Files) Env() []string { return []string{"FAKEHAL_IN=" + f.In, "FAKEHAL_LOG=" + f.Log} }

// Set appends input lines; for each key the last line wins.
func (f Files) Set(lines ...string) error {
	file, err := os.OpenFile(f.In, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = file.WriteString(strings.Join(lines, "\n") + "\n")
	return errors.Join(err, file.Close())
}

// Calls returns the log's lines.
func (f Files) Calls() ([]string, error) {
	b, err := os.ReadFile(f.Log)
	if err != nil {
		return nil, err
	}
	s := strings.TrimSuffix(string(b), "\n")
	if s == "" {
		return nil, nil
	}
	return strings.Split(s, "\n"), nil
}

var pulseRE = regexp.MustCompile(`^(?:(\d+) )?HAL_SetPWMPulseTimeMicroseconds h=0x1000([0-5]) us=(\d+)$`)

// Pulse is one PWM pulse width the program set: on which SmartIO channel,
// µs, and when (µs of wall-clock time since 1970 when the fake ran with
// $FAKEHAL_STAMP set, else 0).
type Pulse struct {
	At      int64
	Channel int
	Micros  int
}

// Pulses are the 2027 fake's PWM pulse widths, in the order set.
func Pulses(calls []string) []Pulse {
	var out []Pulse
	for _, c := range calls {
		if m := pulseRE.FindStringSubmatch(c); m != nil {
			at, _ := strconv.ParseInt(m[1], 10, 64)
			ch, _ := strconv.Atoi(m[2])
			us, _ := strconv.Atoi(m[3])
			out = append(out, Pulse{At: at, Channel: ch, Micros: us})
		}
	}
	return out
}

var ledRE = regexp.MustCompile(`^(?:\d+ )?HAL_SetAddressableLEDData start=(\d+) length=(\d+) order=\d rgb=([0-9a-f]*)$`)

// LEDBuffer is the 2027 fake's LED buffer after calls: the 1024 LEDs all
// SmartIO channels share, r, g, b each, as the HAL_SetAddressableLEDData
// calls logged left it.
func LEDBuffer(calls []string) [1024 * 3]byte {
	var buf [1024 * 3]byte
	for _, c := range calls {
		m := ledRE.FindStringSubmatch(c)
		if m == nil {
			continue
		}
		start, _ := strconv.Atoi(m[1])
		b, err := hex.DecodeString(m[3])
		if err == nil && 3*start+len(b) <= len(buf) {
			copy(buf[3*start:], b)
		}
	}
	return buf
}

// LastPulses are the last pulse width of each SmartIO channel set, -1
// where none was.
func LastPulses(calls []string) [6]int {
	last := [6]int{-1, -1, -1, -1, -1, -1}
	for _, p := range Pulses(calls) {
		last[p.Channel] = p.Micros
	}
	return last
}

// Setup builds the fake HAL of year with $FAKEHAL_CC (else cc) into a
// test's temporary directory, makes its files there and points the fake at
// them through the test's environment (t.Setenv). It returns the library
// and the files.
func Setup(t testing.TB, year string) (string, Files) {
	t.Helper()
	dir := t.TempDir()
	lib, err := Build(dir, "", year)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range f.Env() {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	return lib, f
}
