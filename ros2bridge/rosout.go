package ros2bridge

import (
	"fmt"
	"strings"
	"sync"

	"github.com/frcd/frcd/internal/ratelimit"
	"github.com/frcd/frcd/ros2msg"
	"github.com/frcd/frcd/ros2node"
	"github.com/frcd/frcd/rtps"
)

// /rosout: the bridge's log lines (Options.Logf) also go to /rosout as
// rcl_interfaces/msg/Log from the node's logger (its name, namespace
// dots: "frcd"), with rcl's QoS for it: reliable, transient local, keep
// last 1000 (ros2/rcl rcl/include/rcl/logging_rosout.h,
// rcl_qos_profile_rosout_default; its 10 s lifespan is not sent: this
// library has no LIFESPAN), so `ros2 topic echo /rosout` started late
// still gets them. Levels as the ROS 1 bridge's /rosout: WARN for
// refusals and failures, INFO for the rest. At most rosoutBurst lines at
// once and rosoutRate a second after that; the rest are counted and the
// count sent with the next line that passes. Lines go through a queue to
// a goroutine of their own: a handler logging on the node's receiving
// goroutine never waits for a reader.
const (
	RosoutTopic = "/rosout"
	rosoutRate  = 10.0
	rosoutBurst = 20.0
	rosoutQueue = 64
)

var rosoutQoS = rtps.QoS{Reliability: rtps.Reliable, Durability: rtps.TransientLocal, History: rtps.KeepLast, Depth: 1000}

type rosout struct {
	mu     sync.Mutex
	limit  ratelimit.Limiter
	queue  chan ros2msg.Log
	done   chan struct{}
	closed bool
	name   string
}

// rosoutLevel is a line's level.
func rosoutLevel(line string) uint8 {
	for _, w := range []string{"refused", "fail", "panic", "error", "cannot"} {
		if strings.Contains(line, w) {
			return ros2msg.LogWarn
		}
	}
	return ros2msg.LogInfo
}

// setupRosout starts /rosout and tees Options.Logf into it.
func (b *Bridge) setupRosout() error {
	full, err := ros2node.Resolve(b.o.Node.Namespace, b.o.Node.Name, "~")
	if err != nil {
		return err
	}
	pub, err := b.node.Publisher(RosoutTopic, &ros2msg.Log{}, rosoutQoS)
	if err != nil {
		return err
	}
	r := &rosout{limit: ratelimit.Limiter{Rate: rosoutRate, Burst: rosoutBurst}, queue: make(chan ros2msg.Log, rosoutQueue),
		done: make(chan struct{}), name: strings.ReplaceAll(strings.TrimPrefix(full, "/"), "/", ".")}
	b.out = r
	go func() {
		defer close(r.done)
		for m := range r.queue {
			if pub.Publish(&m) != nil {
				b.publishErr.Add(1)
			}
		}
	}()
	logf := b.o.Logf
	b.o.Logf = func(format string, args ...any) {
		logf(format, args...)
		r.log(b, fmt.Sprintf(format, args...))
	}
	return nil
}

// log queues one line, if the rate allows.
func (r *rosout) log(b *Bridge, line string) {
	now := b.o.Clock()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return
	}
	ok, held := r.limit.Allow(now)
	if !ok {
		return
	}
	if held > 0 {
		line = fmt.Sprintf("%s (and %d more lines not sent to /rosout)", line, held)
	}
	m := ros2msg.Log{Stamp: ros2msg.TimeOf(b.o.Epoch.Add(now)), Level: rosoutLevel(line), Name: r.name, Msg: line, Function: "frcd"}
	select {
	case r.queue <- m:
	default:
		r.limit.Hold() // the publisher is behind: told with the next
	}
}

// stop ends the goroutine after the queued lines went out.
func (r *rosout) stop() {
	if r == nil {
		return
	}
	r.mu.Lock()
	if !r.closed {
		r.closed = true
		close(r.queue)
	}
	r.mu.Unlock()
	<-r.done
}
