package celrules

import (
	"fmt"
	"hash/maphash"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/google/cel-go/cel"

	"github.com/crdschema/crdschema/internal/release"
	"github.com/crdschema/crdschema/structural"
)

// Size limits that shape the type declarations and therefore the cost
// estimates. They are the API server's.
const (
	// maxRequestSize is the largest request body the API server accepts; it
	// bounds the size of every value a rule can see.
	maxRequestSize = 3 * 1024 * 1024

	minStringSize       = 2  // ""
	minBoolSize         = 4  // true
	minNumberSize       = 1  // 0
	minDurationSize     = 3  // "0s"... quoted
	maxDurationSize     = 32 // longest serialized duration
	dateSize            = 12 // "2006-01-02" quoted
	minDateTimeSize     = 21 // shortest serialized RFC 3339 date-time, quoted
	maxDateTimeSize     = 32 // longest serialized RFC 3339 date-time, quoted
	resourceNameMaxSize = 253
)

// typeKind tells what a declType describes.
type typeKind uint8

const (
	kindScalar typeKind = iota
	kindList
	kindMap
	kindObject
)

// declType is the CEL view of one schema node: its CEL type and the size
// bounds the cost estimator uses.
type declType struct {
	kind typeKind
	// name is the type name: "object" (or the assigned selfType name) for
	// objects, "list", "map", or the scalar's name.
	name   string
	fields map[string]*declType // objects, by escaped name
	key    *declType            // maps
	elem   *declType            // lists and maps

	// maxElements bounds the number of items, properties or bytes (strings
	// count 4 bytes per declared character) a value of this type may hold.
	maxElements int64
	// minSize is the smallest serialized size of a value of this type.
	minSize int64
	// unbounded tells that maxElements is the request-size worst case:
	// the schema sets no maxItems, maxProperties or maxLength.
	unbounded bool
	// intOrString marks an x-kubernetes-int-or-string value, whose
	// maxLength Kubernetes 1.33 did not use to bound its size.
	intOrString bool

	celType *cel.Type

	// interned holds t's ids in the interner that gave them first
	// (typeInterner.ids).
	interned atomic.Pointer[internedIDs]
}

// A typeID identifies a type in one Cache's typeInterner: two types have
// the same id exactly when they are equal, the types below compared by
// their ids. Ids are exact, not hashes: no schema can make two different
// types share one.
type typeID uint32

// typeIDs are the two identities of a type.
type typeIDs struct {
	// full covers everything compiling a rule over the type depends on:
	// its declarations and its size bounds (the cost estimates).
	full typeID
	// decl covers what the CEL environment of a node of this type
	// declares: kinds, field names and CEL types, without the bounds.
	decl typeID
}

// internedIDs are a type's ids in the interner owner.
type internedIDs struct {
	owner *typeInterner
	ids   typeIDs
}

// A typeInterner gives every distinct type an id (typeID), the types below
// first (hash-consing): a type gets the id of the first type it equals,
// found through a hash of it and compared in full; its zero value is
// ready to use.
type typeInterner struct {
	mu   sync.Mutex
	seed maphash.Seed
	// index holds the last id given to a type of each hash; types the
	// type of each id (by id-1), with the id given before it to a type
	// of the same hash.
	index map[uint64]typeID
	types []internedType
	// foreign holds the ids of the types that hold those of another
	// interner (the scalar types are shared).
	foreign map[*declType]typeIDs
}

// internedType is the first type that got an id, for its full or its
// declaration identity, and for a full identity the id of its
// declarations, once known.
type internedType struct {
	t      *declType
	decl   bool
	next   typeID
	declID typeID
}

// ids returns t's ids in in, giving ids to t and the types below it that
// have none (a declType is a tree no deeper than maxSchemaDepth).
func (in *typeInterner) ids(t *declType) typeIDs {
	if m := t.interned.Load(); m != nil && m.owner == in {
		return m.ids
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.index == nil {
		in.index = map[uint64]typeID{}
		in.seed = maphash.MakeSeed()
	}
	return in.intern(t)
}

// intern is ids with in.mu held.
func (in *typeInterner) intern(t *declType) typeIDs {
	if t == nil {
		return typeIDs{}
	}
	if m := t.interned.Load(); m != nil && m.owner == in {
		return m.ids
	} else if ids, ok := in.foreign[t]; ok {
		return ids
	}
	// The hashes of the fields add up, in whatever order the map gives
	// them.
	var full, decl uint64
	for n, f := range t.fields {
		c, h := in.intern(f), maphash.String(in.seed, n)
		full += mix(h + uint64(c.full))
		decl += mix(h + uint64(c.decl)<<32)
	}
	k, e := in.intern(t.key), in.intern(t.elem)
	h := mix(maphash.String(in.seed, t.name) + uint64(t.kind))
	full = mix(h + full + mix(uint64(k.full)+uint64(e.full)<<32) + mix(uint64(t.maxElements)) +
		mix(uint64(t.minSize)<<2|uint64(b2i(t.unbounded))<<1|uint64(b2i(t.intOrString))))
	// The hash of the declarations is that of what equal compares with
	// decl set.
	decl = mix(h + decl + mix(uint64(k.decl)+uint64(e.decl)<<32) + 1)
	ids := typeIDs{full: in.find(t, full, false)}
	if ids.decl = in.types[ids.full-1].declID; ids.decl == 0 {
		ids.decl = in.find(t, decl, true)
		in.types[ids.full-1].declID = ids.decl
	} // else t equals the type that got ids.full first, with these declarations
	if !t.interned.CompareAndSwap(nil, &internedIDs{in, ids}) {
		if in.foreign == nil {
			in.foreign = map[*declType]typeIDs{}
		}
		in.foreign[t] = ids
	}
	return ids
}

// find returns the id of the full (or with decl the declaration) identity
// of t, whose hash is h, giving it the next id when no type before had it.
func (in *typeInterner) find(t *declType, h uint64, decl bool) typeID {
	for id := in.index[h]; id != 0; id = in.types[id-1].next {
		if e := in.types[id-1]; e.decl == decl && in.equal(t, e.t, decl) {
			return id
		}
	}
	in.types = append(in.types, internedType{t: t, decl: decl, next: in.index[h]})
	id := typeID(len(in.types))
	in.index[h] = id
	return id
}

// equal reports whether the full (or with decl the declaration) identities
// of a and b are equal, the types below compared by their ids.
func (in *typeInterner) equal(a, b *declType, decl bool) bool {
	if a.kind != b.kind || a.name != b.name || len(a.fields) != len(b.fields) ||
		a.kind == kindScalar && a.celType != b.celType {
		return false
	}
	if !decl && (a.maxElements != b.maxElements || a.minSize != b.minSize ||
		a.unbounded != b.unbounded || a.intOrString != b.intOrString) {
		return false
	}
	same := func(x, y *declType) bool {
		ix, iy := in.intern(x), in.intern(y)
		if decl {
			return ix.decl == iy.decl
		}
		return ix.full == iy.full
	}
	if !same(a.key, b.key) || !same(a.elem, b.elem) {
		return false
	}
	for n, f := range a.fields {
		g, ok := b.fields[n]
		if !ok || !same(f, g) {
			return false
		}
	}
	return true
}

// mix scrambles the bits of x (the finalizer of SplitMix64).
func mix(x uint64) uint64 {
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

func newScalarType(name string, t *cel.Type, minSize, maxSize int64) *declType {
	return &declType{kind: kindScalar, name: name, celType: t, minSize: minSize, maxElements: maxSize}
}

func newListType(elem *declType, maxItems int64) *declType {
	return &declType{kind: kindList, name: "list", elem: elem, maxElements: maxItems,
		minSize: 2, celType: cel.ListType(elem.celType)}
}

func newMapType(key, elem *declType, maxProps int64) *declType {
	return &declType{kind: kindMap, name: "map", key: key, elem: elem, maxElements: maxProps,
		minSize: 2, celType: cel.MapType(key.celType, elem.celType)}
}

func newObjectType(name string, fields map[string]*declType) *declType {
	return &declType{kind: kindObject, name: name, fields: fields, minSize: 2,
		celType: cel.ObjectType(name)}
}

var (
	boolDecl   = newScalarType("bool", cel.BoolType, minBoolSize, 0)
	intDecl    = newScalarType("int", cel.IntType, minNumberSize, 0)
	doubleDecl = newScalarType("double", cel.DoubleType, minNumberSize, 0)
)

// stringKeyDecl is the key type of maps; it is never size-estimated.
func stringKeyDecl() *declType { return newScalarType("string", cel.StringType, minStringSize, 0) }

// declTypeAt returns the CEL type declaration of the schema node s as
// the API server of release rel derives it, or nil when CEL cannot see
// values of that node (no type, or an array without items).
// isResourceRoot adds apiVersion, kind and metadata as the API server does
// for the root and embedded resources. Before 1.37 metadata.name and
// generateName carry no length limit, so that rules on them are estimated
// as on any unbounded string. It goes through c's types by node when c
// keeps them (ShareNodeTypes); c may be nil.
func (c *Cache) declTypeAt(s *structural.Schema, isResourceRoot bool, rel release.Minor) *declType {
	var m *nodeTypes
	if c != nil {
		m = c.nodeTypes
	}
	t, _ := declTypeReach(s, isResourceRoot, rel >= 37, 0, m)
	return t
}

// maxSchemaDepth bounds the recursion over pathological schemas.
const maxSchemaDepth = 1000

// declTypeReach derives the type of s at depth (declTypeAt), and returns
// how far below s the derivation went (-1 when it stopped at
// maxSchemaDepth): a type kept by node serves any depth from which it
// reaches no deeper than maxSchemaDepth.
func declTypeReach(s *structural.Schema, isResourceRoot, capNames bool, depth int, m *nodeTypes) (*declType, int) {
	if s == nil {
		return nil, 0
	}
	if depth > maxSchemaDepth {
		return nil, -1
	}
	k := nodeTypeKey{s: s, isResourceRoot: isResourceRoot, capNames: capNames}
	if m != nil {
		m.mu.Lock()
		e, ok := m.types[k]
		m.mu.Unlock()
		if ok && depth+e.reach <= maxSchemaDepth {
			return e.t, e.reach
		}
	}
	reach := 0
	t := deriveDeclType(s, isResourceRoot, capNames, func(c *structural.Schema, root bool) *declType {
		ct, r := declTypeReach(c, root, capNames, depth+1, m)
		switch {
		case r < 0 || reach < 0:
			reach = -1
		case r+1 > reach:
			reach = r + 1
		}
		return ct
	})
	if m != nil && reach >= 0 {
		m.mu.Lock()
		m.types[k] = nodeType{t, reach}
		m.mu.Unlock()
	}
	return t, reach
}

// deriveDeclType derives the type of the node s from the types of the
// nodes below it, which child derives.
func deriveDeclType(s *structural.Schema, isResourceRoot, capNames bool, child func(s *structural.Schema, isResourceRoot bool) *declType) *declType {
	if s.XIntOrString {
		t := newScalarType("dyn", cel.DynType, 1, 0).bounded(validationOf(s).MaxLength, 4, maxRequestSize-2)
		t.intOrString = true
		return t
	}
	if isResourceRoot {
		s = withTypeAndObjectMeta(s, capNames)
	}
	vv := validationOf(s)
	switch s.Type {
	case "array":
		if s.Items == nil {
			return nil
		}
		elem := child(s.Items, s.Items.XEmbeddedResource)
		if elem == nil {
			return nil
		}
		return newListType(elem, 0).bounded(vv.MaxItems, 1, (maxRequestSize-2)/(elem.minSize+1))
	case "object":
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			ap := s.AdditionalProperties.Schema
			elem := child(ap, ap.XEmbeddedResource)
			if elem == nil {
				return nil
			}
			return newMapType(stringKeyDecl(), elem, 0).bounded(vv.MaxProperties, 1, (maxRequestSize-2)/(elem.minSize+6))
		}
		fields := make(map[string]*declType, len(s.Properties))
		minSize := int64(2)
		for name, prop := range s.Properties {
			ft := child(prop, prop != nil && prop.XEmbeddedResource)
			if ft == nil {
				continue
			}
			if escaped, ok := escapeProperty(name); ok {
				fields[escaped] = ft
			}
			if prop.Default == nil && slices.Contains(vv.Required, name) {
				minSize += int64(len(name)) + ft.minSize + 4
			}
		}
		t := newObjectType("object", fields)
		t.minSize = minSize
		return t
	case "string":
		switch vv.Format {
		case "byte":
			return newScalarType("bytes", cel.BytesType, minStringSize, 0).bounded(vv.MaxLength, 1, maxRequestSize-2)
		case "duration":
			return newScalarType("duration", cel.DurationType, minDurationSize, maxDurationSize)
		case "date":
			return newScalarType("timestamp", cel.TimestampType, dateSize, dateSize)
		case "date-time":
			return newScalarType("timestamp", cel.TimestampType, minDateTimeSize, maxDateTimeSize)
		}
		t := newScalarType("string", cel.StringType, minStringSize, 0)
		if vv.MaxLength != nil || len(vv.Enum) == 0 {
			return t.bounded(vv.MaxLength, 4, maxRequestSize-2)
		}
		for _, e := range vv.Enum {
			if str, ok := e.Value.(string); ok && int64(len(str)) > t.maxElements {
				t.maxElements = int64(len(str))
			}
		}
		return t
	case "boolean":
		return boolDecl
	case "number":
		return doubleDecl
	case "integer":
		return intDecl
	}
	return nil
}

// noValidation stands for a schema node without value validation.
var noValidation structural.ValueValidation

// validationOf returns the value validation of s, never nil.
func validationOf(s *structural.Schema) *structural.ValueValidation {
	if s.ValueValidation == nil {
		return &noValidation
	}
	return s.ValueValidation
}

// bounded sets t's maxElements to limit times perUnit or, without a limit,
// to worst, the request-size worst case.
func (t *declType) bounded(limit *int64, perUnit, worst int64) *declType {
	if limit != nil {
		t.maxElements = nonNegative(*limit) * perUnit
	} else {
		t.maxElements = worst
		t.unbounded = true
	}
	return t
}

func nonNegative(v int64) int64 {
	if v < 0 {
		return 0
	}
	return v
}

// withTypeAndObjectMeta returns s with the properties every resource has
// as CEL sees them: apiVersion and kind strings, and metadata reduced to
// name and generateName, with their length limits when capNames is set (as
// from Kubernetes 1.37). s is returned unchanged when it already declares
// all of them as strings.
func withTypeAndObjectMeta(s *structural.Schema, capNames bool) *structural.Schema {
	if hasTypeAndObjectMeta(s) {
		return s
	}
	out := &structural.Schema{
		Generic:              s.Generic,
		Extensions:           s.Extensions,
		AdditionalProperties: s.AdditionalProperties,
		ValueValidation:      s.ValueValidation,
		XValidations:         s.XValidations,
	}
	props := make(map[string]*structural.Schema, len(s.Properties)+3)
	maps.Copy(props, s.Properties)
	props["kind"] = &structural.Schema{Generic: structural.Generic{Type: "string"}}
	props["apiVersion"] = &structural.Schema{Generic: structural.Generic{Type: "string"}}
	var metaProps map[string]*structural.Schema
	if m := s.Properties["metadata"]; m != nil {
		metaProps = m.Properties
	}
	name, generateName := plainString, plainString
	if capNames {
		name, generateName = cappedString(metaProps["name"], resourceNameMaxSize), cappedString(metaProps["generateName"], resourceNameMaxSize-1)
	}
	props["metadata"] = &structural.Schema{
		Generic:    structural.Generic{Type: "object"},
		Properties: map[string]*structural.Schema{"name": name, "generateName": generateName},
	}
	out.Properties = props
	return out
}

// plainString is a string schema without limits.
var plainString = &structural.Schema{Generic: structural.Generic{Type: "string"}}

func hasTypeAndObjectMeta(s *structural.Schema) bool {
	typ := func(p *structural.Schema) string {
		if p == nil {
			return ""
		}
		return p.Type
	}
	if s.Properties == nil || typ(s.Properties["kind"]) != "string" ||
		typ(s.Properties["apiVersion"]) != "string" || typ(s.Properties["metadata"]) != "object" {
		return false
	}
	mp := s.Properties["metadata"].Properties
	return mp != nil && typ(mp["name"]) == "string" && typ(mp["generateName"]) == "string"
}

func cappedString(existing *structural.Schema, limit int64) *structural.Schema {
	if existing != nil && existing.ValueValidation != nil && existing.ValueValidation.MaxLength != nil &&
		*existing.ValueValidation.MaxLength < limit {
		limit = *existing.ValueValidation.MaxLength
	}
	return &structural.Schema{
		Generic:         structural.Generic{Type: "string"},
		ValueValidation: &structural.ValueValidation{MaxLength: &limit},
	}
}

func (t *declType) String() string { return fmt.Sprintf("%s(%s)", t.name, t.celType) }
