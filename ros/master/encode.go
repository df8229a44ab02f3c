package master

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"sort"
	"strconv"
)

// Encoding XML-RPC: calls, responses and faults, and the values in them.

// EncodeCall writes an XML-RPC methodCall.
func EncodeCall(w io.Writer, method string, params ...any) error {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0"?>` + "\n<methodCall><methodName>")
	escape(&b, method)
	b.WriteString("</methodName><params>")
	for i, p := range params {
		b.WriteString("<param>")
		if err := encodeValue(&b, p, 0); err != nil {
			return fmt.Errorf("xmlrpc: param %d: %w", i, err)
		}
		b.WriteString("</param>")
	}
	b.WriteString("</params></methodCall>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// EncodeResponse writes an XML-RPC methodResponse holding v, which may be
// nil, bool, any integer type, float32, float64, string, []byte, a slice or
// array of encodable values, or a map with string keys and encodable values.
// Nothing is written if v cannot be encoded.
func EncodeResponse(w io.Writer, v any) error {
	if bb, ok := w.(*bytes.Buffer); ok { // straight in: no second copy of a large reply or state
		n := bb.Len()
		bb.WriteString(`<?xml version="1.0"?>` + "\n<methodResponse><params><param>")
		if err := encodeValue(bb, v, 0); err != nil {
			bb.Truncate(n)
			return err
		}
		bb.WriteString("</param></params></methodResponse>\n")
		return nil
	}
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0"?>` + "\n<methodResponse><params><param>")
	if err := encodeValue(&b, v, 0); err != nil {
		return err
	}
	b.WriteString("</param></params></methodResponse>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// EncodeFault writes an XML-RPC fault response.
func EncodeFault(w io.Writer, code int, message string) error {
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0"?>` + "\n<methodResponse><fault>")
	if err := encodeValue(&b, map[string]any{"faultCode": code, "faultString": message}, 0); err != nil {
		return err
	}
	b.WriteString("</fault></methodResponse>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// escape writes s with the three characters XML-RPC peers expect escaped,
// and anything XML cannot carry replaced (xmlText). Other characters
// (newlines included) are written as they are: roscpp's XmlRpc++ does not
// understand numeric character references.
func escape(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var rep string
		switch s[i] {
		case '&':
			rep = "&amp;"
		case '<':
			rep = "&lt;"
		case '>':
			rep = "&gt;"
		default:
			continue
		}
		xmlText(b, s[last:i])
		b.WriteString(rep)
		last = i + 1
	}
	xmlText(b, s[last:])
}

func encodeInt(b *bytes.Buffer, n int64) {
	if n >= math.MinInt32 && n <= math.MaxInt32 {
		b.WriteString("<value><int>")
		b.WriteString(strconv.FormatInt(n, 10))
		b.WriteString("</int></value>")
		return
	}
	b.WriteString("<value><i8>")
	b.WriteString(strconv.FormatInt(n, 10))
	b.WriteString("</i8></value>")
}

func encodeValue(b *bytes.Buffer, v any, depth int) error {
	if depth > MaxDepth {
		return errors.New("xmlrpc: value nested too deeply")
	}
	switch v := v.(type) {
	case nil:
		b.WriteString("<value><nil/></value>")
	case bool:
		if v {
			b.WriteString("<value><boolean>1</boolean></value>")
		} else {
			b.WriteString("<value><boolean>0</boolean></value>")
		}
	case int:
		encodeInt(b, int64(v))
	case int64:
		encodeInt(b, v)
	case int32:
		encodeInt(b, int64(v))
	case float64:
		b.WriteString("<value><double>")
		b.WriteString(formatDouble(v))
		b.WriteString("</double></value>")
	case string:
		b.WriteString("<value><string>")
		escape(b, v)
		b.WriteString("</string></value>")
	case []byte:
		b.WriteString("<value><base64>")
		b.WriteString(base64.StdEncoding.EncodeToString(v))
		b.WriteString("</base64></value>")
	case []any:
		b.WriteString("<value><array><data>")
		for _, e := range v {
			if err := encodeValue(b, e, depth+1); err != nil {
				return err
			}
		}
		b.WriteString("</data></array></value>")
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteString("<value><struct>")
		for _, k := range keys {
			b.WriteString("<member><name>")
			escape(b, k)
			b.WriteString("</name>")
			if err := encodeValue(b, v[k], depth+1); err != nil {
				return err
			}
			b.WriteString("</member>")
		}
		b.WriteString("</struct></value>")
	default:
		return encodeReflect(b, reflect.ValueOf(v), depth)
	}
	return nil
}

func formatDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// encodeReflect encodes the remaining kinds: other integer and float types,
// named types, slices, arrays, string-keyed maps and pointers.
func encodeReflect(b *bytes.Buffer, rv reflect.Value, depth int) error {
	switch rv.Kind() {
	case reflect.Bool:
		return encodeValue(b, rv.Bool(), depth)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		encodeInt(b, rv.Int())
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > math.MaxInt64 {
			return fmt.Errorf("xmlrpc: integer %d out of range", u)
		}
		encodeInt(b, int64(u))
		return nil
	case reflect.Float32, reflect.Float64:
		return encodeValue(b, rv.Float(), depth)
	case reflect.String:
		return encodeValue(b, rv.String(), depth)
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
			return encodeValue(b, rv.Bytes(), depth)
		}
		b.WriteString("<value><array><data>")
		for i := 0; i < rv.Len(); i++ {
			if err := encodeValue(b, rv.Index(i).Interface(), depth+1); err != nil {
				return err
			}
		}
		b.WriteString("</data></array></value>")
		return nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return fmt.Errorf("xmlrpc: cannot encode %s: keys are not strings", rv.Type())
		}
		m := make(map[string]any, rv.Len())
		iter := rv.MapRange()
		for iter.Next() {
			m[iter.Key().String()] = iter.Value().Interface()
		}
		return encodeValue(b, m, depth)
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return encodeValue(b, nil, depth)
		}
		return encodeValue(b, rv.Elem().Interface(), depth+1)
	}
	return fmt.Errorf("xmlrpc: cannot encode a %s", rv.Type())
}
