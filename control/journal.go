package control

import (
	"math"
	"sync"
	"time"
)

// CommandRecord is one command a controller received: accepted or
// refused. Values holds the command (one value, or a group's one per
// joint); a command refused before it had a value (a message of the
// wrong type) holds NaN.
type CommandRecord struct {
	Controller int // index in Loop.Controllers
	Stamp      time.Duration
	Refused    bool
	// Gains marks a PID's gains (SetGains: p, i, d, f) rather than a
	// command.
	Gains  bool
	Values []float64
}

// journal keeps the commands the controllers received since the last
// Drain, in a ring of fixed size: when it is full the oldest record goes
// (and is counted). Recording never allocates.
type journal struct {
	mu      sync.Mutex
	slots   []CommandRecord // each slot's Values has room for the widest command
	head, n int
	dropped uint64
}

// EnableJournal makes every controller record the commands it receives
// (accepted and refused) in a ring of size records, for DrainCommands (a
// log). Call it before commands flow; size < 1 means 1024.
func (l *Loop) EnableJournal(size int) {
	if size < 1 {
		size = 1024
	}
	width := 4 // a PID's gains
	for _, c := range l.ctls {
		width = max(width, len(c.Joints))
	}
	j := &journal{slots: make([]CommandRecord, size)}
	buf := make([]float64, size*width)
	for i := range j.slots {
		j.slots[i].Values = buf[i*width : i*width : (i+1)*width]
	}
	for i, c := range l.ctls {
		c.journal, c.index = j, i
	}
	l.journal = j
}

// DrainCommands calls f with each command recorded since the last call,
// oldest first, and returns how many were dropped because the ring was
// full. f must not keep r. Safe from any goroutine (one drainer).
func (l *Loop) DrainCommands(f func(r *CommandRecord)) (dropped uint64) {
	j := l.journal
	if j == nil {
		return 0
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	for ; j.n > 0; j.n-- {
		f(&j.slots[j.head])
		j.head = (j.head + 1) % len(j.slots)
	}
	dropped, j.dropped = j.dropped, 0
	return dropped
}

// record adds a command to the journal, if there is one.
func (c *Controller) record(stamp time.Duration, refused bool, vs ...float64) {
	c.recordAs(stamp, refused, false, vs)
}

func (c *Controller) recordAs(stamp time.Duration, refused, gains bool, vs []float64) {
	j := c.journal
	if j == nil {
		return
	}
	j.mu.Lock()
	if j.n == len(j.slots) {
		j.head = (j.head + 1) % len(j.slots)
		j.n--
		j.dropped++
	}
	r := &j.slots[(j.head+j.n)%len(j.slots)]
	j.n++
	r.Controller, r.Stamp, r.Refused, r.Gains = c.index, stamp, refused, gains
	r.Values = r.Values[:min(len(vs), cap(r.Values))]
	copy(r.Values, vs)
	if len(vs) == 0 {
		r.Values = append(r.Values[:0], math.NaN())
	}
	j.mu.Unlock()
}
