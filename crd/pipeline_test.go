package crd

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
)

func mustProps(t *testing.T, s string) *crdschema.JSONSchemaProps {
	t.Helper()
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal([]byte(s), &p); err != nil {
		t.Fatal(err)
	}
	return &p
}

// TestNewPipelineRefuses: a schema the API server would not serve is an
// error that says why, and a nil schema too.
func TestNewPipelineRefuses(t *testing.T) {
	for _, c := range []struct{ name, schema, want string }{
		{"not structural", `{"type":"object","properties":{"a":{}}}`, "not structural"},
		{"rule does not compile", `{"type":"object","x-kubernetes-validations":[{"rule":"self.nope +"}]}`, "compil"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewPipeline(mustProps(t, c.schema))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	if _, err := NewPipeline(nil); err == nil {
		t.Fatal("a nil schema is accepted")
	}
	// With lazy compilation the rule is reported by the requests.
	p, err := NewPipeline(mustProps(t, `{"type":"object","x-kubernetes-validations":[{"rule":"self.nope +"}]}`), WithLazyCompile())
	if err != nil {
		t.Fatalf("lazy: %v", err)
	}
	if errs := p.Validate(context.Background(), map[string]any{}); len(errs) == 0 {
		t.Fatal("lazy: the rule that does not compile is not reported")
	}
}

// TestPipelineKinds: without WithKind any object is decoded with the
// schema and its kind is not checked, and an object without metadata is a
// value, whose metadata is not required; with WithKind, objects of another
// kind are not pruned and are refused by validation, and the scope decides
// whether a namespace is required.
func TestPipelineKinds(t *testing.T) {
	props := mustProps(t, `{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"integer","maximum":1}}}}}`)
	ctx := context.Background()
	bare, err := NewPipeline(props)
	if err != nil {
		t.Fatal(err)
	}
	o, unknown, err := bare.Decode(map[string]any{"kind": "Anything", "spec": map[string]any{"a": int64(2), "b": true}})
	if err != nil || len(unknown) != 1 || unknown[0] != "spec.b" {
		t.Fatalf("bare Decode: %v %v", unknown, err)
	}
	if got := bare.Validate(ctx, o).ToAggregate(); got == nil || got.Error() != "spec.a: Invalid value: 2: spec.a in body should be less than or equal to 1" {
		t.Fatalf("bare Validate: %v", got)
	}
	o["metadata"] = map[string]any{}
	if got := bare.Validate(ctx, o).ToAggregate(); got == nil || !strings.Contains(got.Error(), "metadata.name: Required value") {
		t.Fatalf("bare Validate with metadata: %v", got)
	}

	ns, err := NewPipeline(props, WithKind("g.example.com", "v1", "K", crdschema.NamespaceScoped))
	if err != nil {
		t.Fatal(err)
	}
	other := map[string]any{"apiVersion": "other.example.com/v1", "kind": "K", "metadata": map[string]any{"name": "a", "namespace": "n"}, "spec": map[string]any{"b": true}}
	o, unknown, err = ns.Decode(other)
	if err != nil || len(unknown) != 0 || o["spec"].(map[string]any)["b"] != true {
		t.Fatalf("another group is pruned: %v %v %v", o, unknown, err)
	}
	if got := ns.Validate(ctx, o).ToAggregate(); got == nil || got.Error() != "apiVersion: Invalid value: \"other.example.com/v1\": must be g.example.com/v1" {
		t.Fatalf("another group: %v", got)
	}
	mine := map[string]any{"apiVersion": "g.example.com/v1", "kind": "K", "metadata": map[string]any{"name": "a"}}
	if got := ns.Validate(ctx, mine).ToAggregate(); got == nil || got.Error() != "metadata.namespace: Required value" {
		t.Fatalf("namespaced without a namespace: %v", got)
	}
	cluster, err := NewPipeline(props, WithKind("g.example.com", "v1", "K", crdschema.ClusterScoped))
	if err != nil {
		t.Fatal(err)
	}
	if errs := cluster.Validate(ctx, mine); errs != nil {
		t.Fatalf("cluster-scoped: %v", errs)
	}
}
