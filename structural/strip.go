package structural

import "github.com/crdschema/crdschema"

// StripValueValidations returns a copy of s without value validations
// (formats, bounds, patterns, enums, required, junctors) at any level.
// s is not modified.
func (s *Schema) StripValueValidations() *Schema {
	c := s.DeepCopy()
	c.Walk(nil, func(_ *crdschema.Path, n *Schema) bool {
		n.ValueValidation = nil
		return true
	})
	return c
}

// StripNullable returns a copy of s with nullable false at every level.
// s is not modified.
func (s *Schema) StripNullable() *Schema {
	c := s.DeepCopy()
	c.Walk(nil, func(_ *crdschema.Path, n *Schema) bool {
		n.Nullable = false
		return true
	})
	return c
}
