package crd

import (
	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
)

// structurals are the structural schemas of one validation or crd.New
// call, by the schema they were converted from, so that validating the CRD
// (its schema and its selectable fields) and building its served schemas
// convert each version's schema once. A nil
// *structurals converts every time. The schemas it returns are shared:
// they must not be modified.
type structurals struct {
	m map[*crdschema.JSONSchemaProps]converted
	// nullFree holds withoutNulls' results by schema.
	nullFree map[*crdschema.JSONSchemaProps]nullFree
}

type nullFree struct {
	v          *crdschema.CustomResourceValidation
	hasDefault bool
}

type converted struct {
	s   *structural.Schema
	err error
}

func newStructurals() *structurals {
	return &structurals{m: map[*crdschema.JSONSchemaProps]converted{}, nullFree: map[*crdschema.JSONSchemaProps]nullFree{}}
}

// of returns structural.New(props), converted once per props.
func (c *structurals) of(props *crdschema.JSONSchemaProps) (*structural.Schema, error) {
	if c == nil {
		return structural.New(props)
	}
	if r, ok := c.m[props]; ok {
		return r.s, r.err
	}
	s, err := structural.New(props)
	c.m[props] = converted{s, err}
	return s, err
}

// share makes props convert to what other converted to (or will); the
// two are deeply equal.
func (c *structurals) share(props, other *crdschema.JSONSchemaProps) {
	if c == nil {
		return
	}
	if r, ok := c.m[other]; ok {
		c.m[props] = r
	}
}

// withoutNulls is withoutNulls(v), computed once per schema: copies of a
// CRD (Defaulted) share their schemas.
func (c *structurals) withoutNulls(v *crdschema.CustomResourceValidation) (*crdschema.CustomResourceValidation, bool) {
	if c == nil || v == nil || v.OpenAPIV3Schema == nil {
		return withoutNulls(v)
	}
	r, ok := c.nullFree[v.OpenAPIV3Schema]
	if !ok {
		r.v, r.hasDefault = withoutNulls(v)
		c.nullFree[v.OpenAPIV3Schema] = r
	}
	return r.v, r.hasDefault
}
