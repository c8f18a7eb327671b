package apiextensions

import (
	"encoding/json"
	"testing"

	"github.com/crdschema/crdschema"
)

func TestBadValues(t *testing.T) {
	p := props(t, `{"type":"object","properties":{"k":{"type":"string"}}}`)
	const want = `Invalid value: {"ID":"","Schema":"","Ref":null,"Description":"","Type":"object","Nullable":false,"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":null,"Required":null,"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":{"k":{"ID":"","Schema":"","Ref":null,"Description":"","Type":"string","Nullable":false,"Format":"","Title":"","Default":null,"Maximum":null,"ExclusiveMaximum":false,"Minimum":null,"ExclusiveMinimum":false,"MaxLength":null,"MinLength":null,"Pattern":"","MaxItems":null,"MinItems":null,"UniqueItems":false,"MultipleOf":null,"Enum":null,"MaxProperties":null,"MinProperties":null,"Required":null,"Items":null,"AllOf":null,"OneOf":null,"AnyOf":null,"Not":null,"Properties":null,"AdditionalProperties":null,"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}},"AdditionalProperties":null,"PatternProperties":null,"Dependencies":null,"AdditionalItems":null,"Definitions":null,"ExternalDocs":null,"Example":null,"XPreserveUnknownFields":null,"XEmbeddedResource":false,"XIntOrString":false,"XListMapKeys":null,"XListType":null,"XMapType":null,"XValidations":null}: d`
	if got := crdschema.Invalid(nil, Schema(p), "d").Body(); got != want {
		t.Errorf("Schema:\ngot  %s\nwant %s", got, want)
	}
	if Schema(nil) != nil {
		t.Error("Schema(nil) is not nil")
	}
	const wantRule = `Invalid value: {"Rule":"self.a","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: d`
	if got := crdschema.Invalid(nil, Rule(crdschema.ValidationRule{Rule: "self.a"}), "d").Body(); got != wantRule {
		t.Errorf("Rule:\ngot  %s\nwant %s", got, wantRule)
	}
}

func props(t testing.TB, js string) *crdschema.JSONSchemaProps {
	t.Helper()
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatalf("bad test schema %s: %v", js, err)
	}
	return &p
}
