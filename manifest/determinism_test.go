package manifest

import (
	"fmt"
	"strings"
	"testing"
)

// decodeOutcome is everything UnmarshalCRD returns, as text.
func decodeOutcome(data []byte) string {
	def, unknown, err := UnmarshalCRD(data)
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%d versions, unknown %q", len(def.Spec.Versions), unknown)
}

// TestDecodeDeterministic: the same input gives the same result and the
// same error every time, and the error is the first wrongly typed value
// in the order of the JSON text (YAML: of the JSON kubectl sends, whose
// keys are sorted).
func TestDecodeDeterministic(t *testing.T) {
	schema := func(s string) string {
		return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"as.b.c"},` +
			`"spec":{"group":"b.c","scope":"Cluster","names":{"plural":"as","kind":"A"},` +
			`"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":` + s + `}}]}}`
	}
	for _, in := range edgeCRDs {
		first := decodeOutcome([]byte(in))
		for i := 0; i < 50; i++ {
			if got := decodeOutcome([]byte(in)); got != first {
				t.Fatalf("%.300s: run %d: %s\nfirst run: %s", in, i, got, first)
			}
		}
	}
	for _, tc := range []struct{ in, want string }{
		{schema(`{"properties":{"z":{"maxLength":"x"},"a":{"type":5},"m":{"required":[1]},"b":{"minimum":"1"}}}`),
			"cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.maxLength of type int64"},
		{schema(`{"properties":{"a":{"type":5},"z":{"maxLength":"x"}}}`),
			"cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.type of type string"},
		{schema(`{"x-kubernetes-validations":[{"rule":"a"},{"rule":1},{"message":2}],"maxItems":"3"}`),
			"cannot unmarshal number into Go struct field ValidationRule.spec.versions.schema.openAPIV3Schema.x-kubernetes-validations.rule of type string"},
		// YAML: kubectl sends the keys sorted, a before z
		{"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: as.b.c}\nspec:\n  versions:\n  - name: v1\n" +
			"    schema:\n      openAPIV3Schema:\n        properties:\n          z: {maxLength: x}\n          a: {type: 5}\n",
			"cannot unmarshal number into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.type of type string"},
	} {
		first := decodeOutcome([]byte(tc.in))
		if !strings.Contains(first, tc.want) {
			t.Errorf("%s:\n%s\nwant %s", tc.in, first, tc.want)
		}
		for i := 0; i < 200; i++ {
			if got := decodeOutcome([]byte(tc.in)); got != first {
				t.Fatalf("%s: run %d: %s\nfirst run: %s", tc.in, i, got, first)
			}
		}
	}
}

// TestDecodeDeterministicMutations: CRDs changed at random (values of
// every JSON type for every field, repeated keys, unknown fields, ...)
// decode to the same outcome every time.
func TestDecodeDeterministicMutations(t *testing.T) {
	bases := mutationBases(t)
	n := 2000
	if testing.Short() {
		n = 200
	}
	errs := 0
	for seed := uint64(0); seed < uint64(n); seed++ {
		data := mutateCRD(bases, seed)
		first := decodeOutcome(data)
		if strings.HasPrefix(first, "error: ") {
			errs++
		}
		for i := 0; i < 10; i++ {
			if got := decodeOutcome(data); got != first {
				t.Fatalf("seed %d, run %d: %s\nfirst run: %s\ninput: %.500s", seed, i, got, first, data)
			}
		}
	}
	t.Logf("%d mutants, %d of them errors", n, errs)
	if errs == 0 || errs == n {
		t.Errorf("%d errors among %d mutants: the mutations do not exercise both outcomes", errs, n)
	}
}
