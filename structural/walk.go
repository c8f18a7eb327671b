package structural

import "github.com/crdschema/crdschema"

// Walk calls fn for s and every schema below it, parents before children,
// with each node's path below path: items as "items", properties as
// "properties[name]" (in name order), additionalProperties as
// "additionalProperties". Nested value validations (allOf, anyOf, oneOf,
// not) are not visited; use WalkNested for them. When fn returns false,
// Walk does not descend into that node's children.
func (s *Schema) Walk(path *crdschema.Path, fn func(path *crdschema.Path, s *Schema) bool) {
	if s == nil || !fn(path, s) {
		return
	}
	s.Items.Walk(path.Child("items"), fn)
	for _, k := range sortedKeys(s.Properties) {
		s.Properties[k].Walk(path.Child("properties").Key(k), fn)
	}
	if s.AdditionalProperties != nil {
		s.AdditionalProperties.Schema.Walk(path.Child("additionalProperties"), fn)
	}
}

// WalkNested calls fn for every nested value validation of s and of the
// schemas below it, parents before children, with its path: the junctors
// of a node (allOf[i], anyOf[i], oneOf[i], not, in that order) and,
// inside them, items, properties[name], additionalProperties and further
// junctors. When fn returns false, WalkNested does not descend into that
// nested validation.
func (s *Schema) WalkNested(path *crdschema.Path, fn func(path *crdschema.Path, n *NestedValueValidation) bool) {
	s.Walk(path, func(p *crdschema.Path, s *Schema) bool {
		if s.ValueValidation != nil {
			s.ValueValidation.walkJunctors(p, fn)
		}
		return true
	})
}

func (v *ValueValidation) walkJunctors(path *crdschema.Path, fn func(*crdschema.Path, *NestedValueValidation) bool) {
	for i := range v.AllOf {
		v.AllOf[i].walk(path.Child("allOf").Index(i), fn)
	}
	for i := range v.AnyOf {
		v.AnyOf[i].walk(path.Child("anyOf").Index(i), fn)
	}
	for i := range v.OneOf {
		v.OneOf[i].walk(path.Child("oneOf").Index(i), fn)
	}
	v.Not.walk(path.Child("not"), fn)
}

func (n *NestedValueValidation) walk(path *crdschema.Path, fn func(*crdschema.Path, *NestedValueValidation) bool) {
	if n == nil || !fn(path, n) {
		return
	}
	n.Items.walk(path.Child("items"), fn)
	for _, k := range sortedKeys(n.Properties) {
		n.Properties[k].walk(path.Child("properties").Key(k), fn)
	}
	n.AdditionalProperties.walk(path.Child("additionalProperties"), fn)
	n.ValueValidation.walkJunctors(path, fn)
}
