package master

import (
	"bytes"
	"fmt"
	"sort"
	"unicode/utf8"
)

// Limits of the parameter server, so that no client can make the master's
// memory or a call's work grow without bound (rosmaster has none).
const (
	// MaxParamBytes bounds everything the parameter server holds: names
	// and values, counted as in paramBytes.
	MaxParamBytes = 64 << 20
	// MaxNameDepth is the deepest parameter name the master stores: the
	// number of namespaces in a key such as /a/b/c (3).
	MaxNameDepth = 128
)

// entryOverhead is what paramBytes counts per value and per dictionary
// entry besides its bytes: about what Go spends on it.
const entryOverhead = 16

// paramBytes is the memory a parameter value is counted as holding.
func paramBytes(v any) int {
	switch v := v.(type) {
	case map[string]any:
		n := entryOverhead
		for k, e := range v {
			n += entryOverhead + len(k) + paramBytes(e)
		}
		return n
	case []any:
		n := entryOverhead
		for _, e := range v {
			n += paramBytes(e)
		}
		return n
	case string:
		return entryOverhead + len(v)
	case []byte:
		return entryOverhead + len(v)
	}
	return entryOverhead
}

// nameDepth counts the segments of a name without splitting it.
func nameDepth(name string) int {
	n, in := 0, false
	for i := 0; i < len(name); i++ {
		if name[i] == '/' {
			in = false
		} else if !in {
			in, n = true, n+1
		}
	}
	return n
}

// setDelta is how much paramSet(root, key, value) would change the
// parameter server's paramBytes: the new value and entries, less what it
// replaces. It changes nothing.
func setDelta(root map[string]any, key string, value any) int {
	parts := splitName(key)
	if len(parts) == 0 {
		return paramBytes(value) - paramBytes(root)
	}
	delta := 0
	d := root // nil once the path leaves the existing tree
	for i, ns := range parts {
		old, ok := d[ns] // a nil map reads as empty
		if !ok {
			delta += entryOverhead + len(ns)
		}
		if i == len(parts)-1 {
			if ok {
				delta -= paramBytes(old)
			}
			return delta + paramBytes(value)
		}
		sub, isDict := old.(map[string]any)
		if ok && !isDict {
			delta += entryOverhead - paramBytes(old) // a value replaced by an empty namespace
		} else if !ok {
			delta += entryOverhead // a new namespace
		}
		d = sub
	}
	return delta
}

// checkSet refuses a set that would take the parameter server past its
// limits; it returns the change of paramBytes the set makes.
func (m *Master) checkSet(key string, value any) (int, error) {
	if n := nameDepth(key); n > MaxNameDepth {
		return 0, fmt.Errorf("the name is %d namespaces deep, over the limit of %d", n, MaxNameDepth)
	}
	delta := setDelta(m.params, key, value)
	if m.paramBytes+delta > MaxParamBytes {
		return 0, fmt.Errorf("the parameter server would hold %d bytes, over its limit of %d MiB", m.paramBytes+delta, MaxParamBytes>>20)
	}
	return delta, nil
}

// paramNames lists the keys of all leaves (non-dictionary values), each
// dictionary's keys sorted. The names are built in one buffer and the walk
// keeps its own stack, so the work is linear in the tree's size however
// deep it is.
func paramNames(root map[string]any) []any {
	type frame struct {
		d    map[string]any
		keys []string
		next int // the next key of keys
		at   int // len(path) at this dictionary
	}
	names := []any{}
	path := []byte(sep)
	push := func(stack []frame, d map[string]any) []frame {
		keys := make([]string, 0, len(d))
		for k := range d {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return append(stack, frame{d: d, keys: keys, at: len(path)})
	}
	stack := push(nil, root)
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next == len(f.keys) {
			stack = stack[:len(stack)-1]
			continue
		}
		k := f.keys[f.next]
		f.next++
		path = append(path[:f.at], k...)
		if sub, ok := f.d[k].(map[string]any); ok {
			path = append(path, sep...)
			stack = push(stack, sub)
		} else {
			names = append(names, string(path))
		}
	}
	return names
}

// xmlText writes s as XML character data: invalid UTF-8 and characters XML
// 1.0 forbids (control characters other than tab, newline and carriage
// return; U+FFFE, U+FFFF) are written as U+FFFD, so that every reply is
// well-formed whatever bytes a request or a parameter carried.
func xmlText(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r >= 0x20 && r != utf8.RuneError && r != 0xFFFE && r != 0xFFFF) || r == '\t' || r == '\n' || r == '\r' || (r == utf8.RuneError && size == 3) {
			i += size
			continue
		}
		b.WriteString(s[last:i])
		b.WriteRune(utf8.RuneError)
		i += size
		last = i
	}
	b.WriteString(s[last:])
}
