package crdschema

import (
	"slices"
	"strconv"
)

// The part of crdFromJSONFast that reads the version schemas into
// JSONSchemaProps, with the results of schemaFromValue on their generic
// form, collecting their unknown fields as schemaUnknownFields does.
// Whatever schemaFromValue would refuse, and whatever the reading is not
// sure to decode the same way (a key repeated in an object), fails the
// reader.

// pathSegment is one step of a path: "." and field (the whole path of
// a version's openAPIV3Schema at the root), then "." and key when hasKey
// (a property name), then "[index]" when index is not -1.
type pathSegment struct {
	field  string
	key    string
	hasKey bool
	index  int
}

// enter makes the member field (then key, then index) of the object being
// read the object being read; leave returns to it.
func (d *crdReader) enter(field, key string, hasKey bool, index int) {
	d.path = append(d.path, pathSegment{field: field, key: key, hasKey: hasKey, index: index})
}

func (d *crdReader) leave() { d.path = d.path[:len(d.path)-1] }

// addUnknown records the unknown field key of the object being read.
func (d *crdReader) addUnknown(key string) {
	if d.hidden > 0 {
		return
	}
	var b []byte
	for i, seg := range d.path {
		if i > 0 {
			b = append(b, '.')
		}
		b = append(b, seg.field...)
		if seg.hasKey {
			b = append(append(b, '.'), seg.key...)
		}
		if seg.index >= 0 {
			b = append(append(append(b, '['), strconv.Itoa(seg.index)...), ']')
		}
	}
	b = append(append(b, '.'), key...)
	d.unknown = append(d.unknown, string(b))
}

// The fields of JSONSchemaProps, by bit in a set of the ones seen.
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
	schemaFieldCount
)

// schemaField returns the field of JSONSchemaProps with the JSON name
// key, or -1.
func schemaField(key string) int {
	switch key {
	case "id":
		return fID
	case "$schema":
		return fSchema
	case "$ref":
		return fRef
	case "description":
		return fDescription
	case "type":
		return fType
	case "format":
		return fFormat
	case "title":
		return fTitle
	case "default":
		return fDefault
	case "maximum":
		return fMaximum
	case "exclusiveMaximum":
		return fExclusiveMaximum
	case "minimum":
		return fMinimum
	case "exclusiveMinimum":
		return fExclusiveMinimum
	case "maxLength":
		return fMaxLength
	case "minLength":
		return fMinLength
	case "pattern":
		return fPattern
	case "maxItems":
		return fMaxItems
	case "minItems":
		return fMinItems
	case "uniqueItems":
		return fUniqueItems
	case "multipleOf":
		return fMultipleOf
	case "enum":
		return fEnum
	case "maxProperties":
		return fMaxProperties
	case "minProperties":
		return fMinProperties
	case "required":
		return fRequired
	case "items":
		return fItems
	case "allOf":
		return fAllOf
	case "oneOf":
		return fOneOf
	case "anyOf":
		return fAnyOf
	case "not":
		return fNot
	case "properties":
		return fProperties
	case "additionalProperties":
		return fAdditionalProperties
	case "patternProperties":
		return fPatternProperties
	case "dependencies":
		return fDependencies
	case "additionalItems":
		return fAdditionalItems
	case "definitions":
		return fDefinitions
	case "externalDocs":
		return fExternalDocs
	case "example":
		return fExample
	case "nullable":
		return fNullable
	case "x-kubernetes-preserve-unknown-fields":
		return fXPreserveUnknownFields
	case "x-kubernetes-embedded-resource":
		return fXEmbeddedResource
	case "x-kubernetes-int-or-string":
		return fXIntOrString
	case "x-kubernetes-list-map-keys":
		return fXListMapKeys
	case "x-kubernetes-list-type":
		return fXListType
	case "x-kubernetes-map-type":
		return fXMapType
	case "x-kubernetes-validations":
		return fXValidations
	}
	return -1
}

// schemaObject reads a schema, which must be an object, into s; p is where
// it lies.
func (d *crdReader) schemaObject(s *JSONSchemaProps) {
	r := d.r
	if !r.BeginObject() {
		return
	}
	var seen uint64
	var unknownKeys []string
	for k, ok := r.NextKey(); ok; k, ok = r.NextKey() {
		f := schemaField(k)
		if f < 0 {
			if slices.Contains(unknownKeys, k) {
				r.Fail()
				return
			}
			unknownKeys = append(unknownKeys, k)
			d.addUnknown(k)
			r.Value()
			continue
		}
		if seen&(1<<f) != 0 {
			r.Fail()
			return
		}
		seen |= 1 << f
		// null leaves a field unset, except default and example, where
		// it is an explicit null.
		if r.Kind() == 'n' && f != fDefault && f != fExample {
			r.Null()
			continue
		}
		d.schemaMember(s, f, k)
		if r.Failed() {
			return
		}
	}
}

// schemaMember reads the value of the member k (field f) of the schema s
// at p; it is not null unless f is fDefault or fExample.
func (d *crdReader) schemaMember(s *JSONSchemaProps, f int, k string) {
	r := d.r
	switch f {
	case fID:
		s.ID = r.Text()
	case fSchema:
		s.Schema = r.Text()
	case fRef:
		s.Ref = d.stringPtr()
	case fDescription:
		s.Description = r.Text()
	case fType:
		s.Type = r.Text()
	case fFormat:
		s.Format = r.Text()
	case fTitle:
		s.Title = r.Text()
	case fDefault:
		s.Default = &JSON{Value: r.Value()}
	case fMaximum:
		s.Maximum = d.floatPtr()
	case fExclusiveMaximum:
		s.ExclusiveMaximum = r.Bool()
	case fMinimum:
		s.Minimum = d.floatPtr()
	case fExclusiveMinimum:
		s.ExclusiveMinimum = r.Bool()
	case fMaxLength:
		s.MaxLength = d.intPtr()
	case fMinLength:
		s.MinLength = d.intPtr()
	case fPattern:
		s.Pattern = r.Text()
	case fMaxItems:
		s.MaxItems = d.intPtr()
	case fMinItems:
		s.MinItems = d.intPtr()
	case fUniqueItems:
		s.UniqueItems = r.Bool()
	case fMultipleOf:
		s.MultipleOf = d.floatPtr()
	case fEnum:
		if r.BeginArray() {
			s.Enum = []JSON{}
			for r.NextElement() {
				s.Enum = append(s.Enum, JSON{Value: r.Value()})
			}
		}
	case fMaxProperties:
		s.MaxProperties = d.intPtr()
	case fMinProperties:
		s.MinProperties = d.intPtr()
	case fRequired:
		s.Required = d.stringList()
	case fItems:
		s.Items = d.items()
	case fAllOf:
		s.AllOf = d.schemaList(k)
	case fOneOf:
		s.OneOf = d.schemaList(k)
	case fAnyOf:
		s.AnyOf = d.schemaList(k)
	case fNot:
		s.Not = new(JSONSchemaProps)
		d.enter(k, "", false, -1)
		d.schemaObject(s.Not)
		d.leave()
	case fProperties:
		s.Properties = d.schemaMap(k)
	case fAdditionalProperties:
		s.AdditionalProperties = d.schemaOrBool()
	case fPatternProperties:
		s.PatternProperties = d.schemaMap(k)
	case fDependencies:
		s.Dependencies = d.dependencies()
	case fAdditionalItems:
		s.AdditionalItems = d.schemaOrBool()
	case fDefinitions:
		s.Definitions = d.schemaMap(k)
	case fExternalDocs:
		d.enter(k, "", false, -1)
		s.ExternalDocs = d.externalDocs()
		d.leave()
	case fExample:
		s.Example = &JSON{Value: r.Value()}
	case fNullable:
		s.Nullable = r.Bool()
	case fXPreserveUnknownFields:
		b := r.Bool()
		s.XPreserveUnknownFields = &b
	case fXEmbeddedResource:
		s.XEmbeddedResource = r.Bool()
	case fXIntOrString:
		s.XIntOrString = r.Bool()
	case fXListMapKeys:
		s.XListMapKeys = d.stringList()
	case fXListType:
		s.XListType = d.stringPtr()
	case fXMapType:
		s.XMapType = d.stringPtr()
	case fXValidations:
		s.XValidations = d.rules(k)
	}
}

func (d *crdReader) stringPtr() *string {
	s := d.r.Text()
	return &s
}

func (d *crdReader) floatPtr() *float64 {
	i, f, isInt := d.r.Number()
	if isInt {
		f = float64(i)
	}
	return &f
}

// intPtr reads an integer; a number with a fraction or an exponent is an
// error for schemaFromValue, so a failure here.
func (d *crdReader) intPtr() *int64 {
	i, _, isInt := d.r.Number()
	if !isInt {
		d.r.Fail()
	}
	return &i
}

// stringList reads a list of strings, in which null stands for "".
func (d *crdReader) stringList() []string {
	r := d.r
	if !r.BeginArray() {
		return nil
	}
	out := []string{}
	for r.NextElement() {
		if r.Kind() == 'n' {
			r.Null()
			out = append(out, "")
			continue
		}
		out = append(out, r.Text())
	}
	return out
}

// element reads a schema that is an element of a list or the value of a
// map: an object, or null for the zero schema.
func (d *crdReader) element(s *JSONSchemaProps) {
	if d.r.Kind() == 'n' {
		d.r.Null()
		return
	}
	d.schemaObject(s)
}

// schemaList reads allOf, anyOf, oneOf: a list of schemas.
func (d *crdReader) schemaList(k string) []JSONSchemaProps {
	r := d.r
	if !r.BeginArray() {
		return nil
	}
	out := []JSONSchemaProps{}
	for i := 0; r.NextElement(); i++ {
		out = append(out, JSONSchemaProps{})
		d.enter(k, "", false, i)
		d.element(&out[i])
		d.leave()
	}
	return out
}

// schemaMap reads properties, patternProperties, definitions: an object
// of schemas.
func (d *crdReader) schemaMap(k string) map[string]JSONSchemaProps {
	r := d.r
	if !r.BeginObject() {
		return nil
	}
	out := map[string]JSONSchemaProps{}
	for name, ok := r.NextKey(); ok; name, ok = r.NextKey() {
		if _, dup := out[name]; dup {
			r.Fail()
			return nil
		}
		var s JSONSchemaProps
		d.enter(k, name, true, -1)
		d.element(&s)
		d.leave()
		out[name] = s
	}
	return out
}

// items reads items: a schema, a list of schemas, or any other value,
// which is ignored.
func (d *crdReader) items() *JSONSchemaPropsOrArray {
	r := d.r
	out := &JSONSchemaPropsOrArray{}
	d.hidden++
	switch r.Kind() {
	case '{':
		out.Schema = new(JSONSchemaProps)
		d.schemaObject(out.Schema)
	case '[':
		out.JSONSchemas = d.schemaList("items")
	default:
		r.Value()
	}
	d.hidden--
	return out
}

// schemaOrBool reads additionalProperties, additionalItems: a schema or
// a boolean.
func (d *crdReader) schemaOrBool() *JSONSchemaPropsOrBool {
	r := d.r
	if r.Kind() == '{' {
		s := new(JSONSchemaProps)
		d.hidden++
		d.schemaObject(s)
		d.hidden--
		return &JSONSchemaPropsOrBool{Allows: true, Schema: s}
	}
	return &JSONSchemaPropsOrBool{Allows: r.Bool()}
}

// dependencies reads an object whose values are schemas, lists of
// property names, or anything else, which is ignored.
func (d *crdReader) dependencies() map[string]JSONSchemaPropsOrStringArray {
	r := d.r
	if !r.BeginObject() {
		return nil
	}
	out := map[string]JSONSchemaPropsOrStringArray{}
	for name, ok := r.NextKey(); ok; name, ok = r.NextKey() {
		if _, dup := out[name]; dup {
			r.Fail()
			return nil
		}
		var dep JSONSchemaPropsOrStringArray
		switch r.Kind() {
		case '{':
			dep.Schema = new(JSONSchemaProps)
			d.hidden++
			d.schemaObject(dep.Schema)
			d.hidden--
		case '[':
			dep.Property = d.stringList()
		default:
			r.Value()
		}
		out[name] = dep
	}
	return out
}

// externalDocs reads externalDocs, at p.
func (d *crdReader) externalDocs() *ExternalDocumentation {
	r := d.r
	if !r.BeginObject() {
		return nil
	}
	out := &ExternalDocumentation{}
	var seen []string
	for k, ok := r.NextKey(); ok; k, ok = r.NextKey() {
		if slices.Contains(seen, k) {
			r.Fail()
			return nil
		}
		seen = append(seen, k)
		var dst *string
		switch k {
		case "description":
			dst = &out.Description
		case "url":
			dst = &out.URL
		default:
			d.addUnknown(k)
			r.Value()
			continue
		}
		if r.Kind() == 'n' {
			r.Null()
			continue
		}
		*dst = r.Text()
	}
	return out
}

// rules reads x-kubernetes-validations, the member k of the schema at p.
func (d *crdReader) rules(k string) []ValidationRule {
	r := d.r
	if !r.BeginArray() {
		return nil
	}
	out := []ValidationRule{}
	for i := 0; r.NextElement(); i++ {
		out = append(out, ValidationRule{})
		if r.Kind() == 'n' {
			r.Null()
			continue
		}
		d.enter(k, "", false, i)
		d.rule(&out[i])
		d.leave()
	}
	return out
}

// rule reads one validation rule, at p.
func (d *crdReader) rule(v *ValidationRule) {
	r := d.r
	if !r.BeginObject() {
		return
	}
	var seen []string
	for k, ok := r.NextKey(); ok; k, ok = r.NextKey() {
		if slices.Contains(seen, k) {
			r.Fail()
			return
		}
		seen = append(seen, k)
		known := true
		switch k {
		case "rule", "message", "messageExpression", "reason", "fieldPath", "optionalOldSelf":
		default:
			known = false
		}
		if !known {
			d.addUnknown(k)
			r.Value()
			continue
		}
		if r.Kind() == 'n' {
			r.Null()
			continue
		}
		switch k {
		case "rule":
			v.Rule = r.Text()
		case "message":
			v.Message = r.Text()
		case "messageExpression":
			v.MessageExpression = r.Text()
		case "reason":
			reason := ErrorType(r.Text())
			v.Reason = &reason
		case "fieldPath":
			v.FieldPath = r.Text()
		case "optionalOldSelf":
			b := r.Bool()
			v.OptionalOldSelf = &b
		}
	}
}
