package celrules

import (
	"encoding/base64"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/crdschema/crdschema/internal/dates"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/release"
	"github.com/crdschema/crdschema/structural"
)

// valueSchema is the part of a schema node that converting an object value
// to CEL needs, prepared once per compiled schema. Resource roots and
// embedded resources carry their apiVersion, kind and metadata properties.
type valueSchema struct {
	s *structural.Schema
	// props are the object's known properties; nil when the node has none
	// (then it is a map, or an object CEL sees no fields of).
	props      map[string]*valueSchema
	additional *valueSchema
	items      *valueSchema
	// mapKeys are the escaped x-kubernetes-list-map-keys of a map list.
	mapKeys []string
	// nullsUnequal makes an object with a null (or unaddressable)
	// property unequal to any object, itself included, as before
	// Kubernetes 1.34.
	nullsUnequal bool
	// rawLists gives lists the semantics of releases before 1.37, which
	// key set and map lists by their raw JSON elements and append raw
	// values (see legacylists.go).
	rawLists bool
}

// newValueSchema prepares s, at depth in the schema, for value conversion
// as the API server of release rel converts values. resourceRoot adds the
// resource properties at the top.
func newValueSchema(s *structural.Schema, resourceRoot bool, rel release.Minor, depth int) *valueSchema {
	if s == nil || depth > maxSchemaDepth {
		return nil
	}
	if s.XEmbeddedResource && s.Type == "object" {
		resourceRoot = true
	}
	if resourceRoot && !s.XIntOrString {
		s = withTypeAndObjectMeta(s, true)
	}
	v := &valueSchema{s: s, nullsUnequal: rel < 34, rawLists: rel < 37}
	if s.Properties != nil {
		v.props = make(map[string]*valueSchema, len(s.Properties))
		for k, p := range s.Properties {
			v.props[k] = newValueSchema(p, false, rel, depth+1)
		}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		v.additional = newValueSchema(s.AdditionalProperties.Schema, false, rel, depth+1)
	}
	if s.Items != nil {
		v.items = newValueSchema(s.Items, false, rel, depth+1)
	}
	if s.XListType != nil && *s.XListType == "map" {
		v.mapKeys = make([]string, len(s.XListMapKeys))
		for i, k := range s.XListMapKeys {
			v.mapKeys[i] = k
			if e, ok := escapeProperty(k); ok {
				v.mapKeys[i] = e
			}
		}
	}
	return v
}

// toVal converts an unstructured value of the node v describes into a CEL
// value, lazily: objects and lists convert their members when accessed.
func toVal(u any, v *valueSchema) ref.Val {
	if v == nil {
		return types.NewErr("invalid data, no schema for value")
	}
	s := v.s
	if u == nil {
		if s.Nullable {
			return types.NullValue
		}
		return types.NewErr("invalid data, got null for schema with nullable=false")
	}
	if s.XIntOrString {
		if str, ok := u.(string); ok {
			return types.String(str)
		}
		if i, ok := integer(u); ok {
			return types.Int(i)
		}
		return types.NewErr("invalid data, expected XIntOrString value to be either a string or integer")
	}
	switch s.Type {
	case "object":
		m, ok := u.(map[string]any)
		if !ok {
			return types.NewErr("invalid data, expected a map for the provided schema with type=object")
		}
		return &objectVal{m: m, vs: v}
	case "array":
		l, ok := u.([]any)
		if !ok {
			return types.NewErr("invalid data, expected an array for the provided schema with type=array")
		}
		if v.items == nil {
			return types.NewErr("invalid array type, expected Items with a non-empty Schema")
		}
		// Before 1.37, lists work on their raw elements (legacylists.go).
		lv := listVal{elems: l, items: v.items}
		switch {
		case s.XListType == nil || *s.XListType == "atomic":
			if v.rawLists {
				return &rawListVal{lv}
			}
			return &lv
		case *s.XListType == "map":
			if v.rawLists {
				return &rawMapListVal{rawListVal: rawListVal{lv}, keys: v.mapKeys}
			}
			return &mapListVal{listVal: lv, keys: v.mapKeys}
		case *s.XListType == "set":
			if v.rawLists {
				return &rawSetListVal{rawListVal: rawListVal{lv}}
			}
			return &setListVal{listVal: lv}
		}
		return types.NewErr("invalid x-kubernetes-list-type, expected 'map', 'set' or 'atomic' but got %s", *s.XListType)
	case "string":
		str, ok := u.(string)
		if !ok {
			return types.NewErr("invalid data, expected string, got %T", u)
		}
		switch validationOf(s).Format {
		case "duration":
			d, err := dates.ParseDuration(str)
			if err != nil {
				return types.NewErr("Invalid duration %s: %v", str, err)
			}
			return types.Duration{Duration: d}
		case "date":
			d, err := time.Parse("2006-01-02", str)
			if err != nil {
				return types.NewErr("Invalid date formatted string %s: %v", str, err)
			}
			return types.Timestamp{Time: d}
		case "date-time":
			d, err := parseDateTime(str)
			if err != nil {
				return types.NewErr("Invalid date-time formatted string %s: %v", str, err)
			}
			return types.Timestamp{Time: d}
		case "byte":
			b, err := base64.URLEncoding.DecodeString(str)
			if err != nil {
				return types.NewErr("Invalid byte formatted string %s: %v", str, err)
			}
			return types.Bytes(b)
		}
		return types.String(str)
	case "number":
		switch x := u.(type) {
		case float32:
			return types.Double(x)
		case float64:
			return types.Double(x)
		}
		if i, ok := integer(u); ok {
			return types.Double(i)
		}
		return types.NewErr("invalid data, expected float, got %T", u)
	case "integer":
		if i, ok := integer(u); ok {
			return types.Int(i)
		}
		return types.NewErr("invalid data, expected int, got %T", u)
	case "boolean":
		b, ok := u.(bool)
		if !ok {
			return types.NewErr("invalid data, expected bool, got %T", u)
		}
		return types.Bool(b)
	}
	if s.XPreserveUnknownFields {
		return &preservedVal{u: u}
	}
	return types.NewErr("invalid type, expected object, array, number, integer, boolean or string, or no type with x-kubernetes-int-or-string or x-kubernetes-preserve-unknown-fields is true, got %s", s.Type)
}

// integer returns the whole number u holds as one of Go's integer types.
func integer(u any) (int64, bool) {
	switch x := u.(type) {
	case int:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	}
	return 0, false
}

// preservedVal is a value of an untyped node kept by
// x-kubernetes-preserve-unknown-fields; CEL can only compare it.
type preservedVal struct{ u any }

func (p *preservedVal) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion to '%s' not supported for values preserved by x-kubernetes-preserve-unknown-fields", t)
}

func (p *preservedVal) ConvertToType(t ref.Type) ref.Val {
	return types.NewErr("type conversion to '%s' not supported for values preserved by x-kubernetes-preserve-unknown-fields", t.TypeName())
}

func (p *preservedVal) Equal(other ref.Val) ref.Val {
	return types.Bool(jsonvalue.SemanticEqual(p.u, other.Value()))
}
func (p *preservedVal) Type() ref.Type { return types.UnknownType }
func (p *preservedVal) Value() any     { return p.u }

// objectVal is an object value: either a struct-like object over the
// node's properties (keys escaped as in CEL) or a map over
// additionalProperties.
type objectVal struct {
	m  map[string]any
	vs *valueSchema
}

func (o *objectVal) isObject() bool { return o.vs.props != nil }

// member returns the schema of key, if CEL sees that key.
func (o *objectVal) member(key string) (*valueSchema, bool) {
	if o.vs.props != nil {
		p, ok := o.vs.props[key]
		return p, ok
	}
	if o.vs.additional != nil {
		return o.vs.additional, true
	}
	return nil, false
}

func (o *objectVal) ConvertToNative(t reflect.Type) (any, error) {
	if t.Kind() == reflect.Map {
		return o.m, nil
	}
	return nil, fmt.Errorf("type conversion error from '%s' to '%s'", o.Type(), t)
}

func (o *objectVal) ConvertToType(t ref.Type) ref.Val { return convertToType(o, types.MapType, t) }

// convertToType converts v, a list or map of CEL type typ, to the type t:
// to its own type, or to its type as a value.
func convertToType(v ref.Val, typ *types.Type, t ref.Type) ref.Val {
	switch t {
	case typ:
		return v
	case types.TypeType:
		return typ
	}
	return types.NewErr("type conversion error from '%s' to '%s'", typ, t.TypeName())
}

// Equal compares o with other field by field. The API server returns the
// first result other than true in Go's map order, so an object with one
// field that differs and another that cannot be compared (a value of the
// wrong type) gives false or an error at random. Equal gives one of those
// results every time: false when some field differs, else the error of
// the first such field in key order.
func (o *objectVal) Equal(other ref.Val) ref.Val {
	om, ok := other.(traits.Mapper)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	if o.Size() != om.Size() {
		return types.False
	}
	var errKey string
	var errVal ref.Val
	for k, v := range o.m {
		if _, ok := o.member(k); ok {
			mine, found := o.Find(types.String(k))
			theirs, oFound := om.Find(types.String(k))
			if found != oFound || (!oFound && o.vs.nullsUnequal) {
				return types.False
			}
			if !found {
				continue
			}
			switch eq := mine.Equal(theirs); {
			case eq == types.True:
			case eq == types.False:
				return types.False
			case errVal == nil || k < errKey:
				errKey, errVal = k, eq
			}
			continue
		}
		ou, ok := other.(*objectVal)
		if !ok {
			if errVal == nil || k < errKey {
				errKey, errVal = k, types.MaybeNoSuchOverloadErr(other)
			}
			continue
		}
		if ov, ok := ou.m[k]; ok && !jsonvalue.SemanticEqual(v, ov) {
			return types.False
		}
	}
	if errVal != nil {
		return errVal
	}
	return types.True
}

func (o *objectVal) Type() ref.Type { return types.MapType }
func (o *objectVal) Value() any     { return o.m }

func (o *objectVal) Contains(key ref.Val) ref.Val {
	v, found := o.Find(key)
	if v != nil && types.IsUnknownOrError(v) {
		return v
	}
	return types.Bool(found)
}

func (o *objectVal) Get(key ref.Val) ref.Val {
	if v, found := o.Find(key); found {
		return v
	}
	return types.ValOrErr(key, "no such key: %v", key)
}

func (o *objectVal) Iterator() traits.Iterator {
	keys := make([]ref.Val, 0, len(o.m))
	isObj := o.isObject()
	for k := range o.m {
		if _, ok := o.member(k); !ok {
			continue
		}
		name := k
		if isObj {
			if e, ok := escapeProperty(k); ok {
				name = e
			}
		}
		keys = append(keys, types.String(name))
	}
	// In key order: the API server iterates in Go's map order, which
	// changes from run to run, and so can the first error of a
	// comprehension over a map with several bad values; any fixed order is
	// one the API server can take, and this one gives the same answer
	// every time.
	slices.SortFunc(keys, func(a, b ref.Val) int { return strings.Compare(string(a.(types.String)), string(b.(types.String))) })
	return &keyIter{keys: keys}
}

func (o *objectVal) Size() ref.Val { return types.Int(len(o.m)) }

func (o *objectVal) Find(key ref.Val) (ref.Val, bool) {
	ks, ok := key.(types.String)
	if !ok {
		return types.MaybeNoSuchOverloadErr(key), true
	}
	k := string(ks)
	isObj := o.isObject()
	if isObj {
		if k, ok = unescapeProperty(k); !ok {
			return nil, false
		}
	}
	v, ok := o.m[k]
	if !ok || (isObj && v == nil) {
		return nil, false
	}
	if p, ok := o.member(k); ok {
		return toVal(v, p), true
	}
	return nil, false
}

type keyIter struct {
	iterator
	keys []ref.Val
	i    int
}

// iterator is what the iterators of objects and lists share: the
// ref.Val methods, which CEL never calls on an iterator but the
// interface requires.
type iterator struct{}

func (iterator) ConvertToNative(reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion on iterators not supported")
}
func (iterator) ConvertToType(ref.Type) ref.Val { return types.NewErr("no such overload") }
func (iterator) Equal(ref.Val) ref.Val          { return types.NewErr("no such overload") }
func (iterator) Type() ref.Type                 { return types.IteratorType }
func (iterator) Value() any                     { return nil }

func (it *keyIter) HasNext() ref.Val { return types.Bool(it.i < len(it.keys)) }
func (it *keyIter) Next() ref.Val {
	if it.i >= len(it.keys) {
		return types.NewErr("no more elements")
	}
	k := it.keys[it.i]
	it.i++
	return k
}
