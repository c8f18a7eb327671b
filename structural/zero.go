package structural

// The isZero methods tell whether a part of a schema is unset, exactly as
// the API server compares it with its zero value: a list or map that is
// present but empty (required: [], properties: {} under a junctor,
// x-kubernetes-list-map-keys: [], x-kubernetes-validations: []) is not
// zero.

func (g *Generic) isZero() bool {
	return g.Description == "" && g.Type == "" && g.Title == "" &&
		g.Default == nil && !g.Nullable && g.ExternalDocs == nil && g.Example == nil
}

func (x *Extensions) isZero() bool {
	return !x.XPreserveUnknownFields && !x.XEmbeddedResource && !x.XIntOrString &&
		x.XListMapKeys == nil && x.XListType == nil && x.XMapType == nil
}

func (v *ValueValidation) isZero() bool {
	return v.Format == "" && v.Maximum == nil && !v.ExclusiveMaximum &&
		v.Minimum == nil && !v.ExclusiveMinimum && v.MaxLength == nil &&
		v.MinLength == nil && v.Pattern == "" && v.MaxItems == nil &&
		v.MinItems == nil && !v.UniqueItems && v.MultipleOf == nil &&
		v.Enum == nil && v.MaxProperties == nil && v.MinProperties == nil &&
		v.Required == nil && v.AllOf == nil && v.OneOf == nil && v.AnyOf == nil &&
		v.Not == nil
}

// isOnlyType tells whether n is exactly {type: typ} and nothing else.
func (n *NestedValueValidation) isOnlyType(typ string) bool {
	g := n.ForbiddenGenerics
	g.Type = ""
	return n.ForbiddenGenerics.Type == typ && g.isZero() &&
		n.ForbiddenExtensions.isZero() && n.ValueValidation.isZero() &&
		n.XValidations == nil && n.Items == nil && n.Properties == nil &&
		n.AdditionalProperties == nil
}

// isIntOrStringPair tells whether l is exactly
// [{type: integer}, {type: string}].
func isIntOrStringPair(l []NestedValueValidation) bool {
	return len(l) == 2 && l[0].isOnlyType("integer") && l[1].isOnlyType("string")
}

// hasIntOrStringAnyOf tells whether s has anyOf: [{type: integer},
// {type: string}], the first pattern allowed for int-or-string.
func (s *Schema) hasIntOrStringAnyOf() bool {
	return s != nil && s.ValueValidation != nil && isIntOrStringPair(s.ValueValidation.AnyOf)
}

// hasIntOrStringAllOf tells whether s has allOf[0].anyOf: [{type:
// integer}, {type: string}], the second pattern allowed for int-or-string.
func (s *Schema) hasIntOrStringAllOf() bool {
	return s != nil && s.ValueValidation != nil && len(s.ValueValidation.AllOf) > 0 &&
		isIntOrStringPair(s.ValueValidation.AllOf[0].AnyOf)
}
