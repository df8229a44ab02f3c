package master

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
)

// The parameter tree, with the semantics of rosmaster's paramserver.py:
// namespaces are map[string]any, setting a dictionary replaces the subtree,
// getting a namespace returns a dictionary. Not safe for concurrent use:
// the Master's mutex guards it.

var errNotSet = errors.New("parameter not set")

// paramGet returns the value at the resolved global key; "/" is the root.
func paramGet(root map[string]any, key string) (any, error) {
	var val any = root
	for _, ns := range splitName(key) {
		d, ok := val.(map[string]any)
		if !ok {
			return nil, errNotSet
		}
		v, ok := d[ns]
		if !ok {
			return nil, errNotSet
		}
		val = v
	}
	return val, nil
}

// paramSet stores value at key, creating or replacing namespaces on the way,
// and returns the new root (which changes only when key is "/").
func paramSet(root map[string]any, key string, value any) (map[string]any, error) {
	parts := splitName(key)
	if len(parts) == 0 {
		d, ok := value.(map[string]any)
		if !ok {
			return root, errors.New("cannot set root of parameter tree to non-dictionary")
		}
		return d, nil
	}
	d := root
	for _, ns := range parts[:len(parts)-1] {
		next, ok := d[ns].(map[string]any)
		if !ok {
			next = map[string]any{}
			d[ns] = next
		}
		d = next
	}
	d[parts[len(parts)-1]] = value
	return root, nil
}

// paramDelete removes key.
func paramDelete(root map[string]any, key string) error {
	parts := splitName(key)
	if len(parts) == 0 {
		return errors.New("cannot delete root of parameter tree")
	}
	d := root
	for _, ns := range parts[:len(parts)-1] {
		next, ok := d[ns].(map[string]any)
		if !ok {
			return errNotSet
		}
		d = next
	}
	last := parts[len(parts)-1]
	if _, ok := d[last]; !ok {
		return errNotSet
	}
	delete(d, last)
	return nil
}

// paramSearch looks for key upwards from namespace ns, as searchParam does.
func paramSearch(root map[string]any, ns, key string) (string, error) {
	has := func(k string) bool { _, err := paramGet(root, k); return err == nil }
	if key == "" || isPrivate(key) {
		return "", errors.New("invalid key")
	}
	if !isGlobal(ns) {
		return "", errors.New("namespace must be global")
	}
	if isGlobal(key) {
		if has(key) {
			return key, nil
		}
		return "", nil
	}
	keyParts := splitName(key)
	if len(keyParts) == 0 {
		return "", nil
	}
	keyNS := keyParts[0]
	// ns itself, then upwards: the deepest namespace holding keyNS, found
	// in one walk down ns without splitting it (a check per level from the
	// root costs the depth squared, cubed with the names built).
	best, bestAt := -1, 0 // the depth of that namespace, where ns names it
	d, depth, i := root, 0, 0
	for d != nil {
		if _, ok := d[keyNS]; ok {
			best, bestAt = depth, i
		}
		for i < len(ns) && ns[i] == '/' {
			i++
		}
		if i == len(ns) {
			if best == depth {
				return nsJoin(ns, key), nil // ns itself holds it
			}
			break
		}
		j := strings.IndexByte(ns[i:], '/')
		if j < 0 {
			j = len(ns) - i
		}
		d, _ = d[ns[i:i+j]].(map[string]any)
		depth++
		i += j
	}
	switch {
	case best < 0:
		return "", nil
	case best == 0:
		return sep + key, nil
	}
	return canonicalName(ns[:bestAt]) + sep + key, nil
}

// paramUpdate is one paramUpdate notification to send to subs.
type paramUpdate struct {
	subs  []provider
	key   string
	value any
}

// computeParamUpdates works out which parameter subscribers must hear of a
// change of key to value (rosmaster's compute_param_updates). Subscribers
// named ignoreID are not told of their own change of a key they watch.
func computeParamUpdates(subs *registrations, key string, value any, ignoreID string, ignore bool) []paramUpdate {
	if len(subs.m) == 0 {
		return nil
	}
	if key != sep {
		key = canonicalName(key) + sep
	}
	var allKeys []string
	dict, isDict := value.(map[string]any)
	if isDict {
		allKeys = allParamKeys(key, dict, []string{})
	}
	all := make(map[string]bool, len(allKeys))
	for _, a := range allKeys {
		all[a] = true
	}
	inAll := func(k string) bool { return all[k] }
	var updates []paramUpdate
	for _, subKey := range subs.keys() {
		nsKey := subKey
		if nsKey[len(nsKey)-1:] != sep {
			nsKey += sep
		}
		switch {
		case len(key) >= len(nsKey) && key[:len(nsKey)] == nsKey:
			var ps []provider
			for _, p := range subs.m[subKey] {
				if !ignore || p.id != ignoreID {
					ps = append(ps, p)
				}
			}
			updates = append(updates, paramUpdate{ps, key, value})
		case isDict && len(nsKey) >= len(key) && nsKey[:len(key)] == key && !inAll(subKey):
			updates = append(updates, paramUpdate{subs.m[subKey], subKey, map[string]any{}})
		}
	}
	for _, k := range allKeys {
		ps, ok := subs.m[k]
		if !ok {
			continue
		}
		var val any = dict
		for _, ns := range splitName(k[len(key):]) {
			val = val.(map[string]any)[ns]
		}
		updates = append(updates, paramUpdate{ps, k, val})
	}
	return updates
}

func allParamKeys(key string, d map[string]any, acc []string) []string {
	names := make([]string, 0, len(d))
	for k := range d {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		nk := nsJoin(key, k) + sep
		acc = append(acc, nk)
		if sub, ok := d[k].(map[string]any); ok {
			acc = allParamKeys(nk, sub, acc)
		}
	}
	return acc
}

// copyTree deep-copies the dictionaries of a parameter value; other values
// are immutable once stored and are shared.
func copyTree(v any) any {
	d, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(d))
	for k, e := range d {
		out[k] = copyTree(e)
	}
	return out
}

// normalizeParam converts a Go value given to SetParam into the types the
// XML-RPC decoder produces (int, float64, bool, string, []byte, []any,
// map[string]any), copying it so the caller may keep mutating its own.
func normalizeParam(v any, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, errors.New("value nested too deeply")
	}
	switch v := v.(type) {
	case int, float64, bool, string:
		return v, nil
	case []byte:
		return append([]byte{}, v...), nil
	case nil:
		return nil, errors.New("nil is not a parameter value")
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n := rv.Int()
		if n < math.MinInt || n > math.MaxInt {
			return nil, fmt.Errorf("integer %d out of range", n)
		}
		return int(n), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		if u > math.MaxInt {
			return nil, fmt.Errorf("integer %d out of range", u)
		}
		return int(u), nil
	case reflect.Float32, reflect.Float64:
		return rv.Float(), nil
	case reflect.String:
		return rv.String(), nil
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
			return append([]byte{}, rv.Bytes()...), nil
		}
		out := make([]any, rv.Len())
		for i := range out {
			e, err := normalizeParam(rv.Index(i).Interface(), depth+1)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			out[i] = e
		}
		return out, nil
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map keys of %s are not strings", rv.Type())
		}
		out := make(map[string]any, rv.Len())
		iter := rv.MapRange()
		for iter.Next() {
			e, err := normalizeParam(iter.Value().Interface(), depth+1)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", iter.Key().String(), err)
			}
			out[iter.Key().String()] = e
		}
		return out, nil
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil, errors.New("nil is not a parameter value")
		}
		return normalizeParam(rv.Elem().Interface(), depth+1)
	}
	return nil, fmt.Errorf("cannot store a %T as a parameter", v)
}
