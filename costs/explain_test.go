package costs

import (
	"context"
	"github.com/crdschema/crdschema/crd"
	"os"
	"testing"

	"github.com/crdschema/crdschema"
)

func readCRD(t testing.TB, path string) *crdschema.CustomResourceDefinition {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	def, _, err := crdschema.UnmarshalCRD(data)
	if err != nil {
		t.Fatal(err)
	}
	return def
}

// checkFixes applies every fix of r to def and checks that the costs pass,
// that a single fix's Largest is the largest value that passes, and that
// Value is at least half of it.
func checkFixes(t *testing.T, def *crdschema.CustomResourceDefinition, r *Report) {
	t.Helper()
	apply := func(fs ...Fix) *crdschema.CustomResourceDefinition {
		d := def
		for _, f := range fs {
			sp, _, err := parsePath(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			d = withBound(d, sp, f.Keyword, f.Value)
		}
		return d
	}
	for _, f := range r.Fixes {
		if hasCostErrors(context.Background(), apply(f), defaultRelease) {
			t.Errorf("fix %s: the CRD still has cost errors", f)
		}
		if f.Value*2 < f.Largest || f.Value > f.Largest {
			t.Errorf("fix %s: value not within [largest/2, largest]", f)
		}
		g := f
		g.Value = f.Largest + 1
		if f.Largest+1 <= maxSearch && (f.Current < 0 || f.Largest+1 < f.Current) && !hasCostErrors(context.Background(), apply(g), defaultRelease) {
			t.Errorf("fix %s: %d passes too: not the largest", f, g.Value)
		}
	}
	if len(r.Rules) > 0 && len(r.Fewest) > 0 && hasCostErrors(context.Background(), apply(r.Fewest...), defaultRelease) {
		t.Errorf("fewest %v: the CRD still has cost errors", r.Fewest)
	}
}

func TestExplainMailingList(t *testing.T) {
	def := readCRD(t, "../examples/costs/mailinglist.yaml")
	r, err := Explain(context.Background(), def)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rules) == 0 || len(r.Fixes) == 0 || len(r.Fewest) != 1 {
		t.Fatalf("want rules over budget, fixes and one fewest fix, got %+v", r)
	}
	for _, rule := range r.Rules {
		t.Logf("%s: %d x %d = %d, collections %+v, unbounded %+v", rule.Field, rule.Cost, rule.Cardinality, rule.Total, rule.Collections, rule.Unbounded)
	}
	for _, f := range r.Fixes {
		t.Log(f)
	}
	checkFixes(t, def, r)
}

// defaultRelease is the crd option of the default release.
var defaultRelease = crd.WithKubernetesVersion(crdschema.KubernetesVersion{})
