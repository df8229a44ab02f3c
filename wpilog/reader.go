package wpilog

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Limits of the reader.
const (
	MaxPayload = 16 << 20 // one record's payload, bytes
	maxEntries = 1 << 20  // entries started in one file
	maxExtra   = 1 << 20  // the header's extra string
)

// Record is one record as read: Entry 0 is a control record.
type Record struct {
	Entry   uint32
	Time    int64 // µs
	Payload []byte
}

// Reader reads a WPILOG stream record by record.
type Reader struct {
	r     *bufio.Reader
	Extra string
	buf   []byte
	off   int64
}

// NewReader checks the header and returns a reader positioned at the
// first record.
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReader(r)
	var h [12]byte
	n, err := io.ReadFull(br, h[:])
	if !strings.HasPrefix(Header, string(h[:min(n, 6)])) || n == 0 && err == io.EOF {
		return nil, errors.New("wpilog: not a WPILOG file (no WPILOG header)")
	}
	if err != nil {
		return nil, fmt.Errorf("wpilog: header: truncated: %w", err)
	}
	if v := binary.LittleEndian.Uint16(h[6:]); v>>8 != 1 {
		return nil, fmt.Errorf("wpilog: version %d.%d: only 1.x is read", v>>8, v&0xff)
	}
	size := binary.LittleEndian.Uint32(h[8:])
	if size > maxExtra {
		return nil, fmt.Errorf("wpilog: extra header of %d bytes is too long", size)
	}
	extra := make([]byte, size)
	if _, err := io.ReadFull(br, extra); err != nil {
		return nil, fmt.Errorf("wpilog: extra header: %w", err)
	}
	return &Reader{r: br, Extra: string(extra), off: 12 + int64(size)}, nil
}

// Next reads the next record; io.EOF at a clean end. Payload is valid
// until the next call.
func (rd *Reader) Next() (Record, error) {
	bits, err := rd.r.ReadByte()
	if err != nil {
		return Record{}, err // io.EOF: the end
	}
	at := rd.off
	iw, sw, tw := int(bits&3)+1, int(bits>>2&3)+1, int(bits>>4&7)+1
	var h [16]byte
	if _, err := io.ReadFull(rd.r, h[:iw+sw+tw]); err != nil {
		return Record{}, fmt.Errorf("wpilog: record at byte %d: truncated header", at)
	}
	le := func(b []byte) uint64 {
		var v uint64
		for i := len(b) - 1; i >= 0; i-- {
			v = v<<8 | uint64(b[i])
		}
		return v
	}
	rec := Record{Entry: uint32(le(h[:iw])), Time: int64(le(h[iw+sw : iw+sw+tw]))}
	size := le(h[iw : iw+sw])
	if size > MaxPayload {
		return Record{}, fmt.Errorf("wpilog: record at byte %d: payload of %d bytes is over the limit", at, size)
	}
	// grow the buffer as the bytes arrive, not as the header claims
	rd.buf = rd.buf[:0]
	for uint64(len(rd.buf)) < size {
		chunk := min(size-uint64(len(rd.buf)), 64<<10)
		n := len(rd.buf)
		rd.buf = append(rd.buf, make([]byte, chunk)...)
		if _, err := io.ReadFull(rd.r, rd.buf[n:]); err != nil {
			return Record{}, fmt.Errorf("wpilog: record at byte %d: truncated payload", at)
		}
	}
	rec.Payload = rd.buf[:size]
	rd.off += int64(1 + iw + sw + tw + int(size))
	return rec, nil
}

// Start is a Start control record's content.
type Start struct {
	Entry      uint32
	Name, Type string
	Metadata   string
}

// ParseControl reads a control record: its type, and for Start the
// entry, for Finish and Set Metadata the entry (and metadata).
func ParseControl(p []byte) (kind byte, s Start, err error) {
	if len(p) < 5 {
		return 0, s, errors.New("wpilog: control record too short")
	}
	kind, s.Entry = p[0], binary.LittleEndian.Uint32(p[1:])
	rest := p[5:]
	str := func() (string, error) {
		if len(rest) < 4 {
			return "", errors.New("wpilog: control record: truncated string")
		}
		n := binary.LittleEndian.Uint32(rest)
		if uint64(n) > uint64(len(rest)-4) {
			return "", errors.New("wpilog: control record: string longer than the record")
		}
		v := string(rest[4 : 4+n])
		rest = rest[4+n:]
		return v, nil
	}
	switch kind {
	case ctlStart:
		for _, f := range []*string{&s.Name, &s.Type, &s.Metadata} {
			if *f, err = str(); err != nil {
				return kind, s, err
			}
		}
	case ctlFinish:
	case ctlSetMetadata:
		s.Metadata, err = str()
	default:
		return kind, s, fmt.Errorf("wpilog: unknown control record type %d", kind)
	}
	return kind, s, err
}

// EntrySummary is what a file holds of one entry.
type EntrySummary struct {
	Start
	Records     int
	First, Last int64 // µs
	Finished    bool
}

// Summary is what a file holds.
type Summary struct {
	Extra       string
	Records     int
	Bytes       int64
	First, Last int64
	Entries     []*EntrySummary // in start order
	Problems    []string        // records that break the format (the reading goes on where it can)
}

// Summarize reads a whole stream.
func Summarize(r io.Reader) (*Summary, error) {
	rd, err := NewReader(r)
	if err != nil {
		return nil, err
	}
	s := &Summary{Extra: rd.Extra, First: -1}
	live := map[uint32]*EntrySummary{}
	problem := func(format string, args ...any) {
		if len(s.Problems) < 100 {
			s.Problems = append(s.Problems, fmt.Sprintf(format, args...))
		}
	}
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			problem("%v", err)
			break
		}
		s.Records++
		if s.First < 0 || rec.Time < s.First {
			s.First = rec.Time
		}
		s.Last = max(s.Last, rec.Time)
		if rec.Entry == 0 {
			kind, st, err := ParseControl(rec.Payload)
			if err != nil {
				problem("record %d: %v", s.Records, err)
				continue
			}
			switch kind {
			case ctlStart:
				if len(s.Entries) >= maxEntries {
					problem("record %d: more than %d entries", s.Records, maxEntries)
					continue
				}
				e := &EntrySummary{Start: st, First: -1}
				live[st.Entry] = e
				s.Entries = append(s.Entries, e)
			case ctlFinish:
				if e := live[st.Entry]; e != nil {
					e.Finished = true
					delete(live, st.Entry)
				}
			case ctlSetMetadata:
				if e := live[st.Entry]; e != nil {
					e.Metadata = st.Metadata
				}
			}
			continue
		}
		e := live[rec.Entry]
		if e == nil {
			problem("record %d: entry %d was never started", s.Records, rec.Entry)
			continue
		}
		e.Records++
		if e.First < 0 {
			e.First = rec.Time
		}
		e.Last = rec.Time
	}
	s.Bytes = rd.off
	if s.First < 0 {
		s.First = 0
	}
	return s, nil
}

// The layouts of a file's entries Layout tells apart.
const (
	LayoutWPILib = "WPILib's DataLogManager (NetworkTables under NT:, the Driver Station under DS:)"
	LayoutBare   = "frcd's first (bare topic names, joysticks as double[] under PREFIX/ds/)"
)

// enabledKeys are where a file says whether the robot was enabled, in
// the order looked up: WPILib's layout, then frcd's first.
var enabledKeys = []string{"DS:enabled", "NT:/FMSInfo/FMSControlData", "/FMSInfo/FMSControlData", "/frcd/ds/enabled"}

// Layout tells the entries' layout: LayoutWPILib when one is under NT:
// or DS:, LayoutBare when one is a bare topic name (/...), "" when none
// is either (another program's file).
func (s *Summary) Layout() string {
	bare := false
	for _, e := range s.Entries {
		if strings.HasPrefix(e.Name, "NT:") || strings.HasPrefix(e.Name, "DS:") {
			return LayoutWPILib
		}
		bare = bare || strings.HasPrefix(e.Name, "/")
	}
	if bare {
		return LayoutBare
	}
	return ""
}

// Enabled is the entry that says whether the robot was enabled, in
// either layout; nil when none does.
func (s *Summary) Enabled() *EntrySummary {
	for _, k := range enabledKeys {
		for _, e := range s.Entries {
			if e.Name == k {
				return e
			}
		}
	}
	return nil
}

// Write prints a summary as text.
func (s *Summary) Write(w io.Writer) {
	fmt.Fprintf(w, "WPILOG 1.0, extra header %q\n", s.Extra)
	fmt.Fprintf(w, "%d records, %d bytes, %.3f s to %.3f s\n", s.Records, s.Bytes, float64(s.First)/1e6, float64(s.Last)/1e6)
	if l := s.Layout(); l != "" {
		fmt.Fprintf(w, "layout: %s\n", l)
	}
	if e := s.Enabled(); e != nil {
		fmt.Fprintf(w, "enabled: %s, %d records\n", e.Name, e.Records)
	}
	es := append([]*EntrySummary(nil), s.Entries...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Name < es[j].Name })
	width := 0
	for _, e := range es {
		width = max(width, len(e.Name))
	}
	fmt.Fprintf(w, "%d entries:\n", len(es))
	for _, e := range es {
		meta := ""
		if e.Metadata != "" && e.Metadata != "{}" {
			meta = " " + e.Metadata
		}
		fmt.Fprintf(w, "  %-*s %-16s %7d records%s\n", width, e.Name, e.Type, e.Records, meta)
	}
	for _, p := range s.Problems {
		fmt.Fprintf(w, "problem: %s\n", strings.TrimPrefix(p, "wpilog: "))
	}
}
