package jsonschema

// objectMeta returns the JSON Schema of an object's metadata, for the root
// of a resource and for an embedded resource: the API server decodes it
// into ObjectMeta whatever the CRD's schema says (a CRD may only restrict
// name and generateName, given in crdMeta, the converted metadata schema of
// the CRD, or nil). Every field may be null, since JSON null decodes to the
// field's zero value. With strict, fields ObjectMeta does not have are
// forbidden, as the API server reports them as unknown under strict field
// validation; otherwise they are allowed, as the API server drops them.
func (c *config) objectMeta(crdMeta schema) schema {
	str := func() schema { return schema{"type": []any{"string", "null"}} }
	integer := func() schema { return schema{"type": []any{"integer", "null"}} }
	boolean := func() schema { return schema{"type": []any{"boolean", "null"}} }
	object := func(props schema) schema {
		s := schema{"type": []any{"object", "null"}, "properties": props}
		if c.strict {
			s["additionalProperties"] = false
		}
		return s
	}
	stringMap := func() schema {
		return schema{"type": []any{"object", "null"}, "additionalProperties": str()}
	}
	list := func(items schema) schema { return schema{"type": []any{"array", "null"}, "items": items} }

	props := schema{
		"name":                       str(),
		"generateName":               str(),
		"namespace":                  str(),
		"selfLink":                   str(),
		"uid":                        str(),
		"resourceVersion":            str(),
		"generation":                 integer(),
		"creationTimestamp":          str(),
		"deletionTimestamp":          str(),
		"deletionGracePeriodSeconds": integer(),
		"labels":                     stringMap(),
		"annotations":                stringMap(),
		"ownerReferences": list(object(schema{
			"apiVersion":         str(),
			"kind":               str(),
			"name":               str(),
			"uid":                str(),
			"controller":         boolean(),
			"blockOwnerDeletion": boolean(),
		})),
		"finalizers": list(str()),
		"managedFields": list(object(schema{
			"manager":     str(),
			"operation":   str(),
			"apiVersion":  str(),
			"time":        str(),
			"fieldsType":  str(),
			"fieldsV1":    schema{"type": []any{"object", "null"}},
			"subresource": str(),
		})),
	}
	// the CRD's own restrictions of name and generateName
	if given, ok := crdMeta["properties"].(map[string]any); ok {
		for _, k := range []string{"name", "generateName"} {
			if s, ok := given[k].(map[string]any); ok {
				props[k] = s
			}
		}
	}
	return object(props)
}
