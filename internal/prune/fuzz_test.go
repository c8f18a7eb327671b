package prune_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/objectmeta"
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/structural"
)

var fuzzSchemas = []string{
	`{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string"},"l":{"type":"array","items":{"type":"object","properties":{"x":{"type":"integer","nullable":true}}}}}}}}`,
	`{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"spec":{"type":"object","additionalProperties":{"type":"object","properties":{"b":{"type":"boolean","default":true}}}}}}`,
	`{"type":"object","properties":{"tmpl":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},"m":{"type":"object","additionalProperties":false}}}`,
}

var fuzzObjects = []string{
	`{"apiVersion":"g/v1","kind":"K","metadata":{"name":"n","bogus":1},"spec":{"a":"x","b":1,"l":[{"x":null,"y":2},null]}}`,
	`{"spec":{"k":{"b":null,"c":1}},"other":[1,{"a":{}}]}`,
	`{"tmpl":{"apiVersion":1,"kind":"Pod","metadata":{"name":"t","x":1}},"m":{"k":{"z":1}}}`,
	`{"tmpl":{"metadata":{"ownerReferences":[{"name":5}]}}}`,
}

func fuzzInputs(t *testing.T, schemaJSON, objJSON []byte) (*structural.Schema, map[string]any, bool) {
	var p crdschema.JSONSchemaProps
	if json.Unmarshal(schemaJSON, &p) != nil {
		return nil, nil, false
	}
	s, err := structural.New(&p)
	if err != nil {
		return nil, nil, false
	}
	v, err := jsonscan.Decode(objJSON)
	if err != nil {
		return nil, nil, false
	}
	o, ok := v.(map[string]any)
	return s, o, ok
}

func addSeeds(f *testing.F) {
	for _, s := range fuzzSchemas {
		for _, o := range fuzzObjects {
			f.Add([]byte(s), []byte(o), true)
		}
	}
}

func copyJSON(t *testing.T, o map[string]any) map[string]any {
	b, err := json.Marshal(o)
	if err != nil {
		t.Skip()
	}
	v, _ := jsonscan.Decode(b)
	return v.(map[string]any)
}

// FuzzPrune checks that pruning never panics, agrees with the reference
// walks (referencePrune, referencePruneNulls) and is idempotent: a pruned
// object has nothing left to prune.
func FuzzPrune(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, schemaJSON, objJSON []byte, root bool) {
		s, o, ok := fuzzInputs(t, schemaJSON, objJSON)
		if !ok {
			return
		}
		want := copyJSON(t, o)
		wantPaths := referencePrune(want, s, root)
		referencePruneNulls(want, s)
		paths := prune.Prune(o, s, root)
		prune.PruneNulls(o, s)
		if !reflect.DeepEqual(o, want) || fmt.Sprint(paths) != fmt.Sprint(wantPaths) {
			t.Fatalf("Prune and PruneNulls give\n%v %q\nthe reference\n%v %q", o, paths, want, wantPaths)
		}
		before := copyJSON(t, o)
		if paths := prune.Prune(o, s, root); len(paths) > 0 {
			t.Fatalf("second prune removed %q", paths)
		}
		if !reflect.DeepEqual(o, before) {
			t.Fatalf("second prune changed the object")
		}
	})
}

// FuzzCoerce checks that coercion never panics and is idempotent.
func FuzzCoerce(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, schemaJSON, objJSON []byte, drop bool) {
		s, o, ok := fuzzInputs(t, schemaJSON, objJSON)
		if !ok {
			return
		}
		opts := objectmeta.CoerceOptions{DropInvalidFields: drop, ReturnUnknownFieldPaths: true}
		if err, _ := objectmeta.Coerce(nil, o, s, true, opts); err != nil {
			return
		}
		before := copyJSON(t, o)
		err, unknown := objectmeta.Coerce(nil, o, s, true, opts)
		if err != nil || len(unknown) > 0 {
			t.Fatalf("second coercion: %v %q", err, unknown)
		}
		if !reflect.DeepEqual(copyJSON(t, o), before) {
			t.Fatalf("second coercion changed the object\n%v\n%v", before, o)
		}
	})
}

// FuzzDecode checks that the decode step never panics and that a decoded
// object decodes again without change.
func FuzzDecode(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, schemaJSON, objJSON []byte, storage bool) {
		s, o, ok := fuzzInputs(t, schemaJSON, objJSON)
		if !ok {
			return
		}
		d := prune.NewDecoder(prune.DecoderOptions{Group: "g", Kind: "K", Schemas: map[string]*structural.Schema{"v1": s}, Storage: storage})
		o["apiVersion"], o["kind"] = "g/v1", "K"
		if _, err := d.Decode(o); err != nil {
			return
		}
		before := copyJSON(t, o)
		unknown, err := d.Decode(o)
		if err != nil || len(unknown) > 0 {
			t.Fatalf("second decode: %v %q", err, unknown)
		}
		if !reflect.DeepEqual(copyJSON(t, o), before) {
			t.Fatalf("second decode changed the object\n%v\n%v", before, o)
		}
	})
}
