// Publishing a telemetry source: its topics announced, the values of those
// clients subscribe to encoded for their next sweep, and which topics are
// wanted told back to the source.

package nt4

import (
	"encoding/json"
	"time"

	"github.com/tinylib/msgp/msgp"

	"github.com/frcd/frcd/telemetry"
)

// Publish takes the topics of a telemetry source that changed since the
// last call: it announces new ones and keeps each one's latest value for
// the clients' next sweep. Only the values of topics a client subscribes
// to are encoded: the others wait, as the source's Seq, until one does
// (then the next Publish encodes the current value). It never waits on a
// client, and allocates only for topics it has not seen before.
func (s *Server) Publish(src *telemetry.Source) {
	s.mu.Lock()
	defer s.mu.Unlock()
	grew := len(s.seen) < len(src.Topics)
	for len(s.seen) < len(src.Topics) {
		t := src.Topics[len(s.seen)]
		var props map[string]json.RawMessage
		json.Unmarshal([]byte(t.Props), &props)
		st := s.addTopic(t.Name, t.Type, props, true)
		id := -1
		if st != nil {
			id, st.src = st.id, len(s.seen)
		}
		s.seen, s.srcIDs = append(s.seen, 0), append(s.srcIDs, id)
	}
	if grew {
		s.updateServerPub()
	}
	changed := false
	for i, t := range src.Topics {
		if t.Seq == s.seen[i] || s.srcIDs[i] < 0 {
			continue
		}
		st := s.topics[s.srcIDs[i]]
		if st.wants == 0 { // nobody reads it: its old value is no longer current
			st.value = st.value[:0]
			continue
		}
		s.seen[i] = t.Seq
		st.value = encodeValue(st.value[:0], int64(st.id), t)
		s.changed(st)
		changed = true
	}
	if changed {
		s.stats.Published++
	}
}

// unwant counts one reader less of t's values. A telemetry topic left
// with none drops its value: the source stops updating it, and the
// reader that comes next gets the value the source then has, encoded
// afresh, not this one. Under s.mu.
func (s *Server) unwant(t *topic) {
	if t.wants--; t.wants == 0 && t.src >= 0 {
		t.value, s.seen[t.src] = t.value[:0], 0
	}
}

// Interest tells the telemetry source which of its topics clients
// subscribe to the values of (telemetry.Source.Want), so that its next
// Sample works on those alone (and on every topic when the source keeps
// all, for the log); true when that changed since the last call (a
// Publish then sends the topics now wanted their current values, even
// with no new cycle). A lock and a comparison when nothing changed.
func (s *Server) Interest(src *telemetry.Source) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.interest == s.synced {
		return false
	}
	s.synced = s.interest
	for i, id := range s.srcIDs {
		src.Want(i, id >= 0 && s.topics[id] != nil && s.topics[id].wants > 0)
	}
	return true
}

// changed marks t's new value (t.value) for the clients' next sweep and
// queues it for the clients that want every value. Under s.mu.
func (s *Server) changed(t *topic) {
	t.seq++
	if t.allSubs == 0 {
		return
	}
	for _, c := range s.clients {
		if t.id < len(c.all) && c.all[t.id] {
			c.appendAll(t.value)
		}
	}
}

// encodeValue appends the message [id, stamp, type, value] of a
// telemetry topic.
func encodeValue(b []byte, id int64, t *telemetry.Topic) []byte {
	b = appendHeader(b, id, max(int64(t.Stamp/time.Microsecond), 1), TypeID(t.Type))
	switch t.Kind {
	case telemetry.Bool:
		b = msgp.AppendBool(b, t.Bool)
	case telemetry.Double:
		b = msgp.AppendFloat64(b, t.Double)
	case telemetry.Int:
		b = msgp.AppendInt64(b, t.Int)
	case telemetry.String:
		b = msgp.AppendString(b, t.Str)
	case telemetry.Doubles:
		b = msgp.AppendArrayHeader(b, uint32(len(t.Doubles)))
		for _, v := range t.Doubles {
			b = msgp.AppendFloat64(b, v)
		}
	case telemetry.Strings:
		b = msgp.AppendArrayHeader(b, uint32(len(t.Strings)))
		for _, v := range t.Strings {
			b = msgp.AppendString(b, v)
		}
	default:
		b = msgp.AppendBytes(b, t.Raw)
	}
	return b
}
