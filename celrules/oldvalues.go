package celrules

import (
	"fmt"
	"strings"

	"github.com/crdschema/crdschema/structural"
)

// oldItems finds the old item of a list-type=map list that has the same
// key as a new item. Other lists never correlate.
type oldItems struct {
	keys  []string
	byKey map[any]map[string]any
}

func newOldItems(s *structural.Schema, old []any) *oldItems {
	if s == nil || s.Type != "array" || s.XListType == nil || *s.XListType != "map" || len(s.XListMapKeys) == 0 || len(old) == 0 {
		return nil
	}
	o := &oldItems{keys: s.XListMapKeys, byKey: make(map[any]map[string]any, len(old))}
	for _, item := range old {
		m, ok := item.(map[string]any)
		if !ok {
			continue
		}
		k, ok := o.key(m)
		if !ok {
			continue
		}
		if _, dup := o.byKey[k]; !dup {
			o.byKey[k] = m
		}
	}
	return o
}

// key is the item's identity: the scalar value of its single key, or its
// key values joined. Items without every key, or with a non-scalar key,
// have none.
func (o *oldItems) key(m map[string]any) (any, bool) {
	if len(o.keys) == 1 {
		v, ok := m[o.keys[0]]
		if !ok {
			return nil, false
		}
		switch v.(type) {
		case bool, float64, int64, string:
			return v, true
		}
		return nil, false
	}
	var b strings.Builder
	for _, name := range o.keys {
		v, ok := m[name]
		if !ok {
			return nil, false
		}
		switch x := v.(type) {
		case bool:
			fmt.Fprintf(&b, "\x00%t", x)
		case float64:
			fmt.Fprintf(&b, "\x00%f", x)
		case int64:
			fmt.Fprintf(&b, "\x00%d", x)
		case string:
			fmt.Fprintf(&b, "\x00%q", x)
		default:
			return nil, false
		}
	}
	return b.String(), true
}

// get returns the old item correlating with item, or nil.
func (o *oldItems) get(item any) any {
	if o == nil {
		return nil
	}
	m, ok := item.(map[string]any)
	if !ok {
		return nil
	}
	k, ok := o.key(m)
	if !ok {
		return nil
	}
	if old, ok := o.byKey[k]; ok {
		return old
	}
	return nil
}
