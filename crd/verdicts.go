package crd

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"math"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"weak"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/internal/release"
)

// A cache given with WithCache also keeps the verdicts of Validate and
// ValidateUpdate: the errors, by a SHA-256 digest of everything they
// depend on (the call, the release, and each CRD value, field by field).
// A CRD validated again, decoded anew or changed and changed back, gets
// the errors of its first validation without compiling, walking or
// evaluating anything.
//
// The verdicts live beside the celrules.Cache, as long as it does.
var verdictStores struct {
	sync.Mutex
	m map[weak.Pointer[celrules.Cache]]*verdictStore
}

type verdictStore struct {
	sync.Mutex
	m map[[sha256.Size]byte]crdschema.ErrorList
}

// verdicts returns the verdicts kept beside c.
func verdicts(c *celrules.Cache) *verdictStore {
	w := weak.Make(c)
	verdictStores.Lock()
	defer verdictStores.Unlock()
	if s := verdictStores.m[w]; s != nil {
		return s
	}
	if verdictStores.m == nil {
		verdictStores.m = map[weak.Pointer[celrules.Cache]]*verdictStore{}
	}
	s := &verdictStore{m: map[[sha256.Size]byte]crdschema.ErrorList{}}
	verdictStores.m[w] = s
	runtime.AddCleanup(c, func(w weak.Pointer[celrules.Cache]) {
		verdictStores.Lock()
		delete(verdictStores.m, w)
		verdictStores.Unlock()
	}, w)
	return s
}

// cachedVerdict returns validate's errors for the CRDs defs, from the
// verdicts of s.Cache when they hold them; otherwise it runs validate and
// keeps its errors there (unless ctx ended meanwhile, which may have cut
// the evaluation of rules short). Each call gets errors of its own; their
// bad values may be shared.
func cachedVerdict(ctx context.Context, s settings, call string, validate func() crdschema.ErrorList, defs ...*crdschema.CustomResourceDefinition) crdschema.ErrorList {
	if s.Cache == nil {
		return validate()
	}
	key, ok := digest(call, s.Version, defs)
	if !ok {
		return validate()
	}
	store := verdicts(s.Cache)
	store.Lock()
	errs, ok := store.m[key]
	store.Unlock()
	if !ok {
		errs = validate()
		if ctx != nil && ctx.Err() != nil {
			return errs
		}
		store.Lock()
		store.m[key] = copyErrors(errs)
		store.Unlock()
	}
	return copyErrors(errs)
}

func copyErrors(errs crdschema.ErrorList) crdschema.ErrorList {
	if errs == nil {
		return nil
	}
	out := make(crdschema.ErrorList, len(errs))
	for i, e := range errs {
		c := *e
		out[i] = &c
	}
	return out
}

// maxDigestDepth bounds the nesting a digest follows; a deeper value (or
// a cycle of pointers built by hand) is validated without the verdicts.
const maxDigestDepth = 1000

// digester writes values into a hash, each with its kind and, for lists
// and maps, its length, so that different values give different inputs.
type digester struct {
	h    hash.Hash
	buf  []byte   // written to h when full
	keys []string // the keys of the maps being written, sorted, as a stack
	skip bool     // a value the digest does not cover
}

var digesters = sync.Pool{New: func() any {
	return &digester{h: sha256.New(), buf: make([]byte, 0, 8<<10)}
}}

// digest returns the digest of a call of the verdicts for the CRDs defs
// at release v, or false when a value is beyond what the digest covers.
func digest(call string, v crdschema.KubernetesVersion, defs []*crdschema.CustomResourceDefinition) (key [sha256.Size]byte, ok bool) {
	d := digesters.Get().(*digester)
	defer digesters.Put(d)
	d.h.Reset()
	d.buf, d.keys, d.skip = d.buf[:0], d.keys[:0], false
	d.str(call)
	d.uint(uint64(release.Of(v)))
	for _, def := range defs {
		d.value(reflect.ValueOf(def), 0)
	}
	d.h.Write(d.buf)
	d.h.Sum(key[:0])
	clear(d.keys[:cap(d.keys)]) // keep no strings of defs
	return key, !d.skip
}

var timeType = reflect.TypeFor[time.Time]()

func (d *digester) uint(u uint64) {
	if len(d.buf)+binary.MaxVarintLen64 > cap(d.buf) {
		d.h.Write(d.buf)
		d.buf = d.buf[:0]
	}
	d.buf = binary.AppendUvarint(d.buf, u)
}

func (d *digester) str(s string) {
	d.uint(uint64(len(s)))
	if len(d.buf)+len(s) > cap(d.buf) {
		d.h.Write(d.buf)
		d.buf = d.buf[:0]
		if len(s) > cap(d.buf) {
			d.h.Write([]byte(s))
			return
		}
	}
	d.buf = append(d.buf, s...)
}

func (d *digester) value(v reflect.Value, depth int) {
	if depth > maxDigestDepth {
		d.skip = true
		return
	}
	if !v.IsValid() {
		d.uint(0)
		return
	}
	d.uint(uint64(v.Kind()))
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			d.uint(1)
		} else {
			d.uint(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		d.uint(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		d.uint(v.Uint())
	case reflect.Float32, reflect.Float64:
		d.uint(math.Float64bits(v.Float()))
	case reflect.String:
		d.str(v.String())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			d.uint(0)
			return
		}
		if v.Kind() == reflect.Interface {
			d.str(v.Elem().Type().String())
		}
		d.uint(1)
		d.value(v.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			d.uint(0)
			return
		}
		d.uint(uint64(v.Len()) + 1)
		for i := range v.Len() {
			d.value(v.Index(i), depth+1)
		}
	case reflect.Map:
		if v.IsNil() {
			d.uint(0)
			return
		}
		d.uint(uint64(v.Len()) + 1)
		if v.Type().Key().Kind() != reflect.String {
			d.skip = true // none in a CRD
			return
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			d.value(k, depth+1)
			d.value(v.MapIndex(k), depth+1)
		}
	case reflect.Struct:
		if v.Type() == schemaType && v.CanAddr() {
			d.schema(v.Addr().Interface().(*crdschema.JSONSchemaProps), depth)
			return
		}
		if v.Type() == timeType {
			if !v.CanInterface() {
				d.skip = true
				return
			}
			b, _ := v.Interface().(time.Time).MarshalBinary()
			d.str(string(b))
			return
		}
		for i := range v.NumField() {
			d.value(v.Field(i), depth+1)
		}
	default: // functions, channels: none in a CRD
		d.skip = true
	}
}

var schemaType = reflect.TypeFor[crdschema.JSONSchemaProps]()

func (d *digester) bool(b bool) {
	if b {
		d.uint(1)
	} else {
		d.uint(0)
	}
}

func (d *digester) optBool(b *bool) {
	d.bool(b != nil)
	if b != nil {
		d.bool(*b)
	}
}

// size writes whether a list or map is nil, and its length.
func (d *digester) size(isNil bool, n int) {
	if isNil {
		d.uint(0)
	} else {
		d.uint(uint64(n) + 1)
	}
}

func (d *digester) strs(l []string) {
	d.size(l == nil, len(l))
	for _, s := range l {
		d.str(s)
	}
}

// schema writes s field by field (the bulk of a CRD, where reflection
// was most of the digest's time): first one bit per field that is set (a
// non-empty string, a non-nil pointer, list or map, a true boolean), then
// the values of those fields alone, in the same order, since most fields
// of most schemas are empty. TestDigestCoversSchema checks that every
// field counts.
func (d *digester) schema(s *crdschema.JSONSchemaProps, depth int) {
	if depth > maxDigestDepth {
		d.skip = true
		return
	}
	d.bool(s != nil)
	if s == nil {
		return
	}
	depth++
	set := schemaFieldsSet(s)
	d.uint(set)
	if set&(1<<fID) != 0 {
		d.str(s.ID)
	}
	if set&(1<<fSchema) != 0 {
		d.str(s.Schema)
	}
	if set&(1<<fRef) != 0 {
		d.str(*s.Ref)
	}
	if set&(1<<fDescription) != 0 {
		d.str(s.Description)
	}
	if set&(1<<fType) != 0 {
		d.str(s.Type)
	}
	if set&(1<<fFormat) != 0 {
		d.str(s.Format)
	}
	if set&(1<<fTitle) != 0 {
		d.str(s.Title)
	}
	if set&(1<<fDefault) != 0 {
		d.jsonValue(s.Default.Value, depth)
	}
	if set&(1<<fMaximum) != 0 {
		d.uint(math.Float64bits(*s.Maximum))
	}
	if set&(1<<fMinimum) != 0 {
		d.uint(math.Float64bits(*s.Minimum))
	}
	if set&(1<<fMaxLength) != 0 {
		d.uint(uint64(*s.MaxLength))
	}
	if set&(1<<fMinLength) != 0 {
		d.uint(uint64(*s.MinLength))
	}
	if set&(1<<fPattern) != 0 {
		d.str(s.Pattern)
	}
	if set&(1<<fMaxItems) != 0 {
		d.uint(uint64(*s.MaxItems))
	}
	if set&(1<<fMinItems) != 0 {
		d.uint(uint64(*s.MinItems))
	}
	if set&(1<<fMultipleOf) != 0 {
		d.uint(math.Float64bits(*s.MultipleOf))
	}
	if set&(1<<fEnum) != 0 {
		d.uint(uint64(len(s.Enum)))
		for i := range s.Enum {
			d.jsonValue(s.Enum[i].Value, depth)
		}
	}
	if set&(1<<fMaxProperties) != 0 {
		d.uint(uint64(*s.MaxProperties))
	}
	if set&(1<<fMinProperties) != 0 {
		d.uint(uint64(*s.MinProperties))
	}
	if set&(1<<fRequired) != 0 {
		d.strs(s.Required)
	}
	if set&(1<<fItems) != 0 {
		d.schema(s.Items.Schema, depth)
		d.schemas(s.Items.JSONSchemas, depth)
	}
	if set&(1<<fAllOf) != 0 {
		d.schemas(s.AllOf, depth)
	}
	if set&(1<<fOneOf) != 0 {
		d.schemas(s.OneOf, depth)
	}
	if set&(1<<fAnyOf) != 0 {
		d.schemas(s.AnyOf, depth)
	}
	if set&(1<<fNot) != 0 {
		d.schema(s.Not, depth)
	}
	if set&(1<<fProperties) != 0 {
		d.schemaMap(s.Properties, depth)
	}
	if set&(1<<fAdditionalProperties) != 0 {
		d.orBool(s.AdditionalProperties, depth)
	}
	if set&(1<<fPatternProperties) != 0 {
		d.schemaMap(s.PatternProperties, depth)
	}
	if set&(1<<fDependencies) != 0 {
		d.uint(uint64(len(s.Dependencies)))
		for _, k := range sortedKeys(s.Dependencies) {
			dep := s.Dependencies[k]
			d.str(k)
			d.schema(dep.Schema, depth)
			d.strs(dep.Property)
		}
	}
	if set&(1<<fAdditionalItems) != 0 {
		d.orBool(s.AdditionalItems, depth)
	}
	if set&(1<<fDefinitions) != 0 {
		d.schemaMap(s.Definitions, depth)
	}
	if set&(1<<fExternalDocs) != 0 {
		d.str(s.ExternalDocs.Description)
		d.str(s.ExternalDocs.URL)
	}
	if set&(1<<fExample) != 0 {
		d.jsonValue(s.Example.Value, depth)
	}
	if set&(1<<fXPreserveUnknownFields) != 0 {
		d.bool(*s.XPreserveUnknownFields)
	}
	if set&(1<<fXListMapKeys) != 0 {
		d.strs(s.XListMapKeys)
	}
	if set&(1<<fXListType) != 0 {
		d.str(*s.XListType)
	}
	if set&(1<<fXMapType) != 0 {
		d.str(*s.XMapType)
	}
	if set&(1<<fXValidations) != 0 {
		d.uint(uint64(len(s.XValidations)))
		for i := range s.XValidations {
			r := &s.XValidations[i]
			d.str(r.Rule)
			d.str(r.Message)
			d.str(r.MessageExpression)
			d.bool(r.Reason != nil)
			if r.Reason != nil {
				d.str(string(*r.Reason))
			}
			d.str(r.FieldPath)
			d.optBool(r.OptionalOldSelf)
		}
	}
}

// The bits of schemaFieldsSet, one per field of JSONSchemaProps; a
// boolean field is its bit.
const (
	fID = iota
	fSchema
	fRef
	fDescription
	fType
	fFormat
	fTitle
	fDefault
	fMaximum
	fExclusiveMaximum
	fMinimum
	fExclusiveMinimum
	fMaxLength
	fMinLength
	fPattern
	fMaxItems
	fMinItems
	fUniqueItems
	fMultipleOf
	fEnum
	fMaxProperties
	fMinProperties
	fRequired
	fItems
	fAllOf
	fOneOf
	fAnyOf
	fNot
	fProperties
	fAdditionalProperties
	fPatternProperties
	fDependencies
	fAdditionalItems
	fDefinitions
	fExternalDocs
	fExample
	fNullable
	fXPreserveUnknownFields
	fXEmbeddedResource
	fXIntOrString
	fXListMapKeys
	fXListType
	fXMapType
	fXValidations
)

// schemaFieldsSet returns the bits of the fields of s that are set: a
// non-empty string, a non-nil pointer, list or map, a true boolean.
func schemaFieldsSet(s *crdschema.JSONSchemaProps) uint64 {
	var set uint64
	mark := func(f int, b bool) {
		if b {
			set |= 1 << f
		}
	}
	mark(fID, s.ID != "")
	mark(fSchema, s.Schema != "")
	mark(fRef, s.Ref != nil)
	mark(fDescription, s.Description != "")
	mark(fType, s.Type != "")
	mark(fFormat, s.Format != "")
	mark(fTitle, s.Title != "")
	mark(fDefault, s.Default != nil)
	mark(fMaximum, s.Maximum != nil)
	mark(fExclusiveMaximum, s.ExclusiveMaximum)
	mark(fMinimum, s.Minimum != nil)
	mark(fExclusiveMinimum, s.ExclusiveMinimum)
	mark(fMaxLength, s.MaxLength != nil)
	mark(fMinLength, s.MinLength != nil)
	mark(fPattern, s.Pattern != "")
	mark(fMaxItems, s.MaxItems != nil)
	mark(fMinItems, s.MinItems != nil)
	mark(fUniqueItems, s.UniqueItems)
	mark(fMultipleOf, s.MultipleOf != nil)
	mark(fEnum, s.Enum != nil)
	mark(fMaxProperties, s.MaxProperties != nil)
	mark(fMinProperties, s.MinProperties != nil)
	mark(fRequired, s.Required != nil)
	mark(fItems, s.Items != nil)
	mark(fAllOf, s.AllOf != nil)
	mark(fOneOf, s.OneOf != nil)
	mark(fAnyOf, s.AnyOf != nil)
	mark(fNot, s.Not != nil)
	mark(fProperties, s.Properties != nil)
	mark(fAdditionalProperties, s.AdditionalProperties != nil)
	mark(fPatternProperties, s.PatternProperties != nil)
	mark(fDependencies, s.Dependencies != nil)
	mark(fAdditionalItems, s.AdditionalItems != nil)
	mark(fDefinitions, s.Definitions != nil)
	mark(fExternalDocs, s.ExternalDocs != nil)
	mark(fExample, s.Example != nil)
	mark(fNullable, s.Nullable)
	mark(fXPreserveUnknownFields, s.XPreserveUnknownFields != nil)
	mark(fXEmbeddedResource, s.XEmbeddedResource)
	mark(fXIntOrString, s.XIntOrString)
	mark(fXListMapKeys, s.XListMapKeys != nil)
	mark(fXListType, s.XListType != nil)
	mark(fXMapType, s.XMapType != nil)
	mark(fXValidations, s.XValidations != nil)
	return set
}

func (d *digester) schemas(l []crdschema.JSONSchemaProps, depth int) {
	d.size(l == nil, len(l))
	for i := range l {
		d.schema(&l[i], depth)
	}
}

func (d *digester) schemaMap(m map[string]crdschema.JSONSchemaProps, depth int) {
	d.size(m == nil, len(m))
	start := len(d.keys)
	for k := range m {
		d.keys = append(d.keys, k)
	}
	keys := d.keys[start:]
	slices.Sort(keys)
	for _, k := range keys {
		d.str(k)
		s := m[k]
		d.schema(&s, depth)
	}
	d.keys = d.keys[:start]
}

func (d *digester) orBool(o *crdschema.JSONSchemaPropsOrBool, depth int) {
	d.bool(o != nil)
	if o != nil {
		d.bool(o.Allows)
		d.schema(o.Schema, depth)
	}
}

// jsonValue writes a value of a JSON as decoding makes them, with its
// kind; other values (built by hand) go through reflection.
func (d *digester) jsonValue(v any, depth int) {
	if depth > maxDigestDepth {
		d.skip = true
		return
	}
	switch v := v.(type) {
	case string:
		d.uint(1)
		d.str(v)
	case int64:
		d.uint(2)
		d.uint(uint64(v))
	case float64:
		d.uint(3)
		d.uint(math.Float64bits(v))
	case bool:
		d.uint(4)
		d.bool(v)
	case map[string]any:
		d.uint(5)
		d.size(v == nil, len(v))
		for _, k := range sortedKeys(v) {
			d.str(k)
			d.jsonValue(v[k], depth+1)
		}
	case []any:
		d.uint(6)
		d.size(v == nil, len(v))
		for _, x := range v {
			d.jsonValue(x, depth+1)
		}
	default:
		d.uint(7)
		if v != nil {
			d.str(reflect.TypeOf(v).String())
		}
		d.value(reflect.ValueOf(v), depth+1)
	}
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
