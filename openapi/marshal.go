package openapi

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"sort"
	"strconv"
	"sync"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/go-openapi/spec"
)

// MarshalJSON encodes the document. It gives the same JSON value as
// encoding/json would through go-openapi's own marshalling, but writes
// each schema in one pass: go-openapi re-encodes every nested schema once
// per level of nesting, which is slow for the deep schemas of real CRDs.
//
// Like encoding/json, it writes into a scratch buffer that is reused
// across calls and returns a copy of exactly the document's size.
func (d Document) MarshalJSON() ([]byte, error) {
	buf := scratchBuffers.Get().(*[]byte)
	b, err := d.appendJSON((*buf)[:0])
	if err != nil {
		return nil, err
	}
	out := make([]byte, len(b))
	copy(out, b)
	if cap(b) <= maxScratch {
		*buf = b
		scratchBuffers.Put(buf)
	}
	return out, nil
}

// scratchBuffers are the buffers MarshalJSON writes into; buffers grown
// beyond maxScratch are left to the garbage collector.
var scratchBuffers = sync.Pool{New: func() any {
	b := make([]byte, 0, 64<<10)
	return &b
}}

const maxScratch = 16 << 20

func (d Document) appendJSON(b []byte) ([]byte, error) {
	info, err := json.Marshal(d.Info)
	if err != nil {
		return nil, err
	}
	b = append(b, `{"openapi":`...)
	b = jsonvalue.AppendString(b, d.OpenAPI)
	b = append(b, `,"info":`...)
	b = append(b, info...)
	b = append(b, `,"paths":`...)
	paths, err := json.Marshal(d.Paths) // small: encoding/json is fast enough
	if err != nil {
		return nil, err
	}
	b = append(b, paths...)
	b = append(b, `,"components":{"schemas":`...)
	if d.Components.Schemas == nil {
		b = append(b, "null"...)
	} else {
		w := schemaWriter{b: b}
		w.b = append(w.b, '{')
		for i, n := range slices.Sorted(maps.Keys(d.Components.Schemas)) {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.b = jsonvalue.AppendString(w.b, n)
			w.b = append(w.b, ':')
			if s := d.Components.Schemas[n]; s == nil {
				w.b = append(w.b, "null"...)
			} else {
				w.schema(s)
			}
		}
		if w.err != nil {
			return nil, w.err
		}
		b = append(w.b, '}')
	}
	return append(b, "}}"...), nil
}

// fastPath reports whether appendSchema can write s itself: s uses none of
// the keywords that a published CRD schema never has.
func fastPath(s *spec.Schema) bool {
	return s.ID == "" && s.Schema == "" && s.Discriminator == "" && !s.ReadOnly && s.XML == nil &&
		len(s.ExtraProps) == 0 && len(s.PatternProperties) == 0 && len(s.Dependencies) == 0 &&
		s.AdditionalItems == nil && len(s.Definitions) == 0 &&
		(s.Items == nil || (len(s.Items.Schemas) == 0 && s.Items.Schema != nil))
}

// appendSchema appends the JSON of s, with the keywords go-openapi writes
// and in its order.
func appendSchema(b []byte, s *spec.Schema) ([]byte, error) {
	w := schemaWriter{b: b}
	w.schema(s)
	return w.b, w.err
}

// schemaWriter appends the JSON of schemas. The schemas of properties are
// map values, which cannot be addressed: each level of nesting keeps one
// scratch copy of the property being written (and the sorted names of its
// properties) instead of one heap copy per property.
type schemaWriter struct {
	b      []byte
	err    error
	levels []*schemaLevel
	depth  int
}

type schemaLevel struct {
	prop  spec.Schema
	names []string
}

// member starts the member k of the object being written: the object
// was opened with '{' and every member before ends with its value, so a
// comma is due unless the object is still empty.
func (w *schemaWriter) member(k string) {
	if w.b[len(w.b)-1] != '{' {
		w.b = append(w.b, ',')
	}
	w.b = append(w.b, '"')
	w.b = append(w.b, k...) // keywords need no escaping
	w.b = append(w.b, '"', ':')
}

func (w *schemaWriter) value(v any) {
	if w.err != nil {
		return
	}
	if b, err := appendValue(w.b, v); err != nil {
		w.err = err
	} else {
		w.b = b
	}
}

func (w *schemaWriter) str(k, v string) {
	if v != "" {
		w.member(k)
		w.b = jsonvalue.AppendString(w.b, v)
	}
}

func (w *schemaWriter) flag(k string, v bool) {
	if v {
		w.member(k)
		w.b = append(w.b, "true"...)
	}
}

func (w *schemaWriter) num(k string, v *float64) {
	if v != nil {
		w.member(k)
		w.value(*v)
	}
}

func (w *schemaWriter) integer(k string, v *int64) {
	if v != nil {
		w.member(k)
		w.b = strconv.AppendInt(w.b, *v, 10)
	}
}

func (w *schemaWriter) schemas(k string, list []spec.Schema) {
	if len(list) == 0 {
		return
	}
	w.member(k)
	w.b = append(w.b, '[')
	for i := range list {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.schema(&list[i])
	}
	w.b = append(w.b, ']')
}

func (w *schemaWriter) schema(s *spec.Schema) {
	if w.err != nil {
		return
	}
	if !fastPath(s) {
		// Marshal a copy: s itself then stays where the caller has it
		// instead of escaping to the heap.
		c := *s
		j, err := json.Marshal(&c)
		w.b, w.err = append(w.b, j...), err
		return
	}
	w.b = append(w.b, '{')
	w.str("description", s.Description)
	switch len(s.Type) {
	case 0:
	case 1:
		w.str("type", s.Type[0])
	default:
		w.member("type")
		w.value([]string(s.Type))
	}
	w.flag("nullable", s.Nullable)
	w.str("format", s.Format)
	w.str("title", s.Title)
	if s.Default != nil {
		w.member("default")
		w.value(s.Default)
	}
	w.num("maximum", s.Maximum)
	w.flag("exclusiveMaximum", s.ExclusiveMaximum)
	w.num("minimum", s.Minimum)
	w.flag("exclusiveMinimum", s.ExclusiveMinimum)
	w.integer("maxLength", s.MaxLength)
	w.integer("minLength", s.MinLength)
	w.str("pattern", s.Pattern)
	w.integer("maxItems", s.MaxItems)
	w.integer("minItems", s.MinItems)
	w.flag("uniqueItems", s.UniqueItems)
	w.num("multipleOf", s.MultipleOf)
	if len(s.Enum) > 0 {
		w.member("enum")
		w.value(s.Enum)
	}
	w.integer("maxProperties", s.MaxProperties)
	w.integer("minProperties", s.MinProperties)
	if len(s.Required) > 0 {
		w.member("required")
		w.value(s.Required)
	}
	if s.Items != nil {
		w.member("items")
		w.schema(s.Items.Schema)
	}
	w.schemas("allOf", s.AllOf)
	w.schemas("oneOf", s.OneOf)
	w.schemas("anyOf", s.AnyOf)
	if s.Not != nil {
		w.member("not")
		w.schema(s.Not)
	}
	if len(s.Properties) > 0 {
		w.member("properties")
		w.properties(s.Properties)
	}
	if ap := s.AdditionalProperties; ap != nil {
		w.member("additionalProperties")
		switch {
		case ap.Schema != nil:
			w.schema(ap.Schema)
		case ap.Allows:
			w.b = append(w.b, "true"...)
		default:
			w.b = append(w.b, "false"...)
		}
	}
	if len(s.Extensions) > 0 {
		w.extensions(s.Extensions)
	}
	w.str("$ref", s.Ref.String())
	if d := s.ExternalDocs; d != nil {
		w.member("externalDocs")
		w.value(d)
	}
	if s.Example != nil {
		w.member("example")
		w.value(s.Example)
	}
	w.b = append(w.b, '}')
}

// properties writes the object of the properties m, by name.
func (w *schemaWriter) properties(m spec.SchemaProperties) {
	if w.depth == len(w.levels) {
		w.levels = append(w.levels, new(schemaLevel))
	}
	l := w.levels[w.depth]
	w.depth++
	defer func() { w.depth-- }()
	l.names = l.names[:0]
	for n := range m {
		l.names = append(l.names, n)
	}
	sort.Strings(l.names)
	w.b = append(w.b, '{')
	for i, n := range l.names {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = jsonvalue.AppendString(w.b, n)
		w.b = append(w.b, ':')
		l.prop = m[n]
		w.schema(&l.prop)
	}
	w.b = append(w.b, '}')
}

// extensions writes the members of the extensions x whose names start
// with "x-" (in either case), by name.
func (w *schemaWriter) extensions(x spec.Extensions) {
	names := make([]string, 0, len(x))
	for n := range x {
		if len(n) >= 2 && (n[0] == 'x' || n[0] == 'X') && n[1] == '-' {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if w.b[len(w.b)-1] != '{' {
			w.b = append(w.b, ',')
		}
		w.b = jsonvalue.AppendString(w.b, n)
		w.b = append(w.b, ':')
		w.value(x[n])
	}
}

// appendValue appends v as encoding/json encodes it. It writes the values
// of decoded JSON itself (objects, arrays, strings, numbers, booleans and
// null: defaults, enums, examples, extensions), and leaves anything else to
// encoding/json.
func appendValue(b []byte, v any) ([]byte, error) {
	var err error
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return jsonvalue.AppendString(b, x), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case int64:
		return strconv.AppendInt(b, x, 10), nil
	case int:
		return strconv.AppendInt(b, int64(x), 10), nil
	case float64:
		if !math.IsInf(x, 0) && !math.IsNaN(x) {
			return jsonvalue.AppendFloat(b, x), nil
		}
	case []any:
		if x == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendValue(b, e); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case []string:
		if x == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonvalue.AppendString(b, e)
		}
		return append(b, ']'), nil
	case map[string]any:
		if x == nil {
			return append(b, "null"...), nil
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonvalue.AppendString(b, k)
			b = append(b, ':')
			if b, err = appendValue(b, x[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	j, err := json.Marshal(v)
	return append(b, j...), err
}
