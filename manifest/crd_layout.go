package manifest

import (
	"github.com/crdschema/crdschema"
	kjson "sigs.k8s.io/json"
)

// The types below lay a CustomResourceDefinition out for sigs.k8s.io/json
// without the JSON methods of the schema unions (items,
// additionalProperties, additionalItems, dependencies). Each of those
// methods makes the decoder scan the value to find its end and then scan
// it twice more to decode it, at every level of nesting: a property below
// five levels of items was scanned a dozen times, most of the time of
// decoding a large CRD. Here the unions are plain schemas, decoded in the
// one pass of the whole document, by the same library with the same
// options, into the same field types.
//
// That layout decodes only the common case the same way: every union an
// object or null, no unknown field (the unions' methods decode without
// strictness, so the API server reports none below them) and no repeated
// key (a union's method replaces what a repeated key decoded before; a
// field of the layout merges). decodeLaidOut reports whether the document
// is such a case; otherwise the reference decode (crdFromJSON's) decides,
// errors included.

type laidOutCRD struct {
	crdschema.CustomResourceDefinition
	Spec laidOutSpec `json:"spec"`
}

type laidOutSpec struct {
	crdschema.CustomResourceDefinitionSpec
	Versions []laidOutVersion `json:"versions"`
}

type laidOutVersion struct {
	crdschema.CustomResourceDefinitionVersion
	Schema *struct {
		OpenAPIV3Schema *laidOutSchema `json:"openAPIV3Schema,omitempty"`
	} `json:"schema,omitempty"`
}

// laidOutSchema holds the keywords that are not schemas in the embedded
// JSONSchemaProps, and those that are in fields of its own, which take
// precedence in decoding.
type laidOutSchema struct {
	crdschema.JSONSchemaProps
	Items                *laidOutSchema            `json:"items,omitempty"`
	AllOf                []laidOutSchema           `json:"allOf,omitempty"`
	OneOf                []laidOutSchema           `json:"oneOf,omitempty"`
	AnyOf                []laidOutSchema           `json:"anyOf,omitempty"`
	Not                  *laidOutSchema            `json:"not,omitempty"`
	Properties           map[string]laidOutSchema  `json:"properties,omitempty"`
	AdditionalProperties *laidOutSchema            `json:"additionalProperties,omitempty"`
	PatternProperties    map[string]laidOutSchema  `json:"patternProperties,omitempty"`
	Dependencies         map[string]*laidOutSchema `json:"dependencies,omitempty"`
	AdditionalItems      *laidOutSchema            `json:"additionalItems,omitempty"`
	Definitions          map[string]laidOutSchema  `json:"definitions,omitempty"`
}

// decodeLaidOut decodes j into crd through the layout above and reports
// whether the result is the reference decode's: false for any error,
// unknown field or repeated key.
func decodeLaidOut(j []byte, crd *crdschema.CustomResourceDefinition) bool {
	var l laidOutCRD
	strictErrs, err := kjson.UnmarshalStrict(j, &l, kjson.DisallowUnknownFields, kjson.DisallowDuplicateFields)
	if err != nil || len(strictErrs) > 0 {
		return false
	}
	*crd = l.CustomResourceDefinition
	crd.Spec = l.Spec.CustomResourceDefinitionSpec
	if l.Spec.Versions != nil {
		crd.Spec.Versions = make([]crdschema.CustomResourceDefinitionVersion, len(l.Spec.Versions))
	}
	for i := range l.Spec.Versions {
		lv := &l.Spec.Versions[i]
		v := &crd.Spec.Versions[i]
		*v = lv.CustomResourceDefinitionVersion
		if lv.Schema != nil {
			v.Schema = &crdschema.CustomResourceValidation{OpenAPIV3Schema: lv.Schema.OpenAPIV3Schema.props()}
		}
	}
	return true
}

// props returns s as a JSONSchemaProps (nil for nil).
func (s *laidOutSchema) props() *crdschema.JSONSchemaProps {
	if s == nil {
		return nil
	}
	p := new(crdschema.JSONSchemaProps)
	s.fill(p)
	return p
}

// fill sets p to s.
func (s *laidOutSchema) fill(p *crdschema.JSONSchemaProps) {
	*p = s.JSONSchemaProps
	if s.Items != nil {
		p.Items = &crdschema.JSONSchemaPropsOrArray{Schema: s.Items.props()}
	}
	p.AllOf = propsList(s.AllOf)
	p.OneOf = propsList(s.OneOf)
	p.AnyOf = propsList(s.AnyOf)
	p.Not = s.Not.props()
	p.Properties = propsMap(s.Properties)
	p.AdditionalProperties = orBool(s.AdditionalProperties)
	p.PatternProperties = propsMap(s.PatternProperties)
	if s.Dependencies != nil {
		p.Dependencies = make(map[string]crdschema.JSONSchemaPropsOrStringArray, len(s.Dependencies))
		for k, d := range s.Dependencies {
			p.Dependencies[k] = crdschema.JSONSchemaPropsOrStringArray{Schema: d.props()}
		}
	}
	p.AdditionalItems = orBool(s.AdditionalItems)
	p.Definitions = propsMap(s.Definitions)
}

func orBool(s *laidOutSchema) *crdschema.JSONSchemaPropsOrBool {
	if s == nil {
		return nil
	}
	return &crdschema.JSONSchemaPropsOrBool{Allows: true, Schema: s.props()}
}

func propsList(l []laidOutSchema) []crdschema.JSONSchemaProps {
	if l == nil {
		return nil
	}
	out := make([]crdschema.JSONSchemaProps, len(l))
	for i := range l {
		l[i].fill(&out[i])
	}
	return out
}

func propsMap(m map[string]laidOutSchema) map[string]crdschema.JSONSchemaProps {
	if m == nil {
		return nil
	}
	out := make(map[string]crdschema.JSONSchemaProps, len(m))
	for k, s := range m {
		var p crdschema.JSONSchemaProps
		s.fill(&p)
		out[k] = p
	}
	return out
}
