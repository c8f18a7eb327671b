package validation

import (
	"sort"
	"strconv"
	"strings"

	"github.com/crdschema/crdschema/internal/pattern"
	"github.com/crdschema/crdschema/internal/release"
	"github.com/crdschema/crdschema/internal/slab"
	"github.com/crdschema/crdschema/structural"
)

// node is one compiled schema node: every keyword resolved, every regular
// expression compiled and every format looked up, so that validating a
// value only reads it.
type node struct {
	// type
	types      []string // nil when the schema has no type
	typeList   string   // types joined by ","
	nullable   bool
	format     string // after unsupported formats were cleared
	checkType  bool   // the type check applies (types or format set)
	formatFunc func(string) bool

	// string
	maxLength, minLength *int64
	pattern              string
	re                   *pattern.Matcher
	reErr                error

	// number: numType/numFormat are the type and format the range checks
	// use; the *OK flags say whether each bound passes its own range check.
	numType, numFormat string
	// silentRanges: values and bounds outside the format are not
	// reported (releases before 1.36).
	silentRanges bool
	// untypedNumFormat: the type check ignores the format of a numeric
	// type, as request validation before 1.36 stripped such formats
	// (the validation of CRD defaults kept them).
	untypedNumFormat bool
	// legacyInteger: whole floats are recognised as the validator did
	// before 1.37 (isJSONIntegerBefore137).
	legacyInteger                      bool
	multipleOf                         *float64
	maximum, minimum                   *float64
	exclusiveMax, exclusiveMin         bool
	multipleOfOK, maximumOK, minimumOK bool

	// array
	items              *node
	maxItems, minItems *int64
	uniqueItems        bool

	// enum: the values are rendered for a failure only
	enum []any

	// object
	properties    map[string]*node
	propertyNames []string // sorted, for a deterministic order
	additional    *node
	noAdditional  bool // additionalProperties: false
	minProperties *int64
	maxProperties *int64
	required      []string

	// junctors
	allOf, anyOf, oneOf []*node
	not                 *node
}

// compiler holds what compiling needs besides the schema.
type compiler struct {
	// defaults compiles the schema as the API server's validator of CRD
	// defaults reads it (see WithDefaultsCheck).
	defaults bool
	release  release.Minor
	formats  map[string]func(string) bool
	regexps  map[string]*pattern.Matcher // compiled patterns, shared between nodes
	// nodes allocates the nodes: a schema has up to thousands, and they
	// all live as long as the Validator.
	nodes slab.Allocator[node]
}

func (c *compiler) schema(s *structural.Schema) (*node, error) {
	if s == nil {
		return nil, nil
	}
	n := c.nodes.New()
	n.nullable = s.Nullable
	setType(n, s.Type, s.XIntOrString && !c.defaults)
	err := c.values(n, s.ValueValidation)
	if err != nil {
		return nil, err
	}
	if n.items, err = c.schema(s.Items); err != nil {
		return nil, err
	}
	if err := compileProperties(n, s.Properties, c.schema); err != nil {
		return nil, err
	}
	if ap := s.AdditionalProperties; ap != nil {
		if n.additional, err = c.schema(ap.Schema); err != nil {
			return nil, err
		}
		n.noAdditional = ap.Schema == nil && !ap.Bool
	}
	c.finish(n)
	return n, nil
}

// compileProperties compiles the properties props of n with compile, the
// compiler's method for their kind of schema.
func compileProperties[S any](n *node, props map[string]S, compile func(S) (*node, error)) error {
	if len(props) == 0 {
		return nil
	}
	n.properties = make(map[string]*node, len(props))
	n.propertyNames = make([]string, 0, len(props))
	for name, ps := range props {
		pn, err := compile(ps)
		if err != nil {
			return err
		}
		if pn == nil {
			pn = &node{}
		}
		n.properties[name] = pn
		n.propertyNames = append(n.propertyNames, name)
	}
	sort.Strings(n.propertyNames)
	return nil
}

// nested compiles a schema inside allOf, anyOf, oneOf or not. The shaping
// keywords that structural schemas forbid there (type, nullable,
// x-kubernetes-int-or-string) still count when present, as they do for the
// API server, which validates with the schema as written.
func (c *compiler) nested(s *structural.NestedValueValidation) (*node, error) {
	if s == nil {
		return nil, nil
	}
	n := c.nodes.New()
	n.nullable = s.ForbiddenGenerics.Nullable
	setType(n, s.ForbiddenGenerics.Type, s.ForbiddenExtensions.XIntOrString && !c.defaults)
	err := c.values(n, &s.ValueValidation)
	if err != nil {
		return nil, err
	}
	if n.items, err = c.nested(s.Items); err != nil {
		return nil, err
	}
	if err := compileProperties(n, s.Properties, c.nested); err != nil {
		return nil, err
	}
	if n.additional, err = c.nested(s.AdditionalProperties); err != nil {
		return nil, err
	}
	c.finish(n)
	return n, nil
}

// setType records the schema's type list: x-kubernetes-int-or-string
// makes it [integer, string].
func setType(n *node, typ string, intOrString bool) {
	switch {
	case intOrString:
		n.types, n.typeList = intOrStringTypes, "integer,string"
	case typ != "":
		n.types, n.typeList = typeList(typ), typ
	}
}

// The type lists of nodes, shared between them (never modified): one per
// type a schema may name.
var (
	intOrStringTypes = []string{"integer", "string"}
	singleTypes      = func() map[string][]string {
		m := map[string][]string{}
		for _, t := range [...]string{"array", "boolean", "integer", "number", "object", "string"} {
			m[t] = []string{t}
		}
		return m
	}()
)

// typeList is the type list [typ].
func typeList(typ string) []string {
	if l, ok := singleTypes[typ]; ok {
		return l
	}
	return []string{typ}
}

func (c *compiler) values(n *node, v *structural.ValueValidation) error {
	if v == nil {
		return nil
	}
	n.format = v.Format
	n.maxLength, n.minLength = v.MaxLength, v.MinLength
	n.pattern = v.Pattern
	if v.Pattern != "" {
		if re, ok := c.regexps[v.Pattern]; ok {
			n.re = re
		} else if n.re, n.reErr = pattern.Compile(v.Pattern); n.reErr == nil {
			c.regexps[v.Pattern] = n.re
		}
	}
	n.multipleOf, n.maximum, n.minimum = v.MultipleOf, v.Maximum, v.Minimum
	n.exclusiveMax, n.exclusiveMin = v.ExclusiveMaximum, v.ExclusiveMinimum
	n.maxItems, n.minItems, n.uniqueItems = v.MaxItems, v.MinItems, v.UniqueItems
	n.maxProperties, n.minProperties = v.MaxProperties, v.MinProperties
	n.required = v.Required
	if len(v.Enum) > 0 {
		n.enum = make([]any, len(v.Enum))
		for i, e := range v.Enum {
			n.enum[i] = normalize(e.Value)
		}
	}
	var err error
	if n.allOf, err = c.nestedList(v.AllOf); err != nil {
		return err
	}
	if n.anyOf, err = c.nestedList(v.AnyOf); err != nil {
		return err
	}
	if n.oneOf, err = c.nestedList(v.OneOf); err != nil {
		return err
	}
	n.not, err = c.nested(v.Not)
	return err
}

func (c *compiler) nestedList(l []structural.NestedValueValidation) ([]*node, error) {
	if len(l) == 0 {
		return nil, nil
	}
	out := make([]*node, len(l))
	for i := range l {
		n, err := c.nested(&l[i])
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// finish resolves what depends on several keywords: the format that
// survives, the type check and the number range checks.
func (c *compiler) finish(n *node) {
	schemaType := ""
	if len(n.types) == 1 {
		schemaType = n.types[0]
	}
	switch {
	case c.defaults:
		// Formats stay as written; a known one is checked on strings
		// whatever the type.
		n.formatFunc = c.formats[strings.ReplaceAll(n.format, "-", "")]
	case n.format != "":
		// Clear the formats the API server does not support for the type.
		switch schemaType {
		case "", "string":
			f := c.formats[strings.ReplaceAll(n.format, "-", "")]
			if f == nil {
				n.format = ""
			}
			n.formatFunc = f
		case "integer":
			if n.format != "int32" && n.format != "int64" {
				n.format = ""
			}
		case "number":
			if n.format != "float" && n.format != "double" {
				n.format = ""
			}
		default:
			if c.release < 36 {
				// Before 1.36 no format was cleared: a known one is
				// checked on strings, and a string passes the type check.
				n.formatFunc = c.formats[strings.ReplaceAll(n.format, "-", "")]
			} else {
				n.format = ""
			}
		}
	}
	n.checkType = len(n.types) > 0 || n.format != ""
	switch schemaType {
	case "integer", "number":
		n.numType = schemaType
		n.numFormat = n.format
	}
	// Before 1.36 bounds were not checked against the format: every
	// bound is taken as fitting (and converted to int64 for integers, as
	// Go does on amd64: out of range is math.MinInt64).
	n.silentRanges = c.release < 36
	n.untypedNumFormat = c.release < 36 && !c.defaults && n.numType != ""
	n.legacyInteger = c.release < 37
	boundOK := func(f *float64) bool {
		return f != nil && (n.silentRanges || floatInRange(*f, n.numType, n.numFormat))
	}
	n.multipleOfOK, n.maximumOK, n.minimumOK = boundOK(n.multipleOf), boundOK(n.maximum), boundOK(n.minimum)
}

// floatInRange says whether f, printed as a decimal, parses as the number
// type and format (int32, int64, float) that a schema declares.
func floatInRange(f float64, typ, format string) bool {
	return textInRange(strconv.FormatFloat(f, 'f', -1, 64), typ, format)
}

func intInRange(i int64, typ, format string) bool {
	if typ != "integer" || format != "int32" {
		// An int64 fits int64 and, as a decimal, any float32.
		return true
	}
	return i >= -1<<31 && i <= 1<<31-1
}

func textInRange(s, typ, format string) bool {
	var err error
	switch typ {
	case "integer":
		bits := 64
		if format == "int32" {
			bits = 32
		}
		_, err = strconv.ParseInt(s, 10, bits)
	default:
		if format == "float" {
			_, err = strconv.ParseFloat(s, 32)
		}
	}
	return err == nil
}

// normalize maps the numeric types that callers may pass to the int64 and
// float64 that decoded JSON has.
func normalize(v any) any {
	switch t := v.(type) {
	case int:
		return int64(t)
	case int32:
		return int64(t)
	case int16:
		return int64(t)
	case int8:
		return int64(t)
	case uint8:
		return int64(t)
	case uint16:
		return int64(t)
	case uint32:
		return int64(t)
	case float32:
		return float64(t)
	}
	return v
}
