package objectmeta_test

import (
	"testing"

	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/structural"
)

func obj(t *testing.T, js string) map[string]any {
	t.Helper()
	v, err := jsonscan.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}

func props(kv ...any) map[string]*structural.Schema {
	m := map[string]*structural.Schema{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(*structural.Schema)
	}
	return m
}

func object(kv ...any) *structural.Schema {
	return &structural.Schema{Generic: structural.Generic{Type: "object"}, Properties: props(kv...)}
}

func str() *structural.Schema { return &structural.Schema{Generic: structural.Generic{Type: "string"}} }

func array(items *structural.Schema) *structural.Schema {
	return &structural.Schema{Generic: structural.Generic{Type: "array"}, Items: items}
}

func mapOf(v *structural.Schema) *structural.Schema {
	return &structural.Schema{Generic: structural.Generic{Type: "object"}, AdditionalProperties: &structural.SchemaOrBool{Bool: true, Schema: v}}
}

func preserve(s *structural.Schema) *structural.Schema {
	s.XPreserveUnknownFields = true
	return s
}

func embedded(s *structural.Schema) *structural.Schema {
	s.XEmbeddedResource = true
	return s
}
