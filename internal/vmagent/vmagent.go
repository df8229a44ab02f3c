// Package vmagent is what the programs the qemu kernel tests run inside
// their VMs (internal/canagent, internal/scagent) share: the report they
// write on stdout, one JSON event a line, and frcd started with its
// output in that report.
package vmagent

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Event is one line of the report.
type Event struct {
	Ev   string    `json:"ev"`
	T    float64   `json:"t"` // seconds since the Unix epoch, on the guest's clock
	Name string    `json:"name,omitempty"`
	Line string    `json:"line,omitempty"`
	Vals []float64 `json:"vals,omitempty"`
	Code int       `json:"code,omitempty"`
}

var (
	outMu sync.Mutex
	enc   = json.NewEncoder(os.Stdout)
)

// Emit writes e, stamped now unless it has a time.
func Emit(e Event) {
	if e.T == 0 {
		e.T = float64(time.Now().UnixNano()) / 1e9
	}
	outMu.Lock()
	defer outMu.Unlock()
	_ = enc.Encode(e)
}

// Mark writes a named point in time.
func Mark(name string) { Emit(Event{Ev: "mark", Name: name}) }

// Fail writes a failure the test reports.
func Fail(format string, args ...any) { Emit(Event{Ev: "fail", Line: fmt.Sprintf(format, args...)}) }

// Start starts cmd with its standard output and error as "log" events. The
// channel (buffered: one) gets Wait's error once the output has been read to its end.
func Start(cmd *exec.Cmd) (chan error, error) {
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		pr.Close()
		pw.Close()
		return nil, fmt.Errorf("%s: %w", cmd.Path, err)
	}
	pw.Close()
	logDone := make(chan struct{})
	go func() {
		defer close(logDone)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			Emit(Event{Ev: "log", Line: sc.Text()})
		}
	}()
	exited := make(chan error, 1)
	go func() { err := cmd.Wait(); <-logDone; exited <- err }()
	return exited, nil
}
