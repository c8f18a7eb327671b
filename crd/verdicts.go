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
		d.bool(v.Bool())
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
		d.size(v.Kind() == reflect.Slice && v.IsNil(), v.Len())
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
// was most of the digest's time): each field that is set (a non-empty
// string, a non-nil pointer, list or map, a true boolean) as its tag and
// its value, in the order of the tags, then fEnd; since most fields of
// most schemas are empty, they cost nothing. TestDigestCoversSchema
// checks that every field counts.
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
	d.optStr(fID, s.ID)
	d.optStr(fSchema, s.Schema)
	if s.Ref != nil {
		d.uint(fRef)
		d.str(*s.Ref)
	}
	d.optStr(fDescription, s.Description)
	d.optStr(fType, s.Type)
	d.optStr(fFormat, s.Format)
	d.optStr(fTitle, s.Title)
	if s.Default != nil {
		d.uint(fDefault)
		d.jsonValue(s.Default.Value, depth)
	}
	d.optFloat(fMaximum, s.Maximum)
	d.flag(fExclusiveMaximum, s.ExclusiveMaximum)
	d.optFloat(fMinimum, s.Minimum)
	d.flag(fExclusiveMinimum, s.ExclusiveMinimum)
	d.optInt(fMaxLength, s.MaxLength)
	d.optInt(fMinLength, s.MinLength)
	d.optStr(fPattern, s.Pattern)
	d.optInt(fMaxItems, s.MaxItems)
	d.optInt(fMinItems, s.MinItems)
	d.flag(fUniqueItems, s.UniqueItems)
	d.optFloat(fMultipleOf, s.MultipleOf)
	if s.Enum != nil {
		d.uint(fEnum)
		d.uint(uint64(len(s.Enum)))
		for i := range s.Enum {
			d.jsonValue(s.Enum[i].Value, depth)
		}
	}
	d.optInt(fMaxProperties, s.MaxProperties)
	d.optInt(fMinProperties, s.MinProperties)
	if s.Required != nil {
		d.uint(fRequired)
		d.strs(s.Required)
	}
	if s.Items != nil {
		d.uint(fItems)
		d.schema(s.Items.Schema, depth)
		d.schemas(s.Items.JSONSchemas, depth)
	}
	d.optSchemas(fAllOf, s.AllOf, depth)
	d.optSchemas(fOneOf, s.OneOf, depth)
	d.optSchemas(fAnyOf, s.AnyOf, depth)
	if s.Not != nil {
		d.uint(fNot)
		d.schema(s.Not, depth)
	}
	d.optSchemaMap(fProperties, s.Properties, depth)
	d.orBool(fAdditionalProperties, s.AdditionalProperties, depth)
	d.optSchemaMap(fPatternProperties, s.PatternProperties, depth)
	if s.Dependencies != nil {
		d.uint(fDependencies)
		d.uint(uint64(len(s.Dependencies)))
		start := len(d.keys)
		for _, k := range sortKeys(d, s.Dependencies) {
			dep := s.Dependencies[k]
			d.str(k)
			d.schema(dep.Schema, depth)
			d.strs(dep.Property)
		}
		d.keys = d.keys[:start]
	}
	d.orBool(fAdditionalItems, s.AdditionalItems, depth)
	d.optSchemaMap(fDefinitions, s.Definitions, depth)
	if s.ExternalDocs != nil {
		d.uint(fExternalDocs)
		d.str(s.ExternalDocs.Description)
		d.str(s.ExternalDocs.URL)
	}
	if s.Example != nil {
		d.uint(fExample)
		d.jsonValue(s.Example.Value, depth)
	}
	d.flag(fNullable, s.Nullable)
	if s.XPreserveUnknownFields != nil {
		d.uint(fXPreserveUnknownFields)
		d.bool(*s.XPreserveUnknownFields)
	}
	d.flag(fXEmbeddedResource, s.XEmbeddedResource)
	d.flag(fXIntOrString, s.XIntOrString)
	if s.XListMapKeys != nil {
		d.uint(fXListMapKeys)
		d.strs(s.XListMapKeys)
	}
	if s.XListType != nil {
		d.uint(fXListType)
		d.str(*s.XListType)
	}
	if s.XMapType != nil {
		d.uint(fXMapType)
		d.str(*s.XMapType)
	}
	if s.XValidations != nil {
		d.uint(fXValidations)
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
	d.uint(fEnd)
}

// The tags of the fields of JSONSchemaProps in the digest, and fEnd,
// which follows the last field of a schema.
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
	fEnd
)

// optStr, optInt, optFloat, flag, optSchemas, optSchemaMap and orBool
// write a field of a schema when it is set: its tag, then its value.
func (d *digester) optStr(tag uint64, s string) {
	if s != "" {
		d.uint(tag)
		d.str(s)
	}
}

func (d *digester) optInt(tag uint64, i *int64) {
	if i != nil {
		d.uint(tag)
		d.uint(uint64(*i))
	}
}

func (d *digester) optFloat(tag uint64, f *float64) {
	if f != nil {
		d.uint(tag)
		d.uint(math.Float64bits(*f))
	}
}

func (d *digester) flag(tag uint64, b bool) {
	if b {
		d.uint(tag)
	}
}

func (d *digester) optSchemas(tag uint64, l []crdschema.JSONSchemaProps, depth int) {
	if l != nil {
		d.uint(tag)
		d.schemas(l, depth)
	}
}

func (d *digester) optSchemaMap(tag uint64, m map[string]crdschema.JSONSchemaProps, depth int) {
	if m != nil {
		d.uint(tag)
		d.schemaMap(m, depth)
	}
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
	for _, k := range sortKeys(d, m) {
		d.str(k)
		s := m[k]
		d.schema(&s, depth)
	}
	d.keys = d.keys[:start]
}

func (d *digester) orBool(tag uint64, o *crdschema.JSONSchemaPropsOrBool, depth int) {
	if o != nil {
		d.uint(tag)
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
		start := len(d.keys)
		for _, k := range sortKeys(d, v) {
			d.str(k)
			d.jsonValue(v[k], depth+1)
		}
		d.keys = d.keys[:start]
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

// sortKeys appends the keys of m to d.keys, sorts them and returns
// them; the caller then cuts d.keys back to its length before.
func sortKeys[V any](d *digester, m map[string]V) []string {
	start := len(d.keys)
	for k := range m {
		d.keys = append(d.keys, k)
	}
	keys := d.keys[start:]
	slices.Sort(keys)
	return keys
}
