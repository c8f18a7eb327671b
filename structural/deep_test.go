package structural

import (
	"strings"
	"testing"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/hostile"
)

// deepSchema nests depth objects, each with a rule whose fieldPath names
// its child, and a junctor, so that every walk goes all the way down.
func deepSchema(depth int) *crdschema.JSONSchemaProps {
	leaf := crdschema.JSONSchemaProps{Type: "string"}
	for i := 0; i < depth; i++ {
		leaf = crdschema.JSONSchemaProps{
			Type:         "object",
			Properties:   map[string]crdschema.JSONSchemaProps{"a": leaf},
			XValidations: []crdschema.ValidationRule{{Rule: "true", FieldPath: ".a"}},
			AllOf:        []crdschema.JSONSchemaProps{{Properties: map[string]crdschema.JSONSchemaProps{"a": {MinLength: new(int64)}}}},
		}
	}
	return &leaf
}

func TestDeepSchema(t *testing.T) {
	const depth = 3000
	p := deepSchema(depth)
	// A walk that is quadratic in the depth takes minutes.
	hostile.Run(t, 10*time.Second, func() { checkDeep(t, p, depth) })
}

func checkDeep(t *testing.T, p *crdschema.JSONSchemaProps, depth int) {
	s, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	if errs := Validate(nil, s, Options{}); len(errs) != 0 {
		t.Fatalf("Validate: %d errors, first %v", len(errs), errs[0])
	}
	if errs := ValidateProps(nil, p, Options{}); len(errs) != 0 {
		t.Fatalf("ValidateProps: %d errors, first %v", len(errs), errs[0])
	}
	path := strings.Repeat(".a", depth)
	if _, found, err := s.FieldPath(path, true); err != nil || found.Type != "string" {
		t.Fatalf("FieldPath: %v", err)
	}
	s.Unfold().ToJSONSchemaProps()
}
