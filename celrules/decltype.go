package celrules

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"

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
	fields map[string]*declField // objects, by escaped name
	key    *declType             // maps
	elem   *declType             // lists and maps

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

	// digests, computed once on first use (digest).
	digestOnce sync.Once
	digests    typeDigests
}

// A typeDigest identifies a type: two types with the same digest are
// equal for what it covers (SHA-256 over a canonical encoding that
// includes the digests of the types below; a collision would need a
// SHA-256 collision).
type typeDigest [sha256.Size]byte

// typeDigests are the two identities of a type.
type typeDigests struct {
	// full covers everything compiling a rule over the type depends on:
	// its declarations and its size bounds (the cost estimates).
	full typeDigest
	// decl covers what the CEL environment of a node of this type
	// declares: kinds, field names and CEL types, without the bounds.
	decl typeDigest
}

// digest returns t's digests, computing them (and those of the types
// below) once.
func (t *declType) digest() *typeDigests {
	var buf []byte
	return t.childDigest(&buf)
}

// childDigest returns t's digests, computing them and those of the types
// below (a declType is a tree no deeper than maxSchemaDepth) once; buf is
// scratch space.
func (t *declType) childDigest(buf *[]byte) *typeDigests {
	t.digestOnce.Do(func() { t.digests = t.encodeDigest(buf) })
	return &t.digests
}

// encodeDigest computes t's digests from those of the types below.
func (t *declType) encodeDigest(buf *[]byte) typeDigests {
	names := make([]string, 0, len(t.fields))
	for n := range t.fields {
		names = append(names, n)
	}
	sort.Strings(names)
	fields := make([]*typeDigests, len(names))
	for i, n := range names {
		if f := t.fields[n]; f.typ != nil {
			fields[i] = f.typ.childDigest(buf)
		}
	}
	var key, elem *typeDigests
	if t.key != nil {
		key = t.key.childDigest(buf)
	}
	if t.elem != nil {
		elem = t.elem.childDigest(buf)
	}
	var out typeDigests
	for _, full := range []bool{true, false} {
		b := (*buf)[:0]
		str := func(s string) []byte {
			b = binary.BigEndian.AppendUint64(b, uint64(len(s)))
			return append(b, s...)
		}
		num := func(v int64) {
			if full {
				b = binary.BigEndian.AppendUint64(b, uint64(v))
			}
		}
		flag := func(v bool) {
			if full {
				b = append(b, byte(b2i(v)))
			}
		}
		child := func(d *typeDigests) {
			switch {
			case d == nil:
				b = append(b, 0)
			case full:
				b = append(append(b, 1), d.full[:]...)
			default:
				b = append(append(b, 1), d.decl[:]...)
			}
		}
		b = append(b, byte(t.kind))
		b = str(t.name)
		// The CEL type of a list, map or object follows from its kind, its
		// name and the types below; only a scalar's says more.
		if t.kind == kindScalar && t.celType != nil {
			b = str(t.celType.String())
		} else {
			b = append(b, 0)
		}
		num(t.maxElements)
		num(t.minSize)
		flag(t.unbounded)
		flag(t.intOrString)
		b = binary.BigEndian.AppendUint64(b, uint64(len(names)))
		for i, n := range names {
			b = str(n)
			child(fields[i])
		}
		child(key)
		child(elem)
		if full {
			out.full = sha256.Sum256(b)
		} else {
			out.decl = sha256.Sum256(b)
		}
		*buf = b
	}
	return out
}

// declField is one property of an object declType.
type declField struct {
	typ *declType
}

func newScalarType(name string, t *cel.Type, minSize int64) *declType {
	return &declType{kind: kindScalar, name: name, celType: t, minSize: minSize}
}

func newListType(elem *declType, maxItems int64) *declType {
	return &declType{kind: kindList, name: "list", elem: elem, maxElements: maxItems,
		minSize: 2, celType: cel.ListType(elem.celType)}
}

func newMapType(key, elem *declType, maxProps int64) *declType {
	return &declType{kind: kindMap, name: "map", key: key, elem: elem, maxElements: maxProps,
		minSize: 2, celType: cel.MapType(key.celType, elem.celType)}
}

func newObjectType(name string, fields map[string]*declField) *declType {
	return &declType{kind: kindObject, name: name, fields: fields, minSize: 2,
		celType: cel.ObjectType(name)}
}

var (
	boolDecl   = newScalarType("bool", cel.BoolType, minBoolSize)
	intDecl    = newScalarType("int", cel.IntType, minNumberSize)
	doubleDecl = newScalarType("double", cel.DoubleType, minNumberSize)
)

// stringKeyDecl is the key type of maps; it is never size-estimated.
func stringKeyDecl() *declType { return newScalarType("string", cel.StringType, minStringSize) }

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
		t := newScalarType("dyn", cel.DynType, 1).bounded(validationOf(s).MaxLength, 4)
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
		if vv.MaxItems != nil {
			return newListType(elem, nonNegative(*vv.MaxItems))
		}
		t := newListType(elem, (maxRequestSize-2)/(elem.minSize+1))
		t.unbounded = true
		return t
	case "object":
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			ap := s.AdditionalProperties.Schema
			elem := child(ap, ap.XEmbeddedResource)
			if elem == nil {
				return nil
			}
			if vv.MaxProperties != nil {
				return newMapType(stringKeyDecl(), elem, nonNegative(*vv.MaxProperties))
			}
			t := newMapType(stringKeyDecl(), elem, (maxRequestSize-2)/(elem.minSize+6))
			t.unbounded = true
			return t
		}
		fields := make(map[string]*declField, len(s.Properties))
		minSize := int64(2)
		for name, prop := range s.Properties {
			ft := child(prop, prop != nil && prop.XEmbeddedResource)
			if ft == nil {
				continue
			}
			if escaped, ok := escapeProperty(name); ok {
				fields[escaped] = &declField{typ: ft}
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
			return newScalarType("bytes", cel.BytesType, minStringSize).bounded(vv.MaxLength, 1)
		case "duration":
			t := newScalarType("duration", cel.DurationType, minDurationSize)
			t.maxElements = maxDurationSize
			return t
		case "date":
			t := newScalarType("timestamp", cel.TimestampType, dateSize)
			t.maxElements = dateSize
			return t
		case "date-time":
			t := newScalarType("timestamp", cel.TimestampType, minDateTimeSize)
			t.maxElements = maxDateTimeSize
			return t
		}
		t := newScalarType("string", cel.StringType, minStringSize)
		if vv.MaxLength != nil || len(vv.Enum) == 0 {
			return t.bounded(vv.MaxLength, 4)
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
// to the request-size worst case.
func (t *declType) bounded(limit *int64, perUnit int64) *declType {
	if limit != nil {
		t.maxElements = nonNegative(*limit) * perUnit
	} else {
		t.maxElements = maxRequestSize - 2
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

// withTypeNames returns t with object types named after their position
// under name (name, name.field, name.list.@idx, name.map.@elem), as CEL
// needs distinct names for distinct object types. Types that contain no
// object are returned as they are.
func (t *declType) withTypeNames(name string) *declType {
	switch t.kind {
	case kindObject:
		changed := t.name == "object" // a name is to be given
		if !changed {
			name = t.name
		}
		fields := make(map[string]*declField, len(t.fields))
		for fn, f := range t.fields {
			nt := f.typ.withTypeNames(name + "." + fn)
			if nt == f.typ {
				fields[fn] = f
				continue
			}
			changed = true
			fields[fn] = &declField{typ: nt}
		}
		if !changed {
			return t
		}
		out := newObjectType(name, fields)
		out.minSize = t.minSize
		out.maxElements = t.maxElements
		return out
	case kindMap:
		ne := t.elem.withTypeNames(name + ".@elem")
		if ne == t.elem {
			return t
		}
		out := newMapType(t.key, ne, t.maxElements)
		out.unbounded = t.unbounded
		return out
	case kindList:
		ne := t.elem.withTypeNames(name + ".@idx")
		if ne == t.elem {
			return t
		}
		out := newListType(ne, t.maxElements)
		out.unbounded = t.unbounded
		return out
	}
	return t
}

func (t *declType) String() string { return fmt.Sprintf("%s(%s)", t.name, t.celType) }
