package crd

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/structural"
)

var defaultsSchemas = []string{
	`{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"type":"string","default":"x"},"b":{"type":"object","properties":{"c":{"type":"integer"}}},"l":{"type":"array","items":{"type":"object","properties":{"d":{"type":"boolean","default":true},"e":{"type":"string"}}}}}},"status":{"type":"object","properties":{"s":{"type":"string"}}}}}`,
	`{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"object","nullable":true,"default":{"z":1},"properties":{"z":{"type":"integer"}}}},"n":{"type":"array","items":{"type":"string","default":"q"}},"o":{"type":"object","additionalProperties":{"type":"string"}}}}`,
	`{"type":"object","properties":{"p":{"type":"object","properties":{"q":{"type":"integer","default":1}},"additionalProperties":{"type":"object","properties":{"r":{"type":"integer","default":2}}}},"t":{"type":"object","properties":{"u":{"type":"integer"}},"additionalProperties":{"type":"integer"}}}}`,
	`{"type":"object","properties":{"x":{"type":"string"}}}`,
	`{"type":"object","properties":{"a":{"type":"object","default":{},"properties":{"b":{"type":"integer","default":2},"c":{"type":"array","default":[null],"items":{"type":"object","default":{"d":1},"properties":{"d":{"type":"integer"},"e":{"type":"integer","default":5}}}}}}}}`,
}

var defaultsObjects = []string{
	`{}`,
	`{"spec":{"b":{"c":1},"l":[{},null,{"d":false},{"e":"y"}]},"status":{"s":null}}`,
	`{"spec":null,"m":{"k":null,"j":{}},"n":[null,"a"],"o":{"k":null}}`,
	`{"p":{"q":null,"k":{},"v":null},"t":{"u":null,"w":null}}`,
	`{"x":null,"spec":{"a":null}}`,
}

func checkDefaultsOnly(t *testing.T, s *structural.Schema, obj map[string]any) {
	t.Helper()
	want := jsonvalue.CopyMap(obj)
	defaulting.Default(want, s)
	got := jsonvalue.CopyMap(obj)
	if d := defaultsOnly(s, 0); d != nil {
		defaulting.Default(got, d)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("defaults of the cut-down schema:\n%v\nof the schema:\n%v", got, want)
	}
	compiled := jsonvalue.CopyMap(obj)
	if d := compileDefaulter(defaultsOnly(s, 0), 0); d != nil {
		d.apply(compiled)
	}
	if !reflect.DeepEqual(compiled, want) {
		t.Fatalf("defaults of the compiled defaulter:\n%v\nof the schema:\n%v", compiled, want)
	}
}

func parseDefaultsCase(t *testing.T, schema, obj []byte) (*structural.Schema, map[string]any, bool) {
	var p crdschema.JSONSchemaProps
	if json.Unmarshal(schema, &p) != nil {
		return nil, nil, false
	}
	s, err := structural.New(&p)
	if err != nil || s == nil {
		return nil, nil, false
	}
	o, err := manifest.UnmarshalObject(obj)
	if err != nil {
		return nil, nil, false
	}
	return s, o, true
}

func TestDefaultsOnly(t *testing.T) {
	for _, sj := range defaultsSchemas {
		for _, oj := range defaultsObjects {
			s, o, ok := parseDefaultsCase(t, []byte(sj), []byte(oj))
			if !ok {
				t.Fatalf("bad case %s %s", sj, oj)
			}
			checkDefaultsOnly(t, s, o)
		}
	}
	s, _, _ := parseDefaultsCase(t, []byte(defaultsSchemas[3]), []byte(`{}`))
	if d := defaultsOnly(s, 0); d != nil {
		t.Errorf("a schema without defaults cuts down to %+v, want nil", d)
	}
}

// FuzzDefaultsOnly: defaulting with the schema cut down by defaultsOnly
// gives what defaulting with the whole schema gives.
func FuzzDefaultsOnly(f *testing.F) {
	for _, s := range defaultsSchemas {
		for _, o := range defaultsObjects {
			f.Add([]byte(s), []byte(o))
		}
	}
	f.Fuzz(func(t *testing.T, schema, obj []byte) {
		s, o, ok := parseDefaultsCase(t, schema, obj)
		if !ok {
			return
		}
		checkDefaultsOnly(t, s, o)
	})
}
