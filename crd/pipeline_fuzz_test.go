package crd

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/manifest"
)

// FuzzPipeline: NewPipeline on any schema either refuses it or gives a
// Pipeline whose stages never panic, never modify their inputs (Decode's
// body, the validated objects), and agree with themselves: a decoded and
// defaulted object decodes to itself with no unknown field.
func FuzzPipeline(f *testing.F) {
	for _, s := range listTypeSchemas {
		for _, o := range listTypeObjects {
			f.Add([]byte(s), []byte(o), false)
		}
	}
	f.Add([]byte(`{"type":"object","properties":{"spec":{"type":"object","properties":{"r":{"type":"integer","default":13.0},"e":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}},"x-kubernetes-validations":[{"rule":"self.r < 20"}]}}}`),
		[]byte(`{"apiVersion":"g/v1","kind":"K","metadata":{"name":"a","namespace":"n"},"spec":{"e":{"kind":"X","metadata":{"x":1}},"u":null}}`), true)
	f.Fuzz(func(t *testing.T, schema, body []byte, withKind bool) {
		var props crdschema.JSONSchemaProps
		if json.Unmarshal(schema, &props) != nil {
			return
		}
		obj, err := manifest.UnmarshalObject(body)
		if err != nil {
			return
		}
		var opts []Option
		if withKind {
			opts = append(opts, WithKind("g", "v1", "K", crdschema.NamespaceScoped))
		}
		p, err := NewPipeline(&props, opts...)
		if err != nil {
			return
		}
		before := jsonvalue.Copy(obj)
		o, _, err := p.Decode(obj)
		if !jsonvalue.SemanticEqual(before, obj) {
			t.Fatalf("Decode modified its body")
		}
		if err != nil {
			return
		}
		p.Default(o)
		again, unknown, err := p.Decode(o)
		if err != nil || len(unknown) > 0 {
			t.Fatalf("a decoded object decodes with %v, unknown fields %v", err, unknown)
		}
		p.Default(again)
		if !jsonvalue.SemanticEqual(again, o) {
			t.Fatalf("decoding and defaulting twice changed the object:\n%v\n%v", o, again)
		}
		ctx := context.Background()
		saved := jsonvalue.Copy(o)
		p.Validate(ctx, o)
		p.ValidateUpdate(ctx, o, again)
		p.ValidateStatusUpdate(ctx, o, again)
		if !jsonvalue.SemanticEqual(saved, o) {
			t.Fatalf("validation modified the object")
		}
	})
}
