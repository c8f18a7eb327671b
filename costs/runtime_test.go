package costs

import (
	"context"
	"testing"

	"github.com/crdschema/crdschema/manifest"
)

func TestRuntime(t *testing.T) {
	def := readCRD(t, "../examples/costs/mailinglist.yaml")
	obj, err := manifest.UnmarshalObject([]byte(`{"apiVersion": "example.com/v1", "kind": "MailingList", "metadata": {"name": "a"},
		"spec": {"addresses": ["a@example.com", "b@example.com", "c@example.com"], "owner": "o@example.com",
		"moderators": [{"name": "x"}, {"name": "y"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := Runtime(context.Background(), def, "v1", obj)
	if err != nil {
		t.Fatal(err)
	}
	if len(rc) != 3 {
		t.Fatalf("want the 3 rules, got %d: %+v", len(rc), rc)
	}
	wantEvals := map[string]int{
		"spec.validation.openAPIV3Schema.properties[spec].properties[addresses].x-kubernetes-validations[0].rule":        1,
		"spec.validation.openAPIV3Schema.properties[spec].properties[owner].x-kubernetes-validations[0].rule":            1,
		"spec.validation.openAPIV3Schema.properties[spec].properties[moderators].items.x-kubernetes-validations[0].rule": 2,
	}
	for _, c := range rc {
		t.Log(c)
		if c.Evaluations != wantEvals[c.Field] {
			t.Errorf("%s: %d evaluations, want %d", c.Field, c.Evaluations, wantEvals[c.Field])
		}
		if c.Actual <= 0 || uint64(c.Actual) > c.Estimated {
			t.Errorf("%s: actual cost %d not in (0, estimate %d]", c.Field, c.Actual, c.Estimated)
		}
	}
	// More addresses cost more.
	obj["spec"].(map[string]any)["addresses"] = []any{"a@example.com", "b@example.com", "c@example.com", "d@example.com", "e@example.com", "f@example.com"}
	rc2, err := Runtime(context.Background(), def, "v1", obj)
	if err != nil {
		t.Fatal(err)
	}
	if rc2[0].Actual <= rc[0].Actual {
		t.Errorf("6 addresses cost %d, 3 cost %d: want more", rc2[0].Actual, rc[0].Actual)
	}
}
