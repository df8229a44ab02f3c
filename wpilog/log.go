package wpilog

import (
	"math"
	"time"

	"github.com/frcd/frcd/control"
	"github.com/frcd/frcd/telemetry"
)

// Log records a telemetry source and the commands into a Writer.
type Log struct {
	w      *Writer
	seen   []uint64 // per telemetry topic, the Seq last written
	ids    []uint32 // per telemetry topic, its entry id
	cmdIDs map[cmdKey]uint32
	prefix string
	buf    []byte
}

type cmdKey struct {
	ctl            *control.Controller
	refused, gains bool
}

// NewLog records into w; prefix roots the command entries
// (PREFIX/commands/CONTROLLER and .../refused).
func NewLog(w *Writer, prefix string) *Log {
	return &Log{w: w, cmdIDs: map[cmdKey]uint32{}, prefix: prefix}
}

// Writer is the log's writer.
func (l *Log) Writer() *Writer { return l.w }

// Record writes the topics that changed since the last call, starting
// entries for new ones.
func (l *Log) Record(src *telemetry.Source) {
	for len(l.ids) < len(src.Topics) {
		t := src.Topics[len(l.ids)]
		l.ids = append(l.ids, l.w.Start(t.Name, telemetry.LogType(t.Type), t.Props, us(t.Stamp)))
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
			for _, v := range t.Doubles {
				b = AppendDouble(b, v)
			}
		case telemetry.Strings:
			b = AppendStrings(b, t.Strings)
		default:
			b = append(b, t.Raw...)
		}
		l.buf = b
		l.w.Append(l.ids[i], us(t.Stamp), b)
	}
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
