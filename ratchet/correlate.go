package ratchet

import (
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/listmap"
	"github.com/crdschema/crdschema/structural"
)

// Correlation is a node in the correlation of a new object with the old
// object it replaces: a value of the new object, the value at the same
// place in the old object, and the schema of both. Children are found
// lazily, as a validator walks the new object, and kept, so that the
// equality of a node reuses what its children already compared.
//
// A value correlates with an old value through
//   - an object property or additionalProperties key present in both
//     objects, when the schema has the property or an additionalProperties
//     schema;
//   - a list item of a list with x-kubernetes-list-type map, whose old
//     counterpart is the first old item with the same key values. Items of
//     other lists (atomic, set) never correlate.
//
// The nil *Correlation is a valid value: it stands for a value without an
// old counterpart, whose children do not correlate either and which is
// never unchanged.
//
// A Correlation reads the objects it was built from and never modifies them;
// they must not change while it is in use. It caches what it finds, so it
// is not safe for concurrent use: build one per update.
type Correlation struct {
	new, old any
	schema   *structural.Schema
	alloc    *allocator

	// eq caches Unchanged: eqUnknown until computed.
	eq eqState
	// listMap is set once an item of a list-type map list was looked up;
	// from then on an item without an old counterpart makes the list
	// changed (otherwise lists compare as whole values).
	listMap bool
	// kids holds the children found so far; nil for leaves.
	kids *children
}

// children are the correlated children of an object or a list.
type children struct {
	// fields are the children of an object, in the order they were
	// found; byName indexes them once there are many.
	fields []field
	byName map[string]*Correlation
	// items are the children of a list, by index of the new list (nil
	// where not looked up or not correlated).
	items []*Correlation
	// oldKeys indexes the old items of a list-type map list by key,
	// lazily.
	oldKeys *listmap.Index
}

type eqState uint8

const (
	eqUnknown eqState = iota
	eqTrue
	eqFalse
)

type field struct {
	name string
	c    *Correlation
}

// manyFields is the number of object children from which they are looked
// up through a map rather than by a linear scan.
const manyFields = 16

// Correlate returns the correlation of newObj, a value being validated on
// an update, with oldObj, the value it replaces, both described by s (the
// structural schema of the resource for a whole custom resource). The
// objects are unstructured values as the decoding functions of package
// crdschema produce them. Nothing is compared yet: the work is done on
// demand by Key, Index and Unchanged.
func Correlate(newObj, oldObj any, s *structural.Schema) *Correlation {
	a := &allocator{}
	c := a.node()
	c.new, c.old, c.schema, c.alloc = newObj, oldObj, s, a
	return c
}

// Values returns the new and the old value of c (nil, nil for a nil c).
func (c *Correlation) Values() (newValue, oldValue any) {
	if c == nil {
		return nil, nil
	}
	return c.new, c.old
}

// Key returns the correlation of the property or additionalProperties
// entry name of an object: nil unless both the new and the old object
// have the key and the schema has the property or an additionalProperties
// schema.
func (c *Correlation) Key(name string) *Correlation {
	if c == nil || c.schema == nil {
		return nil
	}
	if k := c.kids; k != nil {
		if k.byName != nil {
			if x := k.byName[name]; x != nil {
				return x
			}
		} else {
			for i := range k.fields {
				if k.fields[i].name == name {
					return k.fields[i].c
				}
			}
		}
	}
	newMap, ok := c.new.(map[string]any)
	if !ok {
		return nil
	}
	oldMap, ok := c.old.(map[string]any)
	if !ok {
		return nil
	}
	nv, ok := newMap[name]
	if !ok {
		return nil
	}
	ov, ok := oldMap[name]
	if !ok {
		return nil
	}
	s, ok := c.schema.Properties[name]
	if !ok {
		ap := c.schema.AdditionalProperties
		if ap == nil || ap.Schema == nil {
			return nil
		}
		s = ap.Schema
	}
	x := c.child(nv, ov, s)
	k := c.children()
	if k.byName != nil {
		k.byName[name] = x
		return x
	}
	if k.fields == nil {
		k.fields = c.alloc.fields(min(len(newMap), manyFields))
	}
	k.fields = append(k.fields, field{name, x})
	if len(k.fields) >= manyFields {
		k.byName = make(map[string]*Correlation, len(newMap))
		for _, f := range k.fields {
			k.byName[f.name] = f.c
		}
		k.fields = nil
	}
	return x
}

func (c *Correlation) children() *children {
	if c.kids == nil {
		c.kids = c.alloc.children()
	}
	return c.kids
}

// Index returns the correlation of the i-th item of a list: nil unless the
// schema makes the list an x-kubernetes-list-type map with keys and the
// old list has an item with the same key values as the new item.
func (c *Correlation) Index(i int) *Correlation {
	if c == nil || c.schema == nil {
		return nil
	}
	newList, ok := c.new.([]any)
	if !ok || i < 0 || i >= len(newList) {
		return nil
	}
	if c.kids != nil && c.kids.items != nil && c.kids.items[i] != nil {
		return c.kids.items[i]
	}
	oldList, ok := c.old.([]any)
	if !ok || c.schema.XListType == nil || *c.schema.XListType != "map" {
		// Items of atomic and set lists have no counterpart.
		return nil
	}
	c.listMap = true
	k := c.children()
	if k.oldKeys == nil {
		k.oldKeys = listmap.New(c.schema, oldList)
	}
	old, found := k.oldKeys.Lookup(newList[i])
	if !found || c.schema.Items == nil {
		return nil
	}
	if k.items == nil {
		k.items = make([]*Correlation, len(newList))
	}
	x := c.child(newList[i], old, c.schema.Items)
	k.items[i] = x
	return x
}

func (c *Correlation) child(nv, ov any, s *structural.Schema) *Correlation {
	x := c.alloc.node()
	x.new, x.old, x.schema, x.alloc = nv, ov, s, c.alloc
	return x
}

// Unchanged reports whether the new value equals the old one, as the API
// server decides it for ratcheting: two nulls are equal; values of
// different kinds (object, list, scalar) are not; objects are equal when
// they have the same number of keys and every key of the new object
// correlates (see Key) with an equal old value, so that keys without a
// schema make objects differ; lists of type map are equal when they have
// the same length and every new item correlates (see Index) with an equal
// old item, whatever their order; other lists, and scalars, are compared
// as whole values, strictly (int64 1 and float64 1 differ). The result is
// computed once. A nil c is never unchanged.
func (c *Correlation) Unchanged() bool {
	if c == nil {
		return false
	}
	if c.eq == eqUnknown {
		if c.compare() {
			c.eq = eqTrue
		} else {
			c.eq = eqFalse
		}
	}
	return c.eq == eqTrue
}

func (c *Correlation) compare() bool {
	if c.new == nil || c.old == nil {
		return c.new == nil && c.old == nil
	}
	switch n := c.new.(type) {
	case []any:
		o, ok := c.old.([]any)
		if !ok || len(n) != len(o) {
			return false
		}
		for i := range n {
			x := c.Index(i)
			if x == nil {
				if c.listMap {
					return false
				}
				// A list whose items do not correlate is one value.
				return jsonvalue.Equal(n, o)
			}
			if !x.Unchanged() {
				return false
			}
		}
		return true
	case map[string]any:
		o, ok := c.old.(map[string]any)
		if !ok || len(n) != len(o) {
			return false
		}
		for k := range n {
			x := c.Key(k)
			if x == nil || !x.Unchanged() {
				return false
			}
		}
		return true
	}
	switch c.old.(type) {
	case []any, map[string]any:
		return false
	}
	return jsonvalue.Equal(c.new, c.old)
}

// allocator hands out the nodes of one correlation from blocks, so that a
// walk over a large object allocates a few blocks rather than a node per
// value.
type allocator struct {
	nodes     []Correlation
	nodeBlock int
	kids      []children
	kidsBlock int
	// fieldBlock is carved into the fields slices of objects.
	fieldBlock []field
	fieldSize  int
}

const maxBlock = 256

func grow(size int) int {
	switch {
	case size == 0:
		return 4
	case size < maxBlock:
		return size * 2
	}
	return size
}

func (a *allocator) node() *Correlation { return next(&a.nodes, &a.nodeBlock) }

func (a *allocator) children() *children { return next(&a.kids, &a.kidsBlock) }

// next takes the first element of *block, which it first makes a new
// block of the next size (grow) when it is empty.
func next[T any](block *[]T, size *int) *T {
	if len(*block) == 0 {
		*size = grow(*size)
		*block = make([]T, *size)
	}
	x := &(*block)[0]
	*block = (*block)[1:]
	return x
}

// fields returns an empty slice with room for n fields.
func (a *allocator) fields(n int) []field {
	if n > len(a.fieldBlock) {
		a.fieldSize = grow(a.fieldSize)
		if n > a.fieldSize {
			return make([]field, 0, n)
		}
		a.fieldBlock = make([]field, a.fieldSize)
	}
	f := a.fieldBlock[:0:n]
	a.fieldBlock = a.fieldBlock[n:]
	return f
}

// Status returns the correlation that the schema validation of the status
// takes on a status subresource update, c being the correlation of the
// whole objects and s the resource's structural schema: c's status child,
// or, when the status does not correlate (the old object has none, or s no
// status property), a correlation of the two status values on their own,
// as the API server makes it. It is nil (no ratcheting) when s is nil.
func (c *Correlation) Status(s *structural.Schema) *Correlation {
	if s == nil {
		return nil
	}
	if x := c.Key("status"); x != nil {
		return x
	}
	newObj, oldObj := c.Values()
	newMap, _ := newObj.(map[string]any)
	oldMap, _ := oldObj.(map[string]any)
	return Correlate(newMap["status"], oldMap["status"], s.Properties["status"])
}
