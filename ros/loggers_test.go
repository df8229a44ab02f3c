package ros

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	goroslib "github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msgs/std_msgs"
)

// set_logger_level sets the least level of the bridge's /rosout
// messages; get_loggers reports it; unknown loggers and levels fail.
func TestLoggerLevel(t *testing.T) {
	var logged []string
	b := &Bridge{o: Options{Logf: func(f string, a ...any) { logged = append(logged, f) }}}
	if res, _ := b.getLoggers(nil); len(res.Loggers) != 1 || res.Loggers[0] != (Logger{Name: RosoutLogger, Level: "info"}) {
		t.Errorf("get_loggers: %+v", res)
	}
	if _, ok := b.setLoggerLevel(&SetLoggerLevelReq{Logger: RosoutLogger, Level: "ERROR"}); !ok || b.out.level() != goroslib.LogLevelError {
		t.Errorf("set ERROR: %v, level %v", ok, b.out.level())
	}
	if res, _ := b.getLoggers(nil); res.Loggers[0].Level != "error" {
		t.Errorf("get_loggers after set: %+v", res)
	}
	for _, req := range []SetLoggerLevelReq{{Logger: "ros.roscpp", Level: "info"}, {Logger: RosoutLogger, Level: "loud"}} {
		if _, ok := b.setLoggerLevel(&req); ok {
			t.Errorf("%+v accepted", req)
		}
	}
	if len(logged) != 2 || b.out.level() != goroslib.LogLevelError {
		t.Errorf("refusals logged %q, level %v", logged, b.out.level())
	}
	// A WARN (a refused command) no longer reaches /rosout; an ERROR does.
	b.out.clock = func() time.Duration { return 0 }
	q := make(chan rosoutMsg, 4)
	b.out.queue = q
	b.out.log("ros: /x/command refused: NaN")
	b.out.log(ErrShutdown.Error() + ": stopping")
	if len(q) != 1 || (<-q).level != goroslib.LogLevelError {
		t.Errorf("at ERROR: %d messages queued, want the shutdown alone", len(q))
	}
}

// Refused commands from ROS are logged (so on /rosout at WARN): 5 at
// once, then one a second per controller, with the count of the others.
func TestRefusedCommandsLogged(t *testing.T) {
	l, _, _ := testLoop(t, testYAML)
	var logged []string
	now := time.Duration(0)
	b := &Bridge{o: Options{Clock: func() time.Duration { return now }, Logf: func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }}}
	cb := b.commandCallback(l.Controller("arm_v")).(func(*std_msgs.Float64))
	for range 150 {
		cb(&std_msgs.Float64{Data: math.NaN()})
	}
	if len(logged) != 5 || !strings.Contains(logged[0], "/arm_v/command refused") || levelOf(logged[0]) != goroslib.LogLevelWarn {
		t.Fatalf("150 refusals at once logged %d lines: %q", len(logged), logged)
	}
	now = time.Second
	cb(&std_msgs.Float64{Data: 1e300})
	if len(logged) != 6 || !strings.Contains(logged[5], "(and 145 more refused)") {
		t.Errorf("a second later: %q", logged[5:])
	}
	cb(&std_msgs.Float64{Data: 1})
	if len(logged) != 6 || b.commands.Load() != 1 {
		t.Errorf("an accepted command: logged %d, commands %d", len(logged), b.commands.Load())
	}
}
