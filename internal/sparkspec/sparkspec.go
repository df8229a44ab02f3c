// Package sparkspec reads frc/testdata/spark-frames-2.0.5.txt, REV's
// SPARK frame specification as facts (ids, lengths, remote frames,
// default periods, enabled-by-default, signal layouts and scales), so
// that the SPARK driver's tests (frc) and the emulated SPARK's (sim) are
// both checked against REV's table rather than against each other.
package sparkspec

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// Frame is one frame of the specification.
type Frame struct {
	Class, Index int
	ArbID        uint32 // for device 0
	Len          int
	RTR          bool
	Periodic     bool
	PeriodMs     int  // periodic frames only
	Enabled      bool // periodic frames only: enabledByDefault
}

// Signal is one field of a frame.
type Signal struct {
	Bit, Bits int
	Type      string // int, uint, float, boolean
	Scale     float64
}

// Spec is the table: frames by name (STATUS_2), signals by frame and
// name (STATUS_0.VOLTAGE).
type Spec struct {
	Frames  map[string]Frame
	Signals map[string]Signal
}

// maxBytes bounds the file read.
const maxBytes = 1 << 20

// Load reads the table from path.
func Load(path string) (*Spec, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(io.LimitReader(f, maxBytes))
}

// Read reads the table; every line is checked, a malformed one is an
// error naming its line.
func Read(r io.Reader) (*Spec, error) {
	s := &Spec{Frames: map[string]Frame{}, Signals: map[string]Signal{}}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		kind, rest, _ := strings.Cut(l, " ")
		c := strings.Split(rest, "|")
		for i := range c {
			c[i] = strings.TrimSpace(c[i])
		}
		var err error
		switch {
		case kind == "frame" && len(c) == 8:
			err = s.frame(c)
		case kind == "signal" && len(c) == 5:
			err = s.signal(c)
		default:
			err = fmt.Errorf("not a frame (8 fields) or signal (5 fields) line")
		}
		if err != nil {
			return nil, fmt.Errorf("sparkspec: line %d: %w", n, err)
		}
	}
	return s, sc.Err()
}

func (s *Spec) frame(c []string) error {
	var f Frame
	var err error
	ints := []*int{&f.Class, &f.Index, nil, &f.Len}
	for i, p := range ints {
		if p == nil {
			var id uint64
			if id, err = strconv.ParseUint(c[1+i], 10, 32); err != nil {
				return err
			}
			f.ArbID = uint32(id)
			continue
		}
		if *p, err = strconv.Atoi(c[1+i]); err != nil {
			return err
		}
	}
	f.RTR = c[5] == "true"
	if c[6] != "-" {
		f.Periodic = true
		if f.PeriodMs, err = strconv.Atoi(c[6]); err != nil {
			return err
		}
		f.Enabled = c[7] == "true"
	}
	s.Frames[c[0]] = f
	return nil
}

func (s *Spec) signal(c []string) error {
	var g Signal
	var err error
	if g.Bit, err = strconv.Atoi(c[1]); err != nil {
		return err
	}
	if g.Bits, err = strconv.Atoi(c[2]); err != nil {
		return err
	}
	g.Type = c[3]
	if g.Scale, err = strconv.ParseFloat(c[4], 64); err != nil {
		return err
	}
	s.Signals[c[0]] = g
	return nil
}
