package ros

import (
	"testing"
	"time"

	goroslib "github.com/bluenviron/goroslib/v2"
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
