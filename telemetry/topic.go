package telemetry

import (
	"encoding/json"
	"math"
	"time"

	"github.com/frcd/frcd/control"
)

// Kind is how a topic's value is held.
type Kind uint8

// The kinds of value.
const (
	Bool    Kind = iota // Topic.Bool
	Double              // Topic.Double
	Int                 // Topic.Int
	String              // Topic.Str
	Doubles             // Topic.Doubles
	Strings             // Topic.Strings
	Raw                 // Topic.Raw: raw bytes, a struct or a struct schema
)

// Topic is one named value. Its fields after Kind are the value, of
// which only Kind's is used.
type Topic struct {
	// Name is the full name, starting with / (an NT4 topic name, a
	// WPILOG entry name).
	Name string
	// Type is the type as NT4 names it: boolean, double, int, string,
	// double[], string[], struct:Pose2d, struct:Pose3d[], structschema.
	Type string
	// Props are the topic's properties (NT4) and metadata (WPILOG), as
	// JSON: {"unit":"rad"}; "{}" when none.
	Props string
	Kind  Kind
	// LogAs and LogAsType, when set, are the WPILOG entry's name and
	// type instead of the mirror of the NT4 topic ("NT:"+Name, LogType
	// of Type, as WPILib's DataLogManager mirrors NetworkTables): the
	// joysticks, logged as WPILib's Driver Station logs them, a Doubles
	// topic as boolean[], float[] or int64[].
	LogAs, LogAsType string

	Bool    bool
	Double  float64
	Int     int64
	Str     string
	Doubles []float64
	Strings []string
	Raw     []byte

	// Stamp is the loop time of the value; Seq counts its changes, 0
	// before the first value.
	Stamp time.Duration
	Seq   uint64

	// wanted: a reader wants the value (Source.Want); need: the Source
	// keeps it current (wanted or Source.KeepAll).
	wanted, need bool
}

// LogType is the WPILOG type of an NT4 type: the same but for integers,
// which WPILOG calls int64.
func LogType(nt string) string {
	switch nt {
	case "int":
		return "int64"
	case "int[]":
		return "int64[]"
	}
	return nt
}

func props(kv ...string) string {
	if len(kv) == 0 {
		return "{}"
	}
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func (t *Topic) bump(now time.Duration) { t.Stamp, t.Seq = now, t.Seq+1 }

func (t *Topic) setBool(v bool, now time.Duration) {
	if t.Seq == 0 || t.Bool != v {
		t.Bool = v
		t.bump(now)
	}
}

func (t *Topic) setDouble(v float64, now time.Duration) {
	if t.Seq == 0 || math.Float64bits(t.Double) != math.Float64bits(v) {
		t.Double = v
		t.bump(now)
	}
}

// setDoubleEvery sets a sample that counts even when equal to the last.
func (t *Topic) setDoubleEvery(v float64, now time.Duration) {
	t.Double = v
	t.bump(now)
}

func (t *Topic) setInt(v int64, now time.Duration) {
	if t.Seq == 0 || t.Int != v {
		t.Int = v
		t.bump(now)
	}
}

func (t *Topic) setString(v string, now time.Duration) {
	if t.Seq == 0 || t.Str != v {
		t.Str = v
		t.bump(now)
	}
}

// setDoubles copies vs into the topic's slice (sized at creation).
func (t *Topic) setDoubles(vs []float64, now time.Duration) {
	same := t.Seq != 0 && len(vs) == len(t.Doubles)
	for i := 0; same && i < len(vs); i++ {
		same = math.Float64bits(vs[i]) == math.Float64bits(t.Doubles[i])
	}
	if !same {
		t.Doubles = append(t.Doubles[:0], vs...)
		t.bump(now)
	}
}

func (t *Topic) setStrings(vs []string, now time.Duration) {
	same := t.Seq != 0 && len(vs) == len(t.Strings)
	for i := 0; same && i < len(vs); i++ {
		same = vs[i] == t.Strings[i]
	}
	if !same {
		t.Strings = append(t.Strings[:0], vs...)
		t.bump(now)
	}
}

// setRaw marks Raw, already written in place, as changed when it differs
// from old.
func (t *Topic) setRaw(old []byte, now time.Duration) {
	if t.Seq == 0 || string(old) != string(t.Raw) {
		t.bump(now)
	}
}

// CommandType is the type of a controller's commands, on NT4 and in the
// WPILOG alike: boolean for a solenoid, int for a double solenoid or a
// relay (-1, 0, 1), double[] for a group and a drive base's twist
// ({vx, vy, wz}), double for the rest.
func CommandType(c *control.Controller) string {
	switch c.Takes() {
	case control.Bool:
		return "boolean"
	case control.Int8:
		return "int"
	case control.Float64Array, control.Twist: // a twist is {vx, vy, wz}, as ntCommand takes it
		return "double[]"
	}
	return "double"
}
