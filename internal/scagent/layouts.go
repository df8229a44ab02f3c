package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/frcd/frcd/internal/fakehal"
	"github.com/frcd/frcd/internal/vmagent"
	"github.com/frcd/frcd/nt4/wire"
)

// MatchEvent is the event name matchLayouts's Driver Station reports: 63
// characters, the longest both 2027 layouts hold, so that a match read at
// the other layout's offsets comes out wrong.
var MatchEvent = strings.Repeat("e", 59) + "2027"

// matchLayouts runs `frcd run --hal systemcore` once on each layout's fake
// HAL (the directory lib + "-" + layout), its Driver Station attached,
// enabled in autonomous with the FMS, at elimination match 7, replay 1,
// of MatchEvent. Where frcd runs, it reads the match frcd publishes on
// NT4 (WPILib 2027's /DriverStation table), reports it ("match") and
// stops frcd with SIGTERM; either way it reports frcd's exit status
// ("exit"). A mark "run-LAYOUT" precedes each run's log lines.
func matchLayouts(frcd, urdf, yaml, lib string, layouts []string) error {
	for _, layout := range layouts {
		vmagent.Mark("run-" + layout)
		code, err := matchRun(frcd, urdf, yaml, lib+"-"+layout, layout)
		if err != nil {
			vmagent.Fail("%s: %v", layout, err)
		}
		vmagent.Emit(vmagent.Event{Ev: "exit", Name: layout, Code: code})
	}
	return nil
}

func matchRun(frcd, urdf, yaml, lib, layout string) (int, error) {
	dir, err := os.MkdirTemp("", "fakehal-"+layout)
	if err != nil {
		return -1, err
	}
	f, err := fakehal.NewFiles(dir)
	if err != nil {
		return -1, err
	}
	if err := f.Set("cw 1 1 0 1 1", "matchinfo "+MatchEvent+" 3 7 1", "gamedata L"); err != nil {
		return -1, err
	}
	d := exec.Command(frcd, "run", "--hal", "systemcore", "--no-ros", "--nt", "127.0.0.1:5810", urdf, yaml)
	d.Env = append(os.Environ(), append(f.Env(), "LD_LIBRARY_PATH="+lib)...)
	exited, err := vmagent.Start(d)
	if err != nil {
		return -1, err
	}
	code := func(err error) int {
		var e *exec.ExitError
		if errors.As(err, &e) {
			return e.ExitCode()
		}
		if err != nil {
			return -1
		}
		return 0
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// frcd either serves NT4 or exits: a refused HAL ends it at start.
	var nt *wire.Conn
	for nt == nil {
		select {
		case err := <-exited:
			return code(err), nil
		case <-ctx.Done():
			d.Process.Kill()
			return code(<-exited), errors.New("frcd neither served NT4 nor exited within 60 s")
		case <-time.After(20 * time.Millisecond):
			nt, _ = wire.Dial(ctx, "127.0.0.1:5810", "scagent")
		}
	}
	defer nt.Close()
	if err := nt.Subscribe([]string{"/DriverStation/"}, true, false, 20*time.Millisecond); err != nil {
		d.Process.Kill()
		return code(<-exited), err
	}
	str := func(name string) string {
		tp, ok := nt.Topic(name)
		if !ok {
			return ""
		}
		v, _ := tp.Value.Text()
		return v
	}
	num := func(name string) float64 {
		tp, ok := nt.Topic(name)
		if !ok {
			return -1
		}
		v, ok := tp.Value.Double()
		if !ok {
			return -1
		}
		return v
	}
	ended, endCode := false, 0
	var readErr error
	if err := until("the match on NT4", 30*time.Second, func() bool {
		select {
		case err := <-exited: // frcd ended on its own
			ended, endCode = true, code(err)
			return true
		default:
		}
		return str("/DriverStation/EventName") != "" && num("/DriverStation/MatchNumber") > 0
	}); err != nil {
		readErr = err
	} else if ended {
		return endCode, nil
	} else {
		vmagent.Emit(vmagent.Event{Ev: "match", Name: layout, Line: str("/DriverStation/EventName"),
			Vals: []float64{num("/DriverStation/MatchType"), num("/DriverStation/MatchNumber"), num("/DriverStation/ReplayNumber")}})
	}
	if err := d.Process.Signal(syscall.SIGTERM); err != nil {
		return -1, err
	}
	select {
	case err := <-exited:
		return code(err), readErr
	case <-time.After(20 * time.Second):
		d.Process.Kill()
		return code(<-exited), errors.New("frcd did not exit within 20 s of SIGTERM")
	}
}
