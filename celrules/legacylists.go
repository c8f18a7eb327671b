package celrules

import (
	"sync"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// Lists as the API server before Kubernetes 1.37 gives them to CEL
// (k8s.io/apiserver up to v0.36: unstructuredList, unstructuredSetList,
// unstructuredMapList). They work on the raw JSON elements, where 1.37
// works on CEL values:
//
//   - a set list is a Go set of its raw elements, and compares with
//     another list by looking up that list's CEL values' native values
//     (Value()) in it: a whole number (int64) is never found as a double
//     (float64), a date-time, date or duration string never as a
//     time.Time or time.Duration, and a byte string ([]byte) cannot be
//     looked up at all (the Go runtime panics, which CEL evaluation
//     reports as an internal error). Only the sizes and the other list's
//     elements are checked: a duplicate on the other side goes unnoticed.
//   - a map list keys its raw items by their key properties (more than
//     three keys joined with %v) and compares without noticing a duplicate
//     on the other side either.
//   - + appends the other list's native values to the raw elements; an
//     element converts to CEL again when read, so a time.Time or []byte
//     appended to a list of strings reads as "invalid data, expected
//     string, got ...". A set list's + also adds the new elements to the
//     set of the left-hand list, which that list then keeps using.
//
// A sync.Once guards each lazily built set or index, as upstream's does,
// so that a panic while building it leaves it as far as it got.

// rawListVal is an atomic list before 1.37: + appends raw values.
type rawListVal struct{ listVal }

func (l *rawListVal) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	elems := l.elems[:len(l.elems):len(l.elems)] // the object's array stays as it is
	for it := o.Iterator(); it.HasNext() == types.True; {
		elems = append(elems, it.Next().Value())
	}
	return &rawListVal{listVal{elems: elems, items: l.items}}
}

// rawSetListVal is a set list before 1.37.
type rawSetListVal struct {
	rawListVal
	once sync.Once
	set  map[any]struct{}
}

// rawSet is the set of the raw elements, built once.
func (l *rawSetListVal) rawSet() map[any]struct{} {
	l.once.Do(func() {
		l.set = make(map[any]struct{}, len(l.elems))
		for _, e := range l.elems {
			l.set[e] = struct{}{}
		}
	})
	return l.set
}

func (l *rawSetListVal) Equal(other ref.Val) ref.Val {
	o, res := sameSize(other, len(l.elems))
	if o == nil {
		return res
	}
	set := l.rawSet()
	for it := o.Iterator(); it.HasNext() == types.True; {
		if _, ok := set[it.Next().Value()]; !ok {
			return types.False
		}
	}
	return types.True
}

func (l *rawSetListVal) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	elems := l.elems[:len(l.elems):len(l.elems)]
	set := l.rawSet() // upstream adds to l's own set
	for it := o.Iterator(); it.HasNext() == types.True; {
		next := it.Next().Value()
		if _, ok := set[next]; !ok {
			set[next] = struct{}{}
			elems = append(elems, next)
		}
	}
	return &rawSetListVal{rawListVal: rawListVal{listVal{elems: elems, items: l.items}}}
}

// rawMapListVal is a map list before 1.37.
type rawMapListVal struct {
	rawListVal
	keys  []string // escaped, as upstream looks them up
	once  sync.Once
	byKey map[any]any
}

// rawKey is the Go map key of a raw item (itemKey, more than three key
// values joined with %v).
func (l *rawMapListVal) rawKey(item any) any { return itemKey(item, l.keys, "%v") }

// index maps the raw keys to the raw items, the last item of a key
// winning, built once.
func (l *rawMapListVal) index() map[any]any {
	l.once.Do(func() {
		l.byKey = make(map[any]any, len(l.elems))
		for _, e := range l.elems {
			l.byKey[l.rawKey(e)] = e
		}
	})
	return l.byKey
}

func (l *rawMapListVal) Equal(other ref.Val) ref.Val {
	o, res := sameSize(other, len(l.elems))
	if o == nil {
		return res
	}
	idx := l.index()
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next()
		mine, ok := idx[l.rawKey(v.Value())]
		if !ok {
			return types.False
		}
		if eq := toVal(mine, l.items).Equal(v); eq != types.True {
			return eq
		}
	}
	return types.True
}

func (l *rawMapListVal) Add(other ref.Val) ref.Val {
	o, ok := other.(traits.Lister)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	elems := make([]any, len(l.elems))
	pos := make(map[any]int, len(l.elems))
	for i, e := range l.elems {
		pos[l.rawKey(e)] = i
		elems[i] = e
	}
	for it := o.Iterator(); it.HasNext() == types.True; {
		v := it.Next().Value()
		if i, ok := pos[l.rawKey(v)]; ok {
			elems[i] = v
		} else {
			elems = append(elems, v)
		}
	}
	return &rawMapListVal{rawListVal: rawListVal{listVal{elems: elems, items: l.items}}, keys: l.keys}
}
