package ros

import (
	"strings"

	goroslib "github.com/bluenviron/goroslib/v2"
	"github.com/bluenviron/goroslib/v2/pkg/msg"
)

// roscpp's logger services, which rqt_logger_level and rosconsole call on
// a node: ~get_loggers lists its loggers and their levels,
// ~set_logger_level sets one's (ros_comm clients/roscpp/srv GetLoggers.srv,
// SetLoggerLevel.srv, msg/Logger.msg; md5sums as Debian's
// python3-roscpp-msg has them, checked by TestLoggerTypes). frcd has one
// logger, RosoutLogger: the bridge's messages to /rosout, INFO and up by
// default; standard error keeps every message whatever its level.

// RosoutLogger is the name of the logger of the bridge's /rosout messages.
const RosoutLogger = "ros.frcd"

// The services' names, private to the node.
const (
	GetLoggersService     = "~get_loggers"
	SetLoggerLevelService = "~set_logger_level"
)

// Logger is roscpp/Logger.
type Logger struct {
	msg.Package `ros:"roscpp"`
	Name        string
	Level       string
}

// GetLoggersReq is the request of roscpp/GetLoggers.
type GetLoggersReq struct {
	msg.Package `ros:"roscpp"`
}

// GetLoggersRes is its response.
type GetLoggersRes struct {
	msg.Package `ros:"roscpp"`
	Loggers     []Logger
}

// GetLoggers is roscpp/GetLoggers.
type GetLoggers struct {
	msg.Package `ros:"roscpp"`
	GetLoggersReq
	GetLoggersRes
}

// SetLoggerLevelReq is the request of roscpp/SetLoggerLevel.
type SetLoggerLevelReq struct {
	msg.Package `ros:"roscpp"`
	Logger      string
	Level       string
}

// SetLoggerLevelRes is its (empty) response.
type SetLoggerLevelRes struct {
	msg.Package `ros:"roscpp"`
}

// SetLoggerLevel is roscpp/SetLoggerLevel.
type SetLoggerLevel struct {
	msg.Package `ros:"roscpp"`
	SetLoggerLevelReq
	SetLoggerLevelRes
}

// levelNames are roscpp's level names, as get_loggers gives them.
var levelNames = map[goroslib.LogLevel]string{
	goroslib.LogLevelDebug: "debug", goroslib.LogLevelInfo: "info", goroslib.LogLevelWarn: "warn",
	goroslib.LogLevelError: "error", goroslib.LogLevelFatal: "fatal",
}

func (b *Bridge) getLoggers(*GetLoggersReq) (*GetLoggersRes, bool) {
	return &GetLoggersRes{Loggers: []Logger{{Name: RosoutLogger, Level: levelNames[b.out.level()]}}}, true
}

// setLoggerLevel sets RosoutLogger's level; another logger or an
// unknown level fails the call (as roscpp answers false), and is logged.
func (b *Bridge) setLoggerLevel(req *SetLoggerLevelReq) (*SetLoggerLevelRes, bool) {
	if req.Logger != RosoutLogger {
		b.o.Logf("ros: set_logger_level: no logger %q (frcd has %s): refused", req.Logger, RosoutLogger)
		return nil, false
	}
	for l, name := range levelNames {
		if strings.EqualFold(req.Level, name) {
			b.out.setLevel(l)
			return &SetLoggerLevelRes{}, true
		}
	}
	b.o.Logf("ros: set_logger_level: no level %q (debug, info, warn, error, fatal): refused", req.Level)
	return nil, false
}
