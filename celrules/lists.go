package celrules

import (
	"fmt"
	"reflect"
	"slices"
	"sync"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// listVal is an array value converted element by element on access.
type listVal struct {
	elems []any
	items *valueSchema
}

func (l *listVal) ConvertToNative(t reflect.Type) (any, error) {
	if t.Kind() == reflect.Slice {
		if l.items.s.Type == "string" {
			var out []string
			for _, e := range l.elems {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("expected all elements to be of type string, but got %T", e)
				}
				out = append(out, s)
			}
			return out, nil
		}
		return l.elems, nil
	}
	return nil, fmt.Errorf("type conversion error from '%s' to '%s'", l.Type(), t)
}

func (l *listVal) ConvertToType(t ref.Type) ref.Val { return convertToType(l, types.ListType, t) }

// sameSize returns other as a list when it is a list of n elements, and
// else what comparing a list of n elements with it gives: false, or the
// error for a value that is not a list.
func sameSize(other ref.Val, n int) (traits.Lister, ref.Val) {
	o, ok := other.(traits.Lister)
	if !ok {
		return nil, types.MaybeNoSuchOverloadErr(other)
	}
	if types.Int(n) != o.Size() {
		return nil, types.False
	}
	return o, nil
}

func (l *listVal) Equal(other ref.Val) ref.Val {
	o, res := sameSize(other, len(l.elems))
	if o == nil {
		return res
	}
	for i := types.Int(0); i < types.Int(len(l.elems)); i++ {
		if eq := l.Get(i).Equal(o.Get(i)); eq != types.True {
			return eq
		}
	}
	return types.True
}

func (l *listVal) Type() ref.Type { return types.ListType }
func (l *listVal) Value() any     { return l.elems }

func (l *listVal) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	on, _ := o.Size().(types.Int)
	out := make([]ref.Val, 0, len(l.elems)+int(on))
	out = l.appendElems(out)
	for it := o.Iterator(); it.HasNext() == types.True; {
		out = append(out, it.Next())
	}
	return types.NewRefValList(types.DefaultTypeAdapter, out)
}

func (l *listVal) appendElems(out []ref.Val) []ref.Val {
	for _, e := range l.elems {
		out = append(out, toVal(e, l.items))
	}
	return out
}

func (l *listVal) Contains(v ref.Val) ref.Val {
	if types.IsUnknownOrError(v) {
		return v
	}
	var err ref.Val
	for _, e := range l.elems {
		cmp := toVal(e, l.items).Equal(v)
		b, ok := cmp.(types.Bool)
		if !ok && err == nil {
			err = types.MaybeNoSuchOverloadErr(cmp)
		}
		if b == types.True {
			return types.True
		}
	}
	if err != nil {
		return err
	}
	return types.False
}

func (l *listVal) Get(idx ref.Val) ref.Val {
	i, ok := idx.(types.Int)
	if !ok {
		return types.ValOrErr(idx, "unsupported index: %v", idx)
	}
	if i < 0 || int64(i) >= int64(len(l.elems)) {
		return types.NewErr("index out of bounds: %v", idx)
	}
	return toVal(l.elems[i], l.items)
}

func (l *listVal) Iterator() traits.Iterator { return &listIter{l: l} }
func (l *listVal) Size() ref.Val             { return types.Int(len(l.elems)) }

type listIter struct {
	iterator
	l *listVal
	i int
}

func (it *listIter) HasNext() ref.Val { return types.Bool(it.i < len(it.l.elems)) }
func (it *listIter) Next() ref.Val {
	if it.i >= len(it.l.elems) {
		return types.NewErr("no more elements")
	}
	v := toVal(it.l.elems[it.i], it.l.items)
	it.i++
	return v
}

// setListVal is an x-kubernetes-list-type=set array: equality ignores
// order and + is a union.
type setListVal struct {
	listVal
	once sync.Once
	set  map[any]struct{}
	err  ref.Val
}

func (l *setListVal) keys() (map[any]struct{}, ref.Val) {
	l.once.Do(func() {
		l.set = make(map[any]struct{}, len(l.elems))
		for _, e := range l.elems {
			k, err := setKey(toVal(e, l.items))
			if err != nil {
				l.set, l.err = nil, err
				return
			}
			l.set[k] = struct{}{}
		}
	})
	return l.set, l.err
}

func (l *setListVal) Equal(other ref.Val) ref.Val {
	o, res := sameSize(other, len(l.elems))
	if o == nil {
		return res
	}
	set, err := l.keys()
	if err != nil {
		return err
	}
	return setEqual(set, o)
}

func (l *setListVal) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return unionSetList(l.appendElems(make([]ref.Val, 0, len(l.elems))), o)
}

// setEqual reports whether the list o holds exactly the keys of set.
func setEqual(set map[any]struct{}, o traits.Lister) ref.Val {
	seen := make(map[any]struct{}, len(set))
	for it := o.Iterator(); it.HasNext() == types.True; {
		k, err := setKey(it.Next())
		if err != nil {
			return err
		}
		if _, ok := set[k]; !ok {
			return types.False
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(set))
}

// setKey is the identity of a set element; sets hold scalars only.
func setKey(v ref.Val) (any, ref.Val) {
	switch v.(type) {
	case traits.Lister, traits.Mapper:
		return nil, types.NewErr("listSet operations are only supported on lists of scalar values")
	}
	raw := v.Value()
	if raw != nil && !reflect.TypeOf(raw).Comparable() {
		return fmt.Sprintf("%#v", raw), nil
	}
	return raw, nil
}

func unionSetList(elems []ref.Val, o traits.Lister) ref.Val {
	set := make(map[any]struct{}, len(elems))
	for _, e := range elems {
		k, err := setKey(e)
		if err != nil {
			return err
		}
		set[k] = struct{}{}
	}
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k, err := setKey(v)
		if err != nil {
			return err
		}
		if _, ok := set[k]; !ok {
			set[k] = struct{}{}
			elems = append(elems, v)
		}
	}
	return &concatSetList{Lister: types.NewRefValList(types.DefaultTypeAdapter, elems), elems: elems, set: set}
}

// concatSetList is the result of + on a set list; it keeps set semantics.
type concatSetList struct {
	traits.Lister
	elems []ref.Val        // the Lister's, not to be modified
	set   map[any]struct{} // the keys of elems
}

func (l *concatSetList) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return unionSetList(slices.Clip(l.elems), o)
}

func (l *concatSetList) Equal(other ref.Val) ref.Val {
	o, res := sameSize(other, len(l.elems))
	if o == nil {
		return res
	}
	return setEqual(l.set, o)
}

// mapListVal is an x-kubernetes-list-type=map array: equality ignores
// order (items are matched by key) and + replaces items by key.
type mapListVal struct {
	listVal
	keys  []string
	once  sync.Once
	byKey map[any]any
}

// rawKey is the key of an unstructured item. Like the API server, it looks
// the key properties up by their escaped names.
func (l *mapListVal) rawKey(item any) any { return itemKey(item, l.keys, "%#v") }

// itemKey is the Go map key of an unstructured item of a map list with the
// key properties keys (escaped names): the key's value, an array of two or
// three values, or more values joined with the fmt verb joined (1.37 prints
// them in Go syntax, earlier releases with %v).
func itemKey(item any, keys []string, joined string) any {
	m, ok := item.(map[string]any)
	if !ok {
		return types.NewErr("unexpected data format for element of array with x-kubernetes-list-type=map: %T", item)
	}
	return joinKey(keys, joined, func(name string) any { return m[name] })
}

// joinKey is the Go map key of an item whose key property name has the
// value get(name): that value, an array of two or three values, or more
// values joined with the fmt verb joined.
func joinKey(keys []string, joined string, get func(name string) any) any {
	switch len(keys) {
	case 1:
		return get(keys[0])
	case 2:
		return [2]any{get(keys[0]), get(keys[1])}
	case 3:
		return [3]any{get(keys[0]), get(keys[1]), get(keys[2])}
	}
	k := make([]any, len(keys))
	for i, name := range keys {
		k[i] = get(name)
	}
	return fmt.Sprintf(joined, k)
}

func (l *mapListVal) index() map[any]any {
	l.once.Do(func() {
		l.byKey = make(map[any]any, len(l.elems))
		for _, e := range l.elems {
			// A key that is not a scalar (wrong data) cannot be looked up;
			// the item then matches nothing.
			if k := l.rawKey(e); hashable(k) {
				l.byKey[k] = e
			}
		}
	})
	return l.byKey
}

func (l *mapListVal) Equal(other ref.Val) ref.Val {
	o, res := sameSize(other, len(l.elems))
	if o == nil {
		return res
	}
	idx := l.index()
	seen := make(map[any]struct{}, len(idx))
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := l.rawKey(v.Value())
		if !hashable(k) {
			return types.False
		}
		mine, ok := idx[k]
		if !ok {
			return types.False
		}
		if eq := toVal(mine, l.items).Equal(v); eq != types.True {
			return eq
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(idx))
}

func (l *mapListVal) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return mergeMapList(l.appendElems(make([]ref.Val, 0, len(l.elems))), o, l.keys)
}

// hashable reports whether k may be used as a Go map key without a panic.
func hashable(k any) bool {
	switch x := k.(type) {
	case nil:
		return true
	case [2]any:
		return hashable(x[0]) && hashable(x[1])
	case [3]any:
		return hashable(x[0]) && hashable(x[1]) && hashable(x[2])
	}
	return reflect.TypeOf(k).Comparable()
}

// valKey is the key of a CEL list item under the map list's key names.
func valKey(v ref.Val, keys []string) any {
	get := func(name string) any {
		key := types.String(name)
		var f ref.Val
		found := false
		switch e := v.(type) {
		case traits.Mapper:
			f, found = e.Find(key)
		case traits.Indexer:
			if t, ok := v.(traits.FieldTester); ok {
				found = t.IsSet(key) == types.True
			}
			if found {
				f = e.Get(key)
			}
		}
		if !found || f == nil || types.IsUnknownOrError(f) {
			return nil
		}
		raw := f.Value()
		if raw != nil && !reflect.TypeOf(raw).Comparable() {
			return fmt.Sprintf("%#v", raw)
		}
		return raw
	}
	return joinKey(keys, "%#v", get)
}

func mergeMapList(elems []ref.Val, o traits.Lister, keys []string) ref.Val {
	pos := make(map[any]int, len(elems))
	for i, e := range elems {
		pos[valKey(e, keys)] = i
	}
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := valKey(v, keys)
		if i, ok := pos[k]; ok {
			elems[i] = v
		} else {
			elems = append(elems, v)
		}
	}
	return &concatMapList{Lister: types.NewRefValList(types.DefaultTypeAdapter, elems), elems: elems, keys: keys}
}

// concatMapList is the result of + on a map list; it keeps map-list
// semantics.
type concatMapList struct {
	traits.Lister
	elems []ref.Val // the Lister's, not to be modified
	keys  []string
}

func (l *concatMapList) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return mergeMapList(slices.Clone(l.elems), o, l.keys)
}

func (l *concatMapList) Equal(other ref.Val) ref.Val {
	o, res := sameSize(other, len(l.elems))
	if o == nil {
		return res
	}
	byKey := map[any]ref.Val{}
	for _, e := range l.elems {
		byKey[valKey(e, l.keys)] = e
	}
	seen := map[any]struct{}{}
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		k := valKey(v, l.keys)
		e, ok := byKey[k]
		if !ok {
			return types.False
		}
		if eq := e.Equal(v); eq != types.True {
			return eq
		}
		seen[k] = struct{}{}
	}
	return types.Bool(len(seen) == len(byKey))
}
