package main

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/frcd/frcd/internal/proccpu"
)

// sample is one measured run, per second of wall clock.
type sample struct {
	cpu      float64 // CPU seconds (user + sys, all threads)
	wakes    float64 // voluntary context switches, all threads
	fifo     float64 // of the SCHED_FIFO threads (the loop's, at that priority)
	jitter   time.Duration
	hasJit   bool
	overruns int
}

// results are the samples of each priority and key, in round order.
type results map[string]map[string][]sample

func measureAll(o options, b binaries, prios []priority) (results, error) {
	res := results{}
	for _, p := range prios {
		res[p.name] = map[string][]sample{}
	}
	for rep := 0; rep < o.reps; rep++ {
		for _, p := range prios {
			bare := []string{b.bare, "--rate", strconv.FormatFloat(o.rate, 'f', -1, 64), "--rt-priority", strconv.Itoa(p.prio)}
			s, err := measure(o, bare, nil)
			if err != nil {
				return nil, fmt.Errorf("bare loop (%s): %w", p.name, err)
			}
			res[p.name]["bare"] = append(res[p.name]["bare"], s)
			for _, c := range configs(o, b, p) {
				s, err := measure(o, append([]string{b.frcd}, c.args...), c.env)
				if err != nil {
					return nil, fmt.Errorf("frcd %s (%s): %w", c.key, p.name, err)
				}
				res[p.name][c.key] = append(res[p.name][c.key], s)
			}
		}
	}
	return res, nil
}

var (
	jitterRE  = regexp.MustCompile(`jitter p99<=([0-9.]+)(µs|ms)`)
	overrunRE = regexp.MustCompile(`overruns=([0-9]+)`)
)

// measure runs cmd for o.warm, then reads its CPU clock and its threads'
// switches over o.measure; it ends it with SIGTERM and reads the last
// status line's jitter p99 and overruns, if it printed one.
func measure(o options, cmd, env []string) (sample, error) {
	c := exec.Command(cmd[0], cmd[1:]...)
	// A small environment, as a robot's: the fake HAL looks up its
	// variables at every call, and a long environment would be its cost.
	c.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	var stdout, stderr bytes.Buffer
	c.Stdout, c.Stderr = &stdout, &stderr
	if err := c.Start(); err != nil {
		return sample{}, err
	}
	pid := c.Process.Pid
	stop := func() {
		c.Process.Signal(syscall.SIGTERM)
		c.Wait()
	}
	fail := func(err error) (sample, error) {
		stop()
		return sample{}, fmt.Errorf("%v: %s", err, lastLine(stderr.String()))
	}
	time.Sleep(o.warm) // the child runs meanwhile
	t0, err := proccpu.Tasks(pid)
	if err != nil {
		return fail(err)
	}
	c0, err := proccpu.CPU(pid)
	if err != nil {
		return fail(err)
	}
	start := time.Now()
	time.Sleep(o.measure)
	c1, err := proccpu.CPU(pid)
	if err != nil {
		return fail(err)
	}
	t1, err := proccpu.Tasks(pid)
	if err != nil {
		return fail(err)
	}
	el := time.Since(start).Seconds()
	if proccpu.Exited(pid) {
		return fail(fmt.Errorf("exited before the end of its measure"))
	}
	stop()
	all, fifo := proccpu.Wakes(t0, t1)
	s := sample{cpu: (c1 - c0).Seconds() / el, wakes: float64(all) / el, fifo: float64(fifo) / el}
	if m := jitterRE.FindAllStringSubmatch(stdout.String(), -1); len(m) > 0 {
		last := m[len(m)-1]
		v, _ := strconv.ParseFloat(last[1], 64)
		unit := time.Microsecond
		if last[2] == "ms" {
			unit = time.Millisecond
		}
		s.jitter, s.hasJit = time.Duration(v*float64(unit)), true
	}
	if m := overrunRE.FindAllStringSubmatch(stdout.String(), -1); len(m) > 0 {
		s.overruns, _ = strconv.Atoi(m[len(m)-1][1])
	}
	return s, nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
