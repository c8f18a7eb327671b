package defaulting_test

import (
	"encoding/json"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

// FuzzDefault checks that defaulting never panics, is idempotent, and
// never lets the object share a map or list with the schema's defaults.
func FuzzDefault(f *testing.F) {
	schemas := []string{
		`{"type":"object","properties":{"spec":{"type":"object","default":{"a":{"b":[1]}},"properties":{"a":{"type":"object","x-kubernetes-preserve-unknown-fields":true},"r":{"type":"integer","default":1},"n":{"type":"string","nullable":true,"default":"x"}}}}}`,
		`{"type":"object","properties":{"l":{"type":"array","items":{"type":"object","default":{"x":[]},"properties":{"x":{"type":"array","items":{"type":"string"}}}}},"m":{"type":"object","additionalProperties":{"type":"object","default":{},"properties":{"z":{"type":"boolean","default":true}}}}}}`,
	}
	objects := []string{`{}`, `{"spec":{}}`, `{"spec":{"r":null,"n":null}}`, `{"l":[null,{}],"m":{"a":null,"b":{"z":null}}}`}
	for _, s := range schemas {
		for _, o := range objects {
			f.Add([]byte(s), []byte(o))
		}
	}
	f.Fuzz(func(t *testing.T, schemaJSON, objJSON []byte) {
		var p crdschema.JSONSchemaProps
		if json.Unmarshal(schemaJSON, &p) != nil {
			return
		}
		s, err := structural.New(&p)
		if err != nil || s == nil {
			return
		}
		v, err := jsonscan.Decode(objJSON)
		if err != nil {
			return
		}
		schemaBefore, err := json.Marshal(s)
		if err != nil {
			return
		}
		prune.PruneNulls(v, s)
		defaulting.Default(v, s)
		once, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		defaulting.Default(v, s)
		if twice, _ := json.Marshal(v); string(twice) != string(once) {
			t.Fatalf("defaulting twice changed the object\n%s\n%s", once, twice)
		}
		scramble(v)
		if after, _ := json.Marshal(s); string(after) != string(schemaBefore) {
			t.Fatalf("changing the object changed the schema\n%s\n%s", schemaBefore, after)
		}
		if _, err := defaulting.PruneDefaults(s); err == nil {
			if after, _ := json.Marshal(s); string(after) != string(schemaBefore) {
				t.Fatalf("PruneDefaults changed its input")
			}
		}
	})
}

// scramble overwrites every map entry and list element of v.
func scramble(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			scramble(e)
			v[k] = "scrambled"
		}
		v["added"] = true
	case []any:
		for i, e := range v {
			scramble(e)
			v[i] = "scrambled"
		}
	}
}
