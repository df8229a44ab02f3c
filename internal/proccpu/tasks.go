package proccpu

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// Task is one thread of a process as the kernel counts it.
type Task struct {
	TID int
	// Voluntary is how many times the thread gave up the CPU to wait
	// (each a wake-up later: a timer, a read, a futex), Involuntary how
	// many times it was preempted (/proc/PID/task/TID/status).
	Voluntary, Involuntary uint64
	// FIFO: the thread runs at SCHED_FIFO (/proc/PID/task/TID/stat's
	// policy field).
	FIFO bool
}

// Tasks reads every thread of pid. A thread that exits while it is read
// is left out.
func Tasks(pid int) ([]Task, error) {
	dir := fmt.Sprintf("/proc/%d/task", pid)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Task
	for _, e := range ents {
		tid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		status, err1 := os.ReadFile(filepath.Join(dir, e.Name(), "status"))
		stat, err2 := os.ReadFile(filepath.Join(dir, e.Name(), "stat"))
		if err1 != nil || err2 != nil {
			continue // exited meanwhile
		}
		t := Task{TID: tid, Voluntary: field(status, "voluntary_ctxt_switches:"), Involuntary: field(status, "nonvoluntary_ctxt_switches:")}
		t.FIFO = policy(stat) == 1
		out = append(out, t)
	}
	return out, nil
}

// field is the number after key at the start of a line of a status file.
func field(b []byte, key string) uint64 {
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte(key)); ok {
			n, _ := strconv.ParseUint(string(bytes.TrimSpace(v)), 10, 64)
			return n
		}
	}
	return 0
}

// policy is a stat file's scheduling policy (proc(5): field 41, counted
// after the command's closing parenthesis, which may hold spaces).
func policy(stat []byte) int {
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return -1
	}
	f := bytes.Fields(stat[i+1:])
	const at = 41 - 3 // fields 1 and 2 are before the parenthesis' end; f[0] is field 3
	if len(f) <= at {
		return -1
	}
	p, err := strconv.Atoi(string(f[at]))
	if err != nil {
		return -1
	}
	return p
}

// Wakes is the voluntary switches between two readings of one process's
// threads: all of them, and those of its SCHED_FIFO threads. A thread
// born between the two counts from zero; one gone by the second is lost.
func Wakes(before, after []Task) (all, fifo uint64) {
	was := map[int]uint64{}
	for _, t := range before {
		was[t.TID] = t.Voluntary
	}
	for _, t := range after {
		d := t.Voluntary - min(was[t.TID], t.Voluntary)
		all += d
		if t.FIFO {
			fifo += d
		}
	}
	return all, fifo
}
