package defaulting_test

import (
	"reflect"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/structural"
)

func TestPruneDefaults(t *testing.T) {
	tmpl := withDefault(t, &node{Generic: structural.Generic{Type: "object"}, Extensions: structural.Extensions{XEmbeddedResource: true, XPreserveUnknownFields: true}},
		`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","bogus":"y","labels":{"a":"b"}},"spec":{"any":1}}`)
	s := object(
		"metadata", object("foo", withDefault(t, typ("string"), `"x"`), "name", withDefault(t, typ("string"), `"n"`)),
		"spec", withDefault(t, object("replicas", typ("integer"), "template", tmpl,
			"list", array(withDefault(t, object("x", typ("integer")), `{"x":1,"junk":2}`)),
			"m", mapOf(withDefault(t, object("a", typ("integer")), `{"a":1,"b":2}`)),
		), `{"replicas":1,"badger":1}`),
	)
	before := jsonOf(t, s)
	got, err := defaulting.PruneDefaults(s)
	if err != nil {
		t.Fatal(err)
	}
	if jsonOf(t, s) != before {
		t.Error("PruneDefaults modified its input")
	}
	spec := got.Properties["spec"]
	checks := []struct {
		name string
		got  *crdschema.JSON
		want string // "" for no default
	}{
		{"unknown field in a default", spec.Default, `{"replicas":1}`},
		{"embedded resource metadata", spec.Properties["template"].Default, `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","labels":{"a":"b"}},"spec":{"any":1}}`},
		{"items default", spec.Properties["list"].Items.Default, `{"x":1}`},
		{"additionalProperties default", spec.Properties["m"].AdditionalProperties.Schema.Default, `{"a":1}`},
		{"metadata field ObjectMeta does not know", got.Properties["metadata"].Properties["foo"].Default, ``},
		{"metadata field ObjectMeta knows", got.Properties["metadata"].Properties["name"].Default, `"n"`},
	}
	for _, c := range checks {
		if c.want == "" {
			if c.got != nil {
				t.Errorf("%s: default %v, want none", c.name, c.got.Value)
			}
			continue
		}
		if c.got == nil || !reflect.DeepEqual(c.got.Value, val(t, c.want)) {
			t.Errorf("%s: default %v, want %s", c.name, c.got, c.want)
		}
	}
	// Nodes without defaults are carried over.
	if got.Properties["spec"].Properties["replicas"].Type != "integer" {
		t.Error("schema not copied")
	}
}

func TestPruneDefaultsErrors(t *testing.T) {
	s := withDefault(t, object(), `"x"`)
	_, err := defaulting.PruneDefaults(s)
	if want := "failed to prune default value: object root default value must be of object type"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if s, err := defaulting.PruneDefaults(nil); s != nil || err != nil {
		t.Errorf("nil schema: %v %v", s, err)
	}
}

func TestSurrounding(t *testing.T) {
	sur := defaulting.Surrounding{}.WithTypeMeta("validation/v1", "Validation").Child("spec").Index().Child("x")
	o, err := sur.Wrap("v")
	if err != nil {
		t.Fatal(err)
	}
	if want := obj(t, `{"apiVersion":"validation/v1","kind":"Validation","spec":[{"x":"v"}]}`); !reflect.DeepEqual(o, want) {
		t.Errorf("Wrap: %v", o)
	}
	if v, found, err := sur.Extract(o); v != "v" || !found || err != nil {
		t.Errorf("Extract: %v %v %v", v, found, err)
	}
	if _, err := (defaulting.Surrounding{}).Wrap([]any{}); err == nil || err.Error() != "object root default value must be of object type" {
		t.Errorf("root error %v", err)
	}
	root := defaulting.Surrounding{}.WithTypeMeta("validation/v1", "Validation")
	if o, _ := root.Wrap(map[string]any{"kind": "Pod"}); o["kind"] != "Pod" || o["apiVersion"] != "validation/v1" {
		t.Errorf("type meta: %v", o)
	}
	tests := []struct {
		sur  defaulting.Surrounding
		obj  string
		want string
	}{
		{defaulting.Surrounding{}.Child("a").Child("b").Child("c"), `{"a":"s"}`, ".c.b must be of object type"},
		{defaulting.Surrounding{}.Child("a").Index(), `{"a":{}}`, "[] must be of array type"},
		{defaulting.Surrounding{}.Child("a").Child("b").Index().Child("c"), `{"a":{"b":5}}`, ".c[] must be of array type"},
		{defaulting.Surrounding{}.Child("a").Index().Child("b"), `{"a":[]}`, ""},
		{defaulting.Surrounding{}.Child("a").Child("b"), `{"a":{}}`, ""},
	}
	for _, tt := range tests {
		v, found, err := tt.sur.Extract(obj(t, tt.obj))
		if tt.want == "" {
			if v != nil || found || err != nil {
				t.Errorf("%s: %v %v %v, want not found", tt.obj, v, found, err)
			}
			continue
		}
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %s", tt.obj, err, tt.want)
		}
	}
}

func TestWalkDefaults(t *testing.T) {
	tmpl := withDefault(t, &node{Generic: structural.Generic{Type: "object"}, Extensions: structural.Extensions{XEmbeddedResource: true}, Properties: map[string]*node{
		"metadata": object("name", withDefault(t, typ("string"), `"x"`)),
		"spec":     withDefault(t, typ("string"), `"s"`),
	}}, `{}`)
	s := object(
		"metadata", object("labels", withDefault(t, mapOf(typ("string")), `{}`)),
		"spec", object("b", withDefault(t, typ("string"), `"b"`), "a", withDefault(t, typ("string"), `"a"`), "tmpl", tmpl,
			"l", array(withDefault(t, typ("string"), `"i"`)), "m", mapOf(withDefault(t, typ("string"), `"never"`))),
	)
	type visit struct {
		path                         string
		root                         *node
		isRoot, embedded, insideMeta bool
	}
	var got []visit
	var objs []string
	defaulting.WalkDefaults(crdschema.NewPath("openAPIV3Schema"), s, true, func(site defaulting.Site) bool {
		got = append(got, visit{site.Path.String(), site.Root, site.IsResourceRoot, site.Embedded, site.InsideMeta})
		o, err := site.Surrounding.Wrap(site.Schema.Default.Value)
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, jsonOf(t, o))
		return true
	})
	want := []visit{
		{"openAPIV3Schema.properties[metadata].properties[labels]", s, false, false, true},
		{"openAPIV3Schema.properties[spec].properties[a]", s, false, false, false},
		{"openAPIV3Schema.properties[spec].properties[b]", s, false, false, false},
		{"openAPIV3Schema.properties[spec].properties[l].items", s, false, false, false},
		{"openAPIV3Schema.properties[spec].properties[tmpl]", tmpl, true, true, false},
		{"openAPIV3Schema.properties[spec].properties[tmpl].properties[metadata].properties[name]", tmpl, false, false, true},
		{"openAPIV3Schema.properties[spec].properties[tmpl].properties[spec]", tmpl, false, false, false},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("visits\n got %+v\nwant %+v", got, want)
	}
	wantObjs := []string{
		`{"apiVersion":"validation/v1","kind":"Validation","metadata":{"labels":{}}}`,
		`{"apiVersion":"validation/v1","kind":"Validation","spec":{"a":"a"}}`,
		`{"apiVersion":"validation/v1","kind":"Validation","spec":{"b":"b"}}`,
		`{"apiVersion":"validation/v1","kind":"Validation","spec":{"l":["i"]}}`,
		`{"apiVersion":"validation/v1","kind":"Validation"}`,
		`{"apiVersion":"validation/v1","kind":"Validation","metadata":{"name":"x"}}`,
		`{"apiVersion":"validation/v1","kind":"Validation","spec":"s"}`,
	}
	if !reflect.DeepEqual(objs, wantObjs) {
		t.Errorf("surrounding objects\n got %q\nwant %q", objs, wantObjs)
	}
	n := 0
	defaulting.WalkDefaults(nil, s, false, func(defaulting.Site) bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("walk did not stop: %d visits", n)
	}
}
