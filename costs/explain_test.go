package costs

import (
	"context"
	"github.com/crdschema/crdschema/crd"
	"os"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/manifest"
)

func readCRD(t testing.TB, path string) *crdschema.CustomResourceDefinition {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	def, _, err := manifest.UnmarshalCRD(data)
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
		sp, _, err := parsePath(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		usualBound := usual(sp.node(def), f.FieldPath, f.Keyword)
		if f.Value > f.Largest || f.Value*2 < f.Largest && f.Value != usualBound {
			t.Errorf("fix %s: value neither within [largest/2, largest] nor the usual bound %d", f, usualBound)
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
	for _, f := range append(append([]Fix(nil), r.Fixes...), r.Fewest...) {
		if f.Value < minUsable {
			t.Errorf("fix %s: a bound below %d leaves the field unusable", f, minUsable)
		}
	}
}

func TestExplainMailingList(t *testing.T) {
	def := readCRD(t, "../examples/costs/mailinglist.yaml")
	r, err := Explain(context.Background(), def)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rules) == 0 || len(r.Fixes) == 0 || len(r.Fewest) == 0 {
		t.Fatalf("want rules over budget, fixes and a recommended combination, got %+v", r)
	}
	for _, rule := range r.Rules {
		t.Logf("%s: %d x %d = %d, collections %+v, unbounded %+v", rule.Field, rule.Cost, rule.Cardinality, rule.Total, rule.Collections, rule.Unbounded)
	}
	for _, f := range r.Fixes {
		t.Log(f)
	}
	checkFixes(t, def, r)
}

// TestExplainSpreads: on the mailing list, one maxItems alone works only
// at 4; the list and its strings bounded together allow four times more
// each, and that is the recommendation.
func TestExplainSpreads(t *testing.T) {
	def := readCRD(t, "../examples/costs/mailinglist.yaml")
	r, err := Explain(context.Background(), def)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Fewest) != 2 {
		t.Fatalf("fewest %v, want the list and its strings bounded together", r.Fewest)
	}
	best := int64(0)
	for _, f := range r.Fixes {
		best = max(best, f.Value)
	}
	for _, f := range r.Fewest {
		if f.Value < spreadFactor*best {
			t.Errorf("fewest %s: not %d times the best single bound %d", f, spreadFactor, best)
		}
	}
	checkFixes(t, def, r)
}

// TestExplainUsableBounds: a list already bounded at 100,000 whose strings
// a rule reads: only a maxLength of 0 would fix it alone, which is no fix;
// the suggestions bound the list as well.
func TestExplainUsableBounds(t *testing.T) {
	def, _, err := manifest.UnmarshalCRD([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: hosts.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: hosts, singular: host, kind: Host, listKind: HostList}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              hostnames:
                type: array
                maxItems: 100000
                items: {type: string}
                x-kubernetes-validations:
                - rule: self.all(h, h.matches('^[a-z0-9.-]+$') && h.split('.').size() < 5)
`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Explain(context.Background(), def)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rules) == 0 || len(r.Fewest) == 0 {
		t.Fatalf("want a rule over budget and a fix: %+v", r)
	}
	for _, f := range r.Fewest {
		t.Log(f)
	}
	checkFixes(t, def, r)
}

// TestExplainNothingToBound: a rule over budget whose lists and strings
// are all bounded already (the conformance case
// celrules/table-listmap-entry-value) has no bound to search: the report
// lists the rule with no fix, and Explain does not panic.
func TestExplainNothingToBound(t *testing.T) {
	def, _, err := manifest.UnmarshalCRD([]byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: crontabs.stable.example.com}
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))
            properties:
              envars:
                type: array
                maxItems: 10
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string, maxLength: 32}
                    value: {type: string, maxLength: 32}
`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := Explain(context.Background(), def)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Rules) != 1 || len(r.Fixes) != 0 || len(r.Fewest) != 0 {
		t.Errorf("want the rule over budget and no fix: %+v", r)
	}
}

func TestUsual(t *testing.T) {
	str := &crdschema.JSONSchemaProps{Type: "string"}
	tests := []struct {
		s     *crdschema.JSONSchemaProps
		field string
		want  int64
	}{
		{str, "spec.name", 253},
		{str, "spec.targetRef.namespace", 63},
		{str, "spec.hostnames[*]", 253},
		{str, "spec.webhookURL", 2048},
		{str, "spec.addresses[*]", 0},
		{str, "spec.emails[*]", 254},
		{&crdschema.JSONSchemaProps{Type: "string", Format: "uri"}, "spec.x", 2048},
		{&crdschema.JSONSchemaProps{Type: "string", Format: "ipv4"}, "spec.x", 15},
		{str, "spec.description", 0},
	}
	for _, tt := range tests {
		if got := usual(tt.s, tt.field, "maxLength"); got != tt.want {
			t.Errorf("usual(%q) = %d, want %d", tt.field, got, tt.want)
		}
	}
	if got := usual(str, "spec.name", "maxItems"); got != 0 {
		t.Errorf("usual maxItems = %d, want 0", got)
	}
	for _, tt := range []struct{ largest, usual, want int64 }{{5000, 253, 253}, {200, 253, 200}, {3000, 0, 2048}, {1, 0, 1}} {
		if got := suggest(tt.largest, tt.usual); got != tt.want {
			t.Errorf("suggest(%d, %d) = %d, want %d", tt.largest, tt.usual, got, tt.want)
		}
	}
}

// defaultRelease is the crd option of the default release.
var defaultRelease = crd.WithKubernetesVersion(crdschema.KubernetesVersion{})
