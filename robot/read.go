package robot

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// Size limits of the files frcd reads. A robot's files are a few hundred
// kilobytes at most; the limits leave room for generated robots of 100,000
// joints, and keep a wrong path (/dev/zero, a disk image) from being read
// whole.
const (
	MaxURDFBytes     = 32 << 20 // the URDF: 32 MiB
	MaxYAMLBytes     = 8 << 20  // the YAML device list: 8 MiB
	MaxScenarioBytes = 8 << 20  // a sim scenario (JSON): 8 MiB
)

// ErrTooLarge is wrapped by ReadFile's error when a file is over its limit.
var ErrTooLarge = errors.New("file too large")

// ReadFile reads at most limit bytes of a file. A longer file (or an
// endless one such as /dev/zero) is an error naming the limit, after
// reading no more than limit+1 bytes.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	if size > limit {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: %s is over the %s limit", ErrTooLarge, byteSize(size), byteSize(limit))}
	}
	buf := make([]byte, 0, min(size, limit)+1)
	data, err := readAll(io.LimitReader(f, limit+1), buf)
	if err != nil {
		return nil, &os.PathError{Op: "read", Path: path, Err: err}
	}
	if int64(len(data)) > limit {
		return nil, &os.PathError{Op: "read", Path: path, Err: fmt.Errorf("%w: more than the %s limit", ErrTooLarge, byteSize(limit))}
	}
	return data, nil
}

// readAll is io.ReadAll into buf.
func readAll(r io.Reader, buf []byte) ([]byte, error) {
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// byteSize writes n bytes in the largest binary unit that keeps it whole
// enough to read ("32 MiB", "1.5 KiB", "12 bytes").
func byteSize(n int64) string {
	switch {
	case n >= 1<<20:
		return trim(float64(n)/(1<<20)) + " MiB"
	case n >= 1<<10:
		return trim(float64(n)/(1<<10)) + " KiB"
	}
	return fmt.Sprintf("%d bytes", n)
}

func trim(f float64) string {
	s := fmt.Sprintf("%.1f", f)
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		return s[:len(s)-2]
	}
	return s
}
