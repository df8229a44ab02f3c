package wpilog

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Header is the file's magic, and Version its format version (1.0).
const (
	Header  = "WPILOG"
	Version = 0x0100
)

// Control record types.
const (
	ctlStart       = 0
	ctlFinish      = 1
	ctlSetMetadata = 2
)

// Writer writes one WPILOG file at a time in a directory, rotating to a
// new file past MaxBytes. It is not safe for concurrent use.
type Writer struct {
	o       WriterOptions
	f       *os.File
	bw      *bufio.Writer
	size    int64
	pre     int64 // the file's preamble: its header, and after a rotation every entry and its latest value
	total   int64 // bytes written to every file
	part    int
	path    string
	entries []entry // by id-1
	buf     []byte
	hdr     [1 + 4 + 4 + 8]byte // a record's header, kept here so that writing it does not allocate
	flushed time.Time
	err     error // the first write error: the writer stops then
}

type entry struct {
	name, typ, meta string
	last            []byte // the latest payload, rewritten at the head of a new file
	lastTS          int64
	has             bool
}

// WriterOptions configure a Writer.
type WriterOptions struct {
	// Dir is where files go; Base names them (Base.wpilog, Base_0002.wpilog...).
	Dir, Base string
	// Extra is the header's extra string.
	Extra string
	// MaxBytes starts a new file once one passes it; default 32 MiB.
	MaxBytes int64
	// MaxFiles keeps at most this many .wpilog files in Dir (the oldest
	// by name go); 0 means 10. With MaxBytes, they bound the disk used.
	MaxFiles int
	// FlushEvery is how often buffered records reach the disk (and are
	// synced); default one second.
	FlushEvery time.Duration
	// Now is the wall clock for flushing; default time.Now.
	Now func() time.Time
}

// Create opens the first file.
func Create(o WriterOptions) (*Writer, error) {
	if o.MaxBytes <= 0 {
		o.MaxBytes = 32 << 20
	}
	if o.MaxFiles <= 0 {
		o.MaxFiles = 10
	}
	if o.FlushEvery <= 0 {
		o.FlushEvery = time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Base == "" {
		o.Base = "frcd"
	}
	if err := os.MkdirAll(o.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("wpilog: %w", err)
	}
	w := &Writer{o: o}
	if err := w.open(); err != nil {
		return nil, err
	}
	return w, nil
}

// Path is the file being written.
func (w *Writer) Path() string { return w.path }

// Written counts the bytes written to every file so far.
func (w *Writer) Written() int64 { return w.total }

// Err is the first write error; the writer writes nothing after one.
func (w *Writer) Err() error { return w.err }

func (w *Writer) open() error {
	w.part++
	w.path = w.pathOf(w.o.Base)
	f, err := os.OpenFile(w.path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("wpilog: %w", err)
	}
	w.f, w.bw, w.size = f, bufio.NewWriterSize(f, 64<<10), 0
	w.flushed = w.o.Now()
	h := append([]byte(Header), 0, 0, 0, 0, 0, 0)
	binary.LittleEndian.PutUint16(h[6:], Version)
	binary.LittleEndian.PutUint32(h[8:], uint32(len(w.o.Extra)))
	w.write(append(h, w.o.Extra...))
	w.Flush() // a file is a valid log from its first moment
	w.pre = w.size
	w.prune()
	return w.err
}

// pathOf is the current part's file under the base name base.
func (w *Writer) pathOf(base string) string {
	name := base + ".wpilog"
	if w.part > 1 {
		name = fmt.Sprintf("%s_%04d.wpilog", base, w.part)
	}
	return filepath.Join(w.o.Dir, name)
}

// prune removes the oldest .wpilog files beyond MaxFiles.
func (w *Writer) prune() {
	files, _ := filepath.Glob(filepath.Join(w.o.Dir, "*.wpilog"))
	slices.Sort(files)
	for len(files) > w.o.MaxFiles {
		if files[0] != w.path {
			os.Remove(files[0])
		}
		files = files[1:]
	}
}

func (w *Writer) write(b []byte) {
	if w.err != nil {
		return
	}
	n, err := w.bw.Write(b)
	w.size += int64(n)
	w.total += int64(n)
	if err != nil {
		w.err = fmt.Errorf("wpilog: %s: %w", w.path, err)
	}
}

// Start starts an entry and returns its id (from 1).
func (w *Writer) Start(name, typ, meta string, ts int64) uint32 {
	w.entries = append(w.entries, entry{name: name, typ: typ, meta: meta})
	id := uint32(len(w.entries))
	w.startRecord(id, ts)
	return id
}

func (w *Writer) startRecord(id uint32, ts int64) {
	e := &w.entries[id-1]
	p := w.buf[:0]
	p = append(p, ctlStart)
	p = binary.LittleEndian.AppendUint32(p, id)
	for _, s := range []string{e.name, e.typ, e.meta} {
		p = binary.LittleEndian.AppendUint32(p, uint32(len(s)))
		p = append(p, s...)
	}
	w.buf = p
	w.record(0, ts, p)
}

// SetMetadata replaces an entry's metadata.
func (w *Writer) SetMetadata(id uint32, meta string, ts int64) {
	if id == 0 || int(id) > len(w.entries) {
		return
	}
	w.entries[id-1].meta = meta
	p := append(w.buf[:0], ctlSetMetadata)
	p = binary.LittleEndian.AppendUint32(p, id)
	p = binary.LittleEndian.AppendUint32(p, uint32(len(meta)))
	w.buf = append(p, meta...)
	w.record(0, ts, w.buf)
}

// Finish ends an entry.
func (w *Writer) Finish(id uint32, ts int64) {
	p := append(w.buf[:0], ctlFinish)
	w.buf = binary.LittleEndian.AppendUint32(p, id)
	w.record(0, ts, w.buf)
}

// width is how many bytes v needs (1 to max).
func width(v uint64, most int) int {
	n := 1
	for v >>= 8; v != 0 && n < most; v >>= 8 {
		n++
	}
	return n
}

// record writes one record's header and payload.
func (w *Writer) record(id uint32, ts int64, payload []byte) {
	h := &w.hdr
	uts := uint64(max(ts, 0))
	iw, sw, tw := width(uint64(id), 4), width(uint64(len(payload)), 4), width(uts, 8)
	h[0] = byte(iw-1) | byte(sw-1)<<2 | byte(tw-1)<<4
	n := 1
	var le [8]byte
	binary.LittleEndian.PutUint64(le[:], uint64(id))
	n += copy(h[n:], le[:iw])
	binary.LittleEndian.PutUint64(le[:], uint64(len(payload)))
	n += copy(h[n:], le[:sw])
	binary.LittleEndian.PutUint64(le[:], uts)
	n += copy(h[n:], le[:tw])
	w.write(h[:n])
	w.write(payload)
}

// Append writes a data record of an entry, and remembers it as the
// entry's latest value (written again at the head of the next file).
func (w *Writer) Append(id uint32, ts int64, payload []byte) {
	if id == 0 || int(id) > len(w.entries) || w.err != nil {
		return
	}
	if w.full(len(payload)) {
		w.rotate(ts)
	}
	e := &w.entries[id-1]
	e.last, e.lastTS, e.has = append(e.last[:0], payload...), ts, true
	w.record(id, ts, payload)
	if w.o.Now().Sub(w.flushed) >= w.o.FlushEvery {
		w.Flush()
	}
}

// full says whether a record of n bytes would take the file past
// MaxBytes. The preamble counts against it up to half of it only: a
// preamble near or past MaxBytes (a small cap, many entries) would
// otherwise start a new file at every record. A file thus passes
// MaxBytes by its preamble at most.
func (w *Writer) full(n int) bool {
	room := w.o.MaxBytes - min(w.pre, w.o.MaxBytes/2)
	return w.size-w.pre+int64(n)+17 > room && w.size > w.pre
}

// rotate closes the file and starts the next one with every entry and
// its latest value.
func (w *Writer) rotate(ts int64) {
	w.closeFile()
	if w.err != nil {
		return
	}
	if w.err = w.open(); w.err != nil {
		return
	}
	for i := range w.entries {
		w.startRecord(uint32(i+1), ts)
		if e := &w.entries[i]; e.has {
			w.record(uint32(i+1), e.lastTS, e.last)
		}
	}
	w.pre = w.size
}

// Flush writes what is buffered and syncs the file.
func (w *Writer) Flush() error {
	w.flushed = w.o.Now()
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		w.err = fmt.Errorf("wpilog: %s: %w", w.path, err)
		return w.err
	}
	if err := w.f.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		w.err = fmt.Errorf("wpilog: %s: sync: %w", w.path, err)
	}
	return w.err
}

func (w *Writer) closeFile() {
	w.Flush()
	if err := w.f.Close(); err != nil && w.err == nil {
		w.err = fmt.Errorf("wpilog: %s: %w", w.path, err)
	}
}

// Close flushes and closes the file.
func (w *Writer) Close() error {
	w.closeFile()
	return w.err
}

// Payload encoders, appending to b.

// AppendDouble appends a double's payload.
func AppendDouble(b []byte, v float64) []byte {
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
}

// AppendInt64 appends an int64's payload.
func AppendInt64(b []byte, v int64) []byte { return binary.LittleEndian.AppendUint64(b, uint64(v)) }

// AppendBool appends a boolean's payload.
func AppendBool(b []byte, v bool) []byte {
	if v {
		return append(b, 1)
	}
	return append(b, 0)
}

// AppendStrings appends a string[]'s payload: a count, then each string's
// length and bytes.
func AppendStrings(b []byte, vs []string) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(vs)))
	for _, s := range vs {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(s)))
		b = append(b, s...)
	}
	return b
}

// FileBase names a run's file by its start time (UTC), then the parts
// given (the event and the match, when the Driver Station reported them),
// each kept to letters and digits, the empty ones left out:
// frcd_20260314_153000[_2026ctr_Q12].
func FileBase(start time.Time, parts ...string) string {
	b := "frcd_" + start.UTC().Format("20060102_150405")
	for _, p := range parts {
		if p = strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, p); p != "" {
			b += "_" + p
		}
	}
	return b
}

// Rename gives the files from now on, and the one being written, the
// base name base (a match became known after the run began). The next
// parts keep the current numbering. Nothing changes on an error.
func (w *Writer) Rename(base string) error {
	if base == w.o.Base {
		return nil
	}
	to := w.pathOf(base)
	if _, err := os.Lstat(to); err == nil {
		return fmt.Errorf("wpilog: rename %s: %s exists", filepath.Base(w.path), filepath.Base(to))
	}
	if err := os.Rename(w.path, to); err != nil {
		return fmt.Errorf("wpilog: %w", err)
	}
	w.o.Base, w.path = base, to
	return nil
}
