package structural

import "github.com/crdschema/crdschema"

// StripValueValidations returns a copy of s without value validations
// (formats, bounds, patterns, enums, required, junctors) at any level.
// s is not modified.
func (s *Schema) StripValueValidations() *Schema {
	return s.copyEach(func(n *Schema) { n.ValueValidation = nil })
}

// StripNullable returns a copy of s with nullable false at every level.
// s is not modified.
func (s *Schema) StripNullable() *Schema {
	return s.copyEach(func(n *Schema) { n.Nullable = false })
}

// copyEach returns a deep copy of s with f applied to each of its nodes
// (those Walk visits).
func (s *Schema) copyEach(f func(n *Schema)) *Schema {
	c := s.DeepCopy()
	c.Walk(nil, func(_ *crdschema.Path, n *Schema) bool {
		f(n)
		return true
	})
	return c
}
