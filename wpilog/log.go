package wpilog

import (
	"encoding/binary"
	"math"
	"sync"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/hal"
	"github.com/frcd/frcd/telemetry"
)

// The entries of WPILib's DataLogManager (docs/dashboards.md cites the
// sources): every NetworkTables topic mirrored under "NT:" with metadata
// {"properties":PROPS,"source":"NT"} (ntcore's LocalDataLoggerEntry),
// the Driver Station's control word as four booleans (DriverStation.cpp's
// DataLogSender, WPILib 2026), the wall clock as systemTime and the
// program's messages.
const (
	ntPrefix     = "NT:"
	systemTime   = "systemTime"
	systemMeta   = `{"source":"DataLogManager","format":"time_t_us"}`
	messages     = "messages"
	systemPeriod = 5 * time.Second // DataLogManager: every 250 DS packets
	maxPending   = 256             // messages waiting for the next Record
)

// dsNames are DataLogSender's entries, in dsBits' order.
var dsNames = [4]string{"DS:enabled", "DS:autonomous", "DS:test", "DS:estop"}

func dsBits(sn *control.Snapshot) [4]bool {
	return [4]bool{sn.Enabled, sn.DS.Mode == hal.Autonomous, sn.DS.Mode == hal.Test, sn.DS.EStop}
}

// Log records a telemetry source and the commands into a Writer.
type Log struct {
	w      *Writer
	seen   []uint64 // per telemetry topic, the Seq last written
	ids    []uint32 // per telemetry topic, its entry id
	cmdIDs map[cmdKey]uint32
	prefix string
	buf    []byte

	wall    func() time.Time
	sysID   uint32
	lastSys time.Duration
	dsIDs   [4]uint32 // 0 until the first Record
	ds      [4]bool

	mu      sync.Mutex // guards pending and dropped
	pending []string
	dropped int
	msgID   uint32
}

type cmdKey struct {
	ctl            *control.Controller
	refused, gains bool
}

// NewLog records into w; prefix roots the command entries
// (PREFIX/commands/CONTROLLER and .../refused); wall, the wall clock,
// gives systemTime (none when nil).
func NewLog(w *Writer, prefix string, wall func() time.Time) *Log {
	return &Log{w: w, cmdIDs: map[cmdKey]uint32{}, prefix: prefix, wall: wall}
}

// Message queues a line for the "messages" entry (what WPILib's
// DataLogManager.log writes), written by the next Record. Safe from any
// goroutine; past maxPending lines waiting, lines are dropped and
// counted.
func (l *Log) Message(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.pending) >= maxPending {
		l.dropped++
		return
	}
	l.pending = append(l.pending, s)
}

// Dropped counts the messages dropped.
func (l *Log) Dropped() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.dropped
}

// Writer is the log's writer.
func (l *Log) Writer() *Writer { return l.w }

// Record writes the topics that changed since the last call, starting
// entries for new ones, each under "NT:" as WPILib mirrors NetworkTables
// (or its Topic.LogAs); then the Driver Station's DS: entries that
// changed, systemTime when due and the messages queued.
func (l *Log) Record(src *telemetry.Source) {
	for len(l.ids) < len(src.Topics) {
		t := src.Topics[len(l.ids)]
		name, typ, meta := ntPrefix+t.Name, telemetry.LogType(t.Type), `{"properties":`+t.Props+`,"source":"NT"}`
		if t.LogAs != "" {
			name, typ, meta = t.LogAs, t.LogAsType, ""
		}
		l.ids = append(l.ids, l.w.Start(name, typ, meta, us(t.Stamp)))
		l.seen = append(l.seen, 0)
	}
	for i, t := range src.Topics {
		if t.Seq == l.seen[i] {
			continue
		}
		l.seen[i] = t.Seq
		b := l.buf[:0]
		switch t.Kind {
		case telemetry.Bool:
			b = AppendBool(b, t.Bool)
		case telemetry.Double:
			b = AppendDouble(b, t.Double)
		case telemetry.Int:
			b = AppendInt64(b, t.Int)
		case telemetry.String:
			b = append(b, t.Str...)
		case telemetry.Doubles:
			b = appendDoublesAs(b, t.Doubles, t.LogAsType)
		case telemetry.Strings:
			b = AppendStrings(b, t.Strings)
		default:
			b = append(b, t.Raw...)
		}
		l.buf = b
		l.w.Append(l.ids[i], us(t.Stamp), b)
	}
	if sn := src.Snapshot(); sn != nil {
		l.recordDS(sn)
	}
}

// recordDS writes the DS: entries that changed (all at the first call),
// systemTime when due and the queued messages, at the snapshot's time.
func (l *Log) recordDS(sn *control.Snapshot) {
	now := us(sn.Now)
	bits := dsBits(sn)
	first := l.dsIDs[0] == 0
	for i, name := range dsNames {
		if first {
			l.dsIDs[i] = l.w.Start(name, "boolean", "", now)
		}
		if first || bits[i] != l.ds[i] {
			l.buf = AppendBool(l.buf[:0], bits[i])
			l.w.Append(l.dsIDs[i], now, l.buf)
		}
	}
	l.ds = bits
	if l.wall != nil && (l.sysID == 0 || sn.Now-l.lastSys >= systemPeriod) {
		if l.sysID == 0 {
			l.sysID = l.w.Start(systemTime, "int64", systemMeta, now)
		}
		l.lastSys = sn.Now
		l.buf = AppendInt64(l.buf[:0], l.wall().UnixMicro())
		l.w.Append(l.sysID, now, l.buf)
	}
	l.mu.Lock()
	for _, m := range l.pending {
		if l.msgID == 0 {
			l.msgID = l.w.Start(messages, "string", "", now)
		}
		l.buf = append(l.buf[:0], m...)
		l.w.Append(l.msgID, now, l.buf)
	}
	clear(l.pending)
	l.pending = l.pending[:0]
	l.mu.Unlock()
}

// appendDoublesAs encodes vs as a WPILOG array of typ: boolean[] (one
// byte, not 0 true), float[], int64[], or double[] (any other).
func appendDoublesAs(b []byte, vs []float64, typ string) []byte {
	for _, v := range vs {
		switch typ {
		case "boolean[]":
			b = AppendBool(b, v != 0)
		case "float[]":
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
		case "int64[]":
			b = AppendInt64(b, int64(v))
		default:
			b = AppendDouble(b, v)
		}
	}
	return b
}

// Command writes one command a controller received: its value under
// PREFIX/commands/NAME, of the type NT4's command topic of the same name
// takes (telemetry.CommandType: double, boolean, int, double[] for a
// group), or PREFIX/commands/NAME/refused when refused (double[]: what
// was refused, NaN for a refusal without a value); a PID's gains (p, i,
// d, f) under PREFIX/commands/NAME/gains (and .../gains/refused). A command with no time of its own
// (a refused message type) takes now.
func (l *Log) Command(c *control.Controller, r *control.CommandRecord, now time.Duration) {
	k := cmdKey{c, r.Refused, r.Gains}
	typ := "double[]"
	if !r.Refused && !r.Gains {
		typ = telemetry.CommandType(c)
	}
	id, ok := l.cmdIDs[k]
	if !ok {
		name := l.prefix + "/commands/" + c.Name
		if r.Gains {
			name += "/gains"
		}
		if r.Refused {
			name += "/refused"
		}
		id = l.w.Start(name, telemetry.LogType(typ), `{"controller":"`+c.Name+`","type":"`+c.Type+`"}`, us(now))
		l.cmdIDs[k] = id
	}
	b := l.buf[:0]
	switch {
	case typ != "double[]" && len(r.Values) == 0:
		return // an accepted command has its value
	case typ == "double":
		b = AppendDouble(b, r.Values[0])
	case typ == "boolean":
		b = AppendBool(b, r.Values[0] != 0)
	case typ == "int":
		b = AppendInt64(b, int64(r.Values[0]))
	default:
		for _, v := range r.Values {
			b = AppendDouble(b, v)
		}
		if len(r.Values) == 0 {
			b = AppendDouble(b, math.NaN())
		}
	}
	l.buf = b
	ts := r.Stamp
	if ts < 0 {
		ts = now
	}
	l.w.Append(id, us(ts), b)
}

func us(d time.Duration) int64 { return max(int64(d/time.Microsecond), 0) }
