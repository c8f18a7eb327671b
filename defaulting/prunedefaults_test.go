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

// TestPruneDefaultsShares checks that PruneDefaults copies only the nodes
// on the way to a default: the others are s's own, and a schema without
// defaults is returned as it is.
func TestPruneDefaultsShares(t *testing.T) {
	plain := object("a", typ("string"), "l", array(typ("integer")))
	s := object("plain", plain, "d", object("x", withDefault(t, typ("integer"), `1`), "y", typ("string")))
	got, err := defaulting.PruneDefaults(s)
	if err != nil {
		t.Fatal(err)
	}
	if got == s || got.Properties["d"] == s.Properties["d"] {
		t.Error("the nodes on the way to a default are not copied")
	}
	if got.Properties["plain"] != plain || got.Properties["d"].Properties["y"] != s.Properties["d"].Properties["y"] {
		t.Error("nodes without defaults are copied")
	}
	if d := got.Properties["d"].Properties["x"].Default; d == nil || d.Value != int64(1) && d.Value != float64(1) {
		t.Errorf("default %v, want 1", d)
	}
	if got, err := defaulting.PruneDefaults(plain); got != plain || err != nil {
		t.Errorf("schema without defaults: %p %v, want %p", got, err, plain)
	}
}
