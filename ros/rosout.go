package ros

import (
	"fmt"
	"strings"
	"sync"
	"time"

	goroslib "github.com/bluenviron/goroslib/v2"

	"github.com/frcd/frcd/internal/ratelimit"
)

// Rosout: the bridge's messages (Options.Logf) also go to /rosout from
// the node, at their level: INFO for connection news, ERROR for the
// master's shutdown, WARN for the rest (refused commands, wrong types,
// services refused). At most rosoutBurst at once and rosoutRate a second
// after that; the rest are counted and the count sent with the next one
// that passes. goroslib's own errors (a connection it refuses) reach
// /rosout too, from the same node.
const (
	rosoutRate  = 10.0 // messages a second
	rosoutBurst = 20.0
)

// rosout is the /rosout side of the bridge's log. Messages go to the
// node through a queue and a goroutine of their own: goroslib's /rosout
// publisher blocks its writers while it is busy (and for good if it logs
// an error of its own), and the bridge must never wait on it.
type rosout struct {
	mu    sync.Mutex
	queue chan rosoutMsg // the session's, nil between sessions
	limit ratelimit.Limiter
	clock func() time.Duration
	sent  uint64 // messages sent to /rosout
	// min is the least level sent (set_logger_level); 0: INFO.
	min goroslib.LogLevel
}

// level is the least level sent to /rosout.
func (r *rosout) level() goroslib.LogLevel {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.min == 0 {
		return goroslib.LogLevelInfo
	}
	return r.min
}

func (r *rosout) setLevel(l goroslib.LogLevel) {
	r.mu.Lock()
	r.min = l
	r.mu.Unlock()
}

// infoPrefixes are the messages logged at INFO.
var infoPrefixes = []string{"ros: registered with", "ros: no master at", "ros master: restored"}

func levelOf(msg string) goroslib.LogLevel {
	if strings.Contains(msg, ErrShutdown.Error()) {
		return goroslib.LogLevelError
	}
	for _, p := range infoPrefixes {
		if strings.HasPrefix(msg, p) {
			return goroslib.LogLevelInfo
		}
	}
	return goroslib.LogLevelWarn
}

type rosoutMsg struct {
	level goroslib.LogLevel
	text  string
}

// rosoutQueue is how many messages wait for the node at most; more are
// dropped and counted.
const rosoutQueue = 64

// setNode starts writing to n's /rosout; nil stops (before n closes,
// which frees a writer stuck in it).
func (r *rosout) setNode(n *goroslib.Node) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.queue != nil {
		close(r.queue)
		r.queue = nil
	}
	if n == nil {
		return
	}
	q := make(chan rosoutMsg, rosoutQueue)
	r.queue = q
	go func() {
		for m := range q {
			n.Log(m.level, "%s", m.text)
		}
	}()
}

// log sends msg to /rosout if a session is up and the rate allows.
func (r *rosout) log(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	level := levelOf(msg)
	if r.queue == nil || r.min != 0 && level < r.min {
		return
	}
	ok, dropped := r.admit(r.clock())
	if !ok {
		return
	}
	if dropped > 0 {
		msg = fmt.Sprintf("%s (and %d more messages not sent to /rosout)", msg, dropped)
	}
	select {
	case r.queue <- rosoutMsg{level, msg}:
	default:
		r.limit.Hold() // the node is not taking them: told with the next
	}
}

// admit takes a token at time now: ok to send, with the count of the
// messages dropped since the last one sent. r.mu held.
func (r *rosout) admit(now time.Duration) (ok bool, dropped uint64) {
	if r.limit.Rate == 0 {
		r.limit = ratelimit.Limiter{Rate: rosoutRate, Burst: rosoutBurst}
	}
	ok, dropped = r.limit.Allow(now)
	if ok {
		r.sent++
	}
	return ok, dropped
}

// teeLog is Options.Logf that also sends each message to /rosout.
func (b *Bridge) teeLog(logf func(string, ...any)) func(string, ...any) {
	return func(format string, args ...any) {
		logf(format, args...)
		b.out.log(fmt.Sprintf(format, args...))
	}
}
