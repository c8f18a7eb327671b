package structural

import "github.com/crdschema/crdschema"

// Unfold returns a copy of s in which every x-kubernetes-int-or-string
// node that does not already follow one of the two int-or-string patterns
// gets one: anyOf: [{type: integer}, {type: string}] when the node has no
// anyOf, otherwise a new allOf[0] holding that anyOf, in front of the
// node's allOf. s is not modified.
func (s *Schema) Unfold() *Schema {
	c := s.DeepCopy()
	c.Walk(nil, func(_ *crdschema.Path, n *Schema) bool {
		if !n.XIntOrString || n.hasIntOrStringAnyOf() || n.hasIntOrStringAllOf() {
			return true
		}
		if n.ValueValidation == nil {
			n.ValueValidation = &ValueValidation{}
		}
		if n.ValueValidation.AnyOf == nil {
			n.ValueValidation.AnyOf = intOrStringAnyOf()
		} else {
			first := NestedValueValidation{ValueValidation: ValueValidation{AnyOf: intOrStringAnyOf()}}
			n.ValueValidation.AllOf = append([]NestedValueValidation{first}, n.ValueValidation.AllOf...)
		}
		return true
	})
	return c
}

func intOrStringAnyOf() []NestedValueValidation {
	return []NestedValueValidation{
		{ForbiddenGenerics: Generic{Type: "integer"}},
		{ForbiddenGenerics: Generic{Type: "string"}},
	}
}
