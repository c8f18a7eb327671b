package prune_test

import (
	"reflect"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/prune"
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

func props(kv ...any) map[string]*structural.Schema {
	m := map[string]*structural.Schema{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1].(*structural.Schema)
	}
	return m
}

func object(kv ...any) *structural.Schema {
	return &structural.Schema{Generic: structural.Generic{Type: "object"}, Properties: props(kv...)}
}

func str() *structural.Schema { return &structural.Schema{Generic: structural.Generic{Type: "string"}} }

func array(items *structural.Schema) *structural.Schema {
	return &structural.Schema{Generic: structural.Generic{Type: "array"}, Items: items}
}

func mapOf(v *structural.Schema) *structural.Schema {
	return &structural.Schema{Generic: structural.Generic{Type: "object"}, AdditionalProperties: &structural.SchemaOrBool{Bool: true, Schema: v}}
}

func preserve(s *structural.Schema) *structural.Schema {
	s.XPreserveUnknownFields = true
	return s
}

func embedded(s *structural.Schema) *structural.Schema {
	s.XEmbeddedResource = true
	return s
}

func TestPrune(t *testing.T) {
	tests := []struct {
		name   string
		schema *structural.Schema
		root   bool
		in     string
		want   string
		paths  []string
	}{
		{
			name:   "unknown field",
			schema: object("spec", object("a", str())),
			root:   true,
			in:     `{"apiVersion":"v1","kind":"K","metadata":{"x":1},"spec":{"a":"x","someRandomField":1},"other":true}`,
			want:   `{"apiVersion":"v1","kind":"K","metadata":{"x":1},"spec":{"a":"x"}}`,
			paths:  []string{"other", "spec.someRandomField"},
		},
		{
			name:   "meta fields at a non-resource root are removed but not reported",
			schema: object("spec", object()),
			in:     `{"apiVersion":"v1","kind":"K","metadata":{},"spec":{"kind":1}}`,
			want:   `{"spec":{}}`,
			paths:  []string{"spec.kind"},
		},
		{
			name:   "array items with index in the path",
			schema: object("items", array(object("a", str()))),
			in:     `{"items":[{"a":"x","b":1},"s",{"c":[{"d":1}]}]}`,
			want:   `{"items":[{"a":"x"},"s",{}]}`,
			paths:  []string{"items[0].b", "items[2].c"},
		},
		{
			name:   "additionalProperties values are pruned, keys kept",
			schema: object("m", mapOf(object("a", str()))),
			in:     `{"m":{"k1":{"a":"x","b":1},"k2":{}}}`,
			want:   `{"m":{"k1":{"a":"x"},"k2":{}}}`,
			paths:  []string{"m.k1.b"},
		},
		{
			name: "additionalProperties false keeps the key, empties the value",
			schema: object("m", &structural.Schema{Generic: structural.Generic{Type: "object"},
				AdditionalProperties: &structural.SchemaOrBool{Bool: false}}),
			in:    `{"m":{"x":{"y":1,"z":{"w":2}},"l":[{"a":1},[{"b":2}],3],"s":"v"}}`,
			want:  `{"m":{"x":{},"l":[{},[{}],3],"s":"v"}}`,
			paths: []string{"m.l[0].a", "m.l[1][0].b", "m.x.y", "m.x.z"},
		},
		{
			name:   "preserve-unknown-fields keeps unknown fields, prunes below properties",
			schema: object("spec", preserve(object("known", object("a", str())))),
			in:     `{"spec":{"unknown":{"deep":{"x":1}},"known":{"a":"x","b":2}}}`,
			want:   `{"spec":{"unknown":{"deep":{"x":1}},"known":{"a":"x"}}}`,
			paths:  []string{"spec.known.b"},
		},
		{
			name:   "preserve-unknown-fields with additionalProperties prunes the values",
			schema: object("spec", preserve(mapOf(object("a", str())))),
			in:     `{"spec":{"k":{"a":"x","b":2}}}`,
			want:   `{"spec":{"k":{"a":"x"}}}`,
			paths:  []string{"spec.k.b"},
		},
		{
			name:   "preserve-unknown-fields arrays keep unknown fields in items",
			schema: object("l", preserve(array(object("a", object("b", str()))))),
			in:     `{"l":[{"x":1,"a":{"b":"y","c":1}}]}`,
			want:   `{"l":[{"x":1,"a":{"b":"y"}}]}`,
			paths:  []string{"l[0].a.c"},
		},
		{
			name:   "preserve-unknown-fields at the root",
			schema: preserve(object("spec", object("a", str()))),
			root:   true,
			in:     `{"apiVersion":"v1","x":1,"spec":{"a":"b","c":2}}`,
			want:   `{"apiVersion":"v1","x":1,"spec":{"a":"b"}}`,
			paths:  []string{"spec.c"},
		},
		{
			name:   "embedded resource keeps apiVersion, kind, metadata",
			schema: object("tmpl", embedded(object("spec", object("replicas", &structural.Schema{Generic: structural.Generic{Type: "integer"}})))),
			in:     `{"tmpl":{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","bogus":1},"spec":{"replicas":1,"template":{}},"status":{}}}`,
			want:   `{"tmpl":{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d","bogus":1},"spec":{"replicas":1}}}`,
			paths:  []string{"tmpl.spec.template", "tmpl.status"},
		},
		{
			name:  "nil schema at a resource root keeps only the meta fields",
			root:  true,
			in:    `{"apiVersion":"v1","kind":"K","metadata":{},"spec":{"a":1}}`,
			want:  `{"apiVersion":"v1","kind":"K","metadata":{}}`,
			paths: []string{"spec"},
		},
		{
			name:  "nil schema removes everything",
			in:    `{"apiVersion":"v1","spec":{"a":1}}`,
			want:  `{}`,
			paths: []string{"apiVersion", "spec"},
		},
		{
			name:   "nothing to prune",
			schema: object("a", str()),
			in:     `{"a":"x"}`,
			want:   `{"a":"x"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := obj(t, tt.in)
			paths := prune.Prune(o, tt.schema, tt.root)
			if want := obj(t, tt.want); !reflect.DeepEqual(o, want) {
				t.Errorf("object\n got %v\nwant %v", o, want)
			}
			if !reflect.DeepEqual(paths, tt.paths) {
				t.Errorf("paths\n got %q\nwant %q", paths, tt.paths)
			}
		})
	}
}

func TestPruneValue(t *testing.T) {
	v := []any{map[string]any{"a": "x", "b": int64(1)}}
	paths := prune.Prune(v, array(object("a", str())), false)
	if want := []any{map[string]any{"a": "x"}}; !reflect.DeepEqual(v, want) {
		t.Errorf("got %v, want %v", v, want)
	}
	if want := []string{"[0].b"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("paths %q, want %q", paths, want)
	}
}

func TestPruneNulls(t *testing.T) {
	nullable := str()
	nullable.Nullable = true
	withDefault := str()
	withDefault.Default = &crdschema.JSON{Value: "d"}
	nullDefault := str()
	nullDefault.Default = &crdschema.JSON{Value: nil}
	s := object(
		"plain", str(),
		"nullable", nullable,
		"defaulted", withDefault,
		"nullDefault", nullDefault,
		"list", array(str()),
		"m", mapOf(str()),
		"any", preserve(&structural.Schema{}),
	)
	o := obj(t, `{"plain":null,"nullable":null,"defaulted":null,"nullDefault":null,"list":[null,"a"],"m":{"k":null},"unknown":null,"any":{"x":null}}`)
	prune.PruneNulls(o, s)
	want := obj(t, `{"nullable":null,"defaulted":null,"list":[null,"a"],"m":{},"unknown":null,"any":{"x":null}}`)
	if !reflect.DeepEqual(o, want) {
		t.Errorf("got %v\nwant %v", o, want)
	}
}

// A value nested 10,000 levels below preserve-unknown-fields is kept as
// it is, without exhausting the stack.
func TestPruneDeep(t *testing.T) {
	var deep any = "leaf"
	for i := 0; i < 10000; i++ {
		if i%2 == 0 {
			deep = map[string]any{"x": deep}
		} else {
			deep = []any{deep, map[string]any{"y": nil}}
		}
	}
	s := object("spec", preserve(&structural.Schema{Generic: structural.Generic{Type: "object"}}),
		"other", &structural.Schema{Generic: structural.Generic{Type: "object"}, AdditionalProperties: &structural.SchemaOrBool{}})
	o := map[string]any{"spec": map[string]any{"d": deep}, "other": map[string]any{"k": deep}}
	paths := prune.Prune(o, s, true)
	if want := []string{"other.k[0].x", "other.k[1].y"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("paths %q", paths)
	}
	prune.PruneNulls(o, s)
	if _, err := prune.NewDecoder(prune.DecoderOptions{Schemas: map[string]*structural.Schema{"v1": s}, Kind: "K"}).Decode(map[string]any{"kind": "K", "apiVersion": "v1", "spec": map[string]any{"d": deep}}); err != nil {
		t.Error(err)
	}
}
