// Package listmap finds the old item of an x-kubernetes-list-type map list
// that correlates with a new item, as the API server does for ratcheting
// and for CEL transition rules (packages ratchet and celrules).
package listmap

import (
	"fmt"
	"math"
	"strconv"

	"github.com/crdschema/crdschema/structural"
)

// An Index finds the old item of a list-type map list that has the same
// key values as a new item. Items are keyed lazily, in order, until the
// wanted key turns up, and the first item with a key wins. The nil *Index
// finds nothing. An Index is not safe for concurrent use.
type Index struct {
	keys []string
	old  []any
	next int // old[next:] are not keyed yet
	// single maps the value of the only key to the index of its item;
	// multi maps composite keys (see appendKey).
	single map[any]int
	multi  map[string]int
	// buf and itemBuf are scratch space for composite keys.
	buf, itemBuf []byte
}

// New returns the index of old, the items of a list with schema s.
// Without list-map keys (or when s is not an array schema) nothing is
// found.
func New(s *structural.Schema, old []any) *Index {
	if s == nil || s.Type != "array" || len(s.XListMapKeys) == 0 {
		return &Index{}
	}
	return &Index{keys: s.XListMapKeys, old: old}
}

// Lookup returns the first old item whose key equals the key of item.
func (x *Index) Lookup(item any) (any, bool) {
	if x == nil {
		return nil, false
	}
	m, ok := item.(map[string]any)
	if !ok || len(x.keys) == 0 {
		return nil, false
	}
	if len(x.keys) == 1 {
		return x.lookupSingle(m)
	}
	return x.lookupMulti(m)
}

// lookupSingle finds an item by the value of the only key, which must be
// a bool, float64, int64 or string.
func (x *Index) lookupSingle(m map[string]any) (any, bool) {
	k, ok := singleKey(m, x.keys[0])
	if !ok {
		return nil, false
	}
	if i, ok := x.single[k]; ok {
		return x.old[i], true
	}
	for x.next < len(x.old) {
		i := x.next
		x.next++
		om, ok := x.old[i].(map[string]any)
		if !ok {
			continue
		}
		ik, ok := singleKey(om, x.keys[0])
		if !ok {
			continue
		}
		if x.single == nil {
			x.single = make(map[any]int)
		}
		if _, seen := x.single[ik]; !seen {
			x.single[ik] = i
		}
		if ik == k {
			return om, true
		}
	}
	return nil, false
}

func singleKey(m map[string]any, key string) (any, bool) {
	v, ok := m[key]
	if !ok {
		return nil, false
	}
	switch v.(type) {
	case bool, float64, int64, string:
		return v, true
	}
	return nil, false
}

// lookupMulti finds an item by its composite key.
func (x *Index) lookupMulti(m map[string]any) (any, bool) {
	b, ok := x.appendKey(x.buf[:0], m)
	x.buf = b
	if !ok {
		return nil, false
	}
	if i, ok := x.multi[string(b)]; ok {
		return x.old[i], true
	}
	ib := x.itemBuf
	defer func() { x.itemBuf = ib }()
	for x.next < len(x.old) {
		i := x.next
		x.next++
		om, ok := x.old[i].(map[string]any)
		if !ok {
			continue
		}
		if ib, ok = x.appendKey(ib[:0], om); !ok {
			continue
		}
		if x.multi == nil {
			x.multi = make(map[string]int)
		}
		if _, seen := x.multi[string(ib)]; !seen {
			x.multi[string(ib)] = i
		}
		if string(ib) == string(x.buf) {
			return om, true
		}
	}
	return nil, false
}

// appendKey appends the composite key of item to b; false when a key is
// missing or its value is not a bool, float64, int64 or string. It joins,
// for each key, a NUL byte and the value formatted by its type (%t, %f, %d
// or %q), as the API server does: int64 1 and float64 1 give different
// keys, while floats that print alike to six decimals give the same.
func (x *Index) appendKey(b []byte, item map[string]any) ([]byte, bool) {
	for _, k := range x.keys {
		v, ok := item[k]
		if !ok {
			return b, false
		}
		b = append(b, 0)
		switch v := v.(type) {
		case bool:
			b = strconv.AppendBool(b, v)
		case float64:
			b = appendFloat(b, v)
		case int64:
			b = strconv.AppendInt(b, v, 10)
		case string:
			b = strconv.AppendQuote(b, v)
		default:
			return b, false
		}
	}
	return b, true
}

// appendFloat formats f as fmt's %f does.
func appendFloat(b []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return fmt.Appendf(b, "%f", f)
	}
	return strconv.AppendFloat(b, f, 'f', 6, 64)
}
