package crd

import (
	"reflect"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/structural"
)

// TestServedSchemasOneVersion checks the shortcut of a CRD of one version
// (its schema taken as it is, without the internal form): the served
// schema is the one built from VersionSchema's schema, explicit null
// defaults and examples included, and a second version with the same
// schema (which goes through the internal form) serves the same.
func TestServedSchemasOneVersion(t *testing.T) {
	null := &crdschema.JSON{}
	schema := &crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{
		"spec": {Type: "object", Default: &crdschema.JSON{Value: map[string]any{"n": 2.0, "junk": true}}, Properties: map[string]crdschema.JSONSchemaProps{
			"n": {Type: "integer", Default: &crdschema.JSON{Value: 1.0}},
			"s": {Type: "string", Default: null, Example: null},
			"m": {Type: "object", Example: null, AdditionalProperties: &crdschema.JSONSchemaPropsOrBool{Schema: &crdschema.JSONSchemaProps{Type: "string", Default: null}}},
		}},
	}}
	version := func(name string) crdschema.CustomResourceDefinitionVersion {
		return crdschema.CustomResourceDefinitionVersion{Name: name, Served: true, Storage: name == "v1",
			Schema: &crdschema.CustomResourceValidation{OpenAPIV3Schema: schema}}
	}
	def := &crdschema.CustomResourceDefinition{Spec: crdschema.CustomResourceDefinitionSpec{
		Group: "example.com", Scope: crdschema.NamespaceScoped,
		Names:    crdschema.CustomResourceDefinitionNames{Kind: "Widget", Plural: "widgets"},
		Versions: []crdschema.CustomResourceDefinitionVersion{version("v1")},
	}}
	d := Defaulted(def)
	one, _, _, err := servedSchemas(d, nil)
	if err != nil {
		t.Fatal(err)
	}
	props, _ := VersionSchema(d, "v1")
	want, err := structural.New(props)
	if err != nil {
		t.Fatal(err)
	}
	if want, err = defaulting.PruneDefaults(want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one["v1"], want) {
		t.Errorf("one version: served schema differs from the one built from VersionSchema:\n got %+v\nwant %+v", one["v1"], want)
	}
	if d := one["v1"].Properties["spec"].Default; d == nil || !reflect.DeepEqual(d.Value, map[string]any{"n": int64(2)}) {
		t.Errorf("spec default %v, want map[n:2] (served, pruned)", d)
	}

	d2 := Defaulted(def)
	d2.Spec.Versions = []crdschema.CustomResourceDefinitionVersion{version("v1"), version("v2")}
	two, _, _, err := servedSchemas(d2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if two["v1"] != two["v2"] {
		t.Error("two versions with one schema do not share it")
	}
	if !reflect.DeepEqual(one["v1"], two["v1"]) {
		t.Errorf("one version and two versions serve different schemas:\n%+v\n%+v", one["v1"], two["v1"])
	}
}

// TestServeDefaultsCopies checks that prune.Defaults of a CRD that
// preserves unknown fields leaves its schema as it is (crd.New shares it
// with the CRD's validation), copies the nodes on the way to a default,
// shares the others, and serves the defaults as read back from storage,
// unpruned.
func TestServeDefaultsCopies(t *testing.T) {
	props := &crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{
		"a": {Type: "object", Properties: map[string]crdschema.JSONSchemaProps{
			"n": {Type: "integer", Default: &crdschema.JSON{Value: 13.0}},
		}},
		"b": {Type: "string"},
		"m": {Type: "object", AdditionalProperties: &crdschema.JSONSchemaPropsOrBool{Schema: &crdschema.JSONSchemaProps{Type: "integer", Default: &crdschema.JSON{Value: 2.0}}}},
		"o": {Type: "object", Default: &crdschema.JSON{Value: map[string]any{"unknown": 1.0}}},
	}}
	s, err := structural.New(props)
	if err != nil {
		t.Fatal(err)
	}
	before, err := structural.New(props)
	if err != nil {
		t.Fatal(err)
	}
	served, _, err := prune.Defaults(s, true)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, before) {
		t.Error("prune.Defaults modified its schema")
	}
	if served == s || served.Properties["a"] == s.Properties["a"] {
		t.Error("the nodes on the way to a default are not copied")
	}
	if served.Properties["b"] != s.Properties["b"] {
		t.Error("a node without a default is copied")
	}
	if d := served.Properties["a"].Properties["n"].Default; d == nil || d.Value != int64(13) {
		t.Errorf("served default %v, want 13 as an integer", d)
	}
	if d := served.Properties["m"].AdditionalProperties.Schema.Default; d == nil || d.Value != int64(2) {
		t.Errorf("served additionalProperties default %v, want 2 as an integer", d)
	}
	if d := served.Properties["o"].Default; d == nil || !reflect.DeepEqual(d.Value, map[string]any{"unknown": int64(1)}) {
		t.Errorf("served default %v, want its unknown field kept", d)
	}
	if d := s.Properties["a"].Properties["n"].Default; d.Value != 13.0 {
		t.Errorf("the schema's default became %v", d.Value)
	}
	if unchanged := (&structural.Schema{Generic: structural.Generic{Type: "string"}}); func() *structural.Schema { s, _, _ := prune.Defaults(unchanged, true); return s }() != unchanged {
		t.Error("a schema without defaults is copied")
	}
}
