package master

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"
)

// Limits of the master, so that no client can make its memory, its
// state file or a call's work grow without bound (rosmaster has none).
// Every size is counted in bytes of XML-RPC, as the master writes it
// (encodedLen): what a reply, and the state file, hold.
const (
	// MaxParamBytes bounds everything the parameter server holds: the
	// parameter tree as getParam("/") would return it.
	MaxParamBytes = 8 << 20
	// MaxGraphBytes bounds the registrations and the topics' types, as
	// the state file holds them.
	MaxGraphBytes = 4 << 20
	// MaxRegistrations bounds the registrations (publishers,
	// subscribers, services, parameter subscriptions) of all nodes, and
	// MaxNodeRegistrations those of one node.
	MaxRegistrations     = 10000
	MaxNodeRegistrations = 1000
	// MaxStateBytes is the largest state file the master writes and the
	// largest it reads: the parameters, the graph and the file's frame.
	// A change that would take the state past it is refused at its
	// request (MaxParamBytes, MaxGraphBytes), so whatever was written is
	// read back.
	MaxStateBytes = MaxParamBytes + MaxGraphBytes + stateFrameBytes
	// MaxReplyBytes is the largest reply the master sends: a call whose
	// reply would be larger (getParam of a subtree over it, the system
	// state of a huge graph) is answered with an error saying so, and
	// costs no more than counting up to the limit.
	MaxReplyBytes = MaxBodySize
	// MaxNameDepth is the deepest parameter name the master stores: the
	// number of namespaces in a key such as /a/b/c (3).
	MaxNameDepth = 128
)

// maxReplyValue is the largest value a reply may carry: MaxReplyBytes
// less the response's frame and a [code, message, value] triple's.
const maxReplyValue = MaxReplyBytes - replyFrame - 1024

// stateFrameBytes is what the state file holds besides the parameters,
// the registrations and the types: its envelope and fixed members.
const stateFrameBytes = 4 << 10

// XML-RPC's fixed text around each kind of value, as encodeValue writes it.
const (
	stringFrame = len("<value><string></string></value>")
	arrayFrame  = len("<value><array><data></data></array></value>")
	structFrame = len("<value><struct></struct></value>")
	memberFrame = len("<member><name></name></member>")
	base64Frame = len("<value><base64></base64></value>")
	doubleFrame = len("<value><double></double></value>")
	intFrame    = len("<value><int></int></value>")
	i8Frame     = len("<value><i8></i8></value>")
	boolBytes   = len("<value><boolean>0</boolean></value>")
	nilBytes    = len("<value><nil/></value>")
	// replyFrame is the methodResponse around a reply's value.
	replyFrame = len(`<?xml version="1.0"?>` + "\n<methodResponse><params><param></param></params></methodResponse>\n")
)

// paramBytes is what a parameter value counts towards MaxParamBytes: its
// XML-RPC encoding's length.
func paramBytes(v any) int { return encodedLen(v, math.MaxInt) }

// memberBytes is what one dictionary entry named k adds besides its value.
func memberBytes(k string) int { return memberFrame + escapedLen(k) }

// encodedLen is the length of v's XML-RPC encoding (encodeValue's), or
// some length over limit as soon as it passes limit: counting a value far
// over the limit costs no more than counting up to it. It allocates
// nothing for the types the master holds and replies with.
func encodedLen(v any, limit int) int {
	n := 0
	var walk func(v any) bool // false once past limit
	walk = func(v any) bool {
		switch v := v.(type) {
		case nil:
			n += nilBytes
		case bool:
			n += boolBytes
		case int:
			n += intLen(int64(v))
		case int64:
			n += intLen(v)
		case int32:
			n += intLen(int64(v))
		case float64:
			var b [32]byte
			n += doubleFrame + len(appendDouble(b[:0], v))
		case string:
			n += stringFrame
			if n+len(v) > limit { // escaping never shortens
				n += len(v)
				return false
			}
			n += escapedLen(v)
		case []byte:
			n += base64Frame + base64.StdEncoding.EncodedLen(len(v))
		case []any:
			n += arrayFrame
			for _, e := range v {
				if !walk(e) {
					return false
				}
			}
		case map[string]any:
			n += structFrame
			for k, e := range v {
				n += memberBytes(k)
				if !walk(e) {
					return false
				}
			}
		default: // rare (a handler's typed slice): encode it to count
			var b bytes.Buffer
			if encodeValue(&b, v, 0) != nil {
				n += nilBytes
			} else {
				n += b.Len()
			}
		}
		return n <= limit
	}
	walk(v)
	return n
}

func intLen(v int64) int {
	var b [24]byte
	if v >= math.MinInt32 && v <= math.MaxInt32 {
		return intFrame + len(strconv.AppendInt(b[:0], v, 10))
	}
	return i8Frame + len(strconv.AppendInt(b[:0], v, 10))
}

// appendDouble appends formatDouble's text without allocating.
func appendDouble(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "nan"...)
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	}
	return strconv.AppendFloat(b, f, 'f', -1, 64)
}

// escapedLen is the length escape writes for s.
func escapedLen(s string) int {
	n := 0
	for i := 0; i < len(s); {
		switch s[i] {
		case '&':
			n, i = n+len("&amp;"), i+1
			continue
		case '<', '>':
			n, i = n+len("&lt;"), i+1
			continue
		}
		if s[i] < utf8.RuneSelf {
			if s[i] >= 0x20 || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' {
				n++
			} else {
				n += utf8.RuneLen(utf8.RuneError)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r != utf8.RuneError && r != 0xFFFE && r != 0xFFFF) || size == 3 {
			n += size
		} else {
			n += utf8.RuneLen(utf8.RuneError)
		}
		i += size
	}
	return n
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
			delta += memberBytes(ns)
		}
		if i == len(parts)-1 {
			if ok {
				delta -= paramBytes(old)
			}
			return delta + paramBytes(value)
		}
		sub, isDict := old.(map[string]any)
		if ok && !isDict {
			delta += structFrame - paramBytes(old) // a value replaced by an empty namespace
		} else if !ok {
			delta += structFrame // a new namespace
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
		return 0, m.refuse(fmt.Errorf("the parameter server would hold %d bytes of XML-RPC, over its limit of %d MiB (MaxParamBytes, which keeps every parameter within the state file)", m.paramBytes+delta, MaxParamBytes>>20))
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
