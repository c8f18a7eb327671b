package structural

import "github.com/crdschema/crdschema"

// Walk calls fn for s and every schema below it, parents before children,
// with each node's path below path: items as "items", properties as
// "properties[name]" (in name order), additionalProperties as
// "additionalProperties". Nested value validations (allOf, anyOf, oneOf,
// not) are not visited. When fn returns false, Walk does not descend into
// that node's children.
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
