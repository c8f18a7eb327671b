package defaulting_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

func obj(t *testing.T, js string) map[string]any {
	t.Helper()
	v, err := jsonscan.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}

func val(t *testing.T, js string) any {
	t.Helper()
	v, err := jsonscan.Decode([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

type node = structural.Schema

func object(kv ...any) *node {
	m := map[string]*node{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(*node)
	}
	return &node{Generic: structural.Generic{Type: "object"}, Properties: m}
}

func typ(t string) *node { return &node{Generic: structural.Generic{Type: t}} }

func array(items *node) *node { return &node{Generic: structural.Generic{Type: "array"}, Items: items} }

func mapOf(v *node) *node {
	return &node{Generic: structural.Generic{Type: "object"}, AdditionalProperties: &structural.SchemaOrBool{Bool: true, Schema: v}}
}

func withDefault(t *testing.T, s *node, js string) *node {
	s.Default = &crdschema.JSON{Value: val(t, js)}
	return s
}

func nullable(s *node) *node {
	s.Nullable = true
	return s
}

func TestDefault(t *testing.T) {
	spec := object(
		"cronSpec", withDefault(t, typ("string"), `"5 0 * * *"`),
		"replicas", withDefault(t, typ("integer"), `1`),
		"image", typ("string"),
		"bar", nullable(withDefault(t, typ("string"), `"b"`)),
		"obj", withDefault(t, object("inner", withDefault(t, typ("string"), `"i"`)), `{}`),
		"list", array(withDefault(t, object("x", withDefault(t, typ("integer"), `2`)), `{"y":1}`)),
		"m", mapOf(withDefault(t, object("z", withDefault(t, typ("boolean"), `true`)), `{}`)),
		"nullDefault", &node{Generic: structural.Generic{Type: "string", Default: &crdschema.JSON{}}},
	)
	s := object("spec", spec)
	tests := []struct{ in, want string }{
		{`{"spec":{"image":"i"}}`, `{"spec":{"image":"i","cronSpec":"5 0 * * *","replicas":1,"bar":"b","obj":{"inner":"i"}}}`},
		{`{"spec":{"cronSpec":"x","replicas":3,"obj":{"inner":"j"}}}`, `{"spec":{"cronSpec":"x","replicas":3,"bar":"b","obj":{"inner":"j"}}}`},
		// A non-nullable null is replaced, a nullable one kept.
		{`{"spec":{"replicas":null,"bar":null,"nullDefault":null}}`, `{"spec":{"cronSpec":"5 0 * * *","replicas":1,"bar":null,"obj":{"inner":"i"},"nullDefault":null}}`},
		// Defaults of a missing parent are not applied.
		{`{}`, `{}`},
		// Null items and map values get the items/additionalProperties default.
		{`{"spec":{"list":[null,{},{"x":5}],"m":{"a":null,"b":{"z":false}}}}`,
			`{"spec":{"cronSpec":"5 0 * * *","replicas":1,"bar":"b","obj":{"inner":"i"},"list":[{"x":2,"y":1},{"x":2},{"x":5}],"m":{"a":{"z":true},"b":{"z":false}}}}`},
	}
	for _, tt := range tests {
		o := obj(t, tt.in)
		defaulting.Default(o, s)
		if want := obj(t, tt.want); !reflect.DeepEqual(o, want) {
			t.Errorf("%s\n got %v\nwant %v", tt.in, o, want)
		}
	}
}

// Defaults are copied: changing a defaulted object changes neither the
// schema nor other objects.
func TestDefaultNotShared(t *testing.T) {
	s := object("spec", withDefault(t, object(), `{"a":{"b":[1,{"c":2}]}}`), "l", array(withDefault(t, typ("object"), `{"d":[]}`)))
	o1 := obj(t, `{"l":[null]}`)
	o2 := obj(t, `{"l":[null]}`)
	defaulting.Default(o1, s)
	defaulting.Default(o2, s)
	o1["spec"].(map[string]any)["a"].(map[string]any)["b"].([]any)[1].(map[string]any)["c"] = "changed"
	o1["l"].([]any)[0].(map[string]any)["d"] = "changed"
	if want := val(t, `{"a":{"b":[1,{"c":2}]}}`); !reflect.DeepEqual(s.Properties["spec"].Default.Value, want) {
		t.Errorf("schema default changed: %v", s.Properties["spec"].Default.Value)
	}
	if want := obj(t, `{"spec":{"a":{"b":[1,{"c":2}]}},"l":[{"d":[]}]}`); !reflect.DeepEqual(o2, want) {
		t.Errorf("other object changed: %v", o2)
	}
	if want := val(t, `{"d":[]}`); !reflect.DeepEqual(s.Properties["l"].Items.Default.Value, want) {
		t.Errorf("items default changed: %v", s.Properties["l"].Items.Default.Value)
	}
}

func TestPruneNulls(t *testing.T) {
	s := object("foo", withDefault(t, typ("string"), `"d"`), "bar", nullable(typ("string")), "baz", typ("string"))
	o := obj(t, `{"foo":null,"bar":null,"baz":null}`)
	prune.PruneNulls(o, s)
	if want := obj(t, `{"foo":null,"bar":null}`); !reflect.DeepEqual(o, want) {
		t.Errorf("got %v, want %v", o, want)
	}
	defaulting.Default(o, s)
	if want := obj(t, `{"foo":"d","bar":null}`); !reflect.DeepEqual(o, want) {
		t.Errorf("got %v, want %v", o, want)
	}
}

func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Values nested 10,000 levels deep below preserve-unknown-fields are left
// alone without exhausting the stack.
func TestDefaultDeep(t *testing.T) {
	var deep any = map[string]any{}
	for i := 0; i < 10000; i++ {
		deep = map[string]any{"x": []any{deep, nil}}
	}
	unknown := &node{Extensions: structural.Extensions{XPreserveUnknownFields: true}}
	s := object("spec", unknown, "d", withDefault(t, typ("string"), `"v"`))
	o := map[string]any{"spec": deep}
	prune.PruneNulls(o, s)
	defaulting.Default(o, s)
	if o["d"] != "v" || o["spec"] == nil {
		t.Errorf("got %v", o["d"])
	}
}
