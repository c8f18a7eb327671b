package openapi

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/manifest"
)

// FuzzPublish publishes random schemas in both versions, with random
// options: it must never panic, and the documents must marshal.
func FuzzPublish(f *testing.F) {
	seeds := []string{
		`{"type":"object","properties":{"spec":{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true}}}}}`,
		`{"type":"object","x-kubernetes-preserve-unknown-fields":true}`,
		`{"type":"object","properties":{"e":{"type":"object","x-kubernetes-embedded-resource":true,"nullable":true,"properties":{"x":{"type":"string"}}}}}`,
		`{"type":"object","properties":{"l":{"type":"array","nullable":true,"items":{"type":"string"}},"m":{"type":"object","required":["a"],"additionalProperties":{"type":"string","nullable":true}}}}`,
		`{"type":"object","properties":{"v":{"type":"integer","anyOf":[{"minimum":0}],"allOf":[{"multipleOf":2}],"not":{"enum":[4]}}}}`,
		`{"type":"foo"}`,
		`{"$ref":"#/x"}`,
		`{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}]}}}`,
	}
	// Seed with the schemas of the published cases too.
	files, _ := filepath.Glob("testdata/cases/*.json.gz")
	for _, file := range files {
		var c goldenCase
		readGzipJSON(f, file, &c)
		crd, _, err := manifest.UnmarshalCRD(c.CRD)
		if err != nil {
			continue
		}
		for _, v := range crd.Spec.Versions {
			if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
				if b, err := json.Marshal(v.Schema.OpenAPIV3Schema); err == nil && len(b) < 3000 {
					seeds = append(seeds, string(b))
				}
			}
		}
	}
	for _, s := range seeds {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, schemaJSON []byte, flags uint8) {
		var schema crdschema.JSONSchemaProps
		if err := json.Unmarshal(schemaJSON, &schema); err != nil {
			return
		}
		crd := testCRD(t, `{"type":"object"}`)
		crd.Spec.Versions[0].Schema.OpenAPIV3Schema = &schema
		crd.Spec.Scope = crdschema.ClusterScoped
		if flags&8 != 0 {
			crd.Spec.Scope = crdschema.NamespaceScoped
			crd.Spec.Versions[0].Subresources = &crdschema.CustomResourceSubresources{
				Status: &crdschema.CustomResourceSubresourceStatus{},
				Scale:  &crdschema.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.r", StatusReplicasPath: ".status.r"},
			}
			crd.Spec.Versions[0].SelectableFields = []crdschema.SelectableField{{JSONPath: ".spec.x"}}
		}
		opts := Options{StripValueValidation: flags&1 != 0, StripNullable: flags&2 != 0, OmitSelectableFields: flags&4 != 0}
		v2, err := V2(crd, "v1", opts)
		if err != nil {
			t.Fatalf("V2: %v", err)
		}
		v3, err := V3(crd, "v1", opts)
		if err != nil {
			t.Fatalf("V3: %v", err)
		}
		if kind := v3.Components.Schemas["com.example.v1.Widget"]; kind != nil {
			// the schema writer against go-openapi's marshalling, byte for byte
			fast, err := appendSchema(nil, kind)
			if err != nil {
				t.Fatalf("appendSchema: %v", err)
			}
			want, err := json.Marshal(kind)
			if err != nil {
				t.Fatal(err)
			}
			if string(fast) != string(want) {
				t.Fatalf("appendSchema differs from go-openapi:\n got %s\nwant %s", fast, want)
			}
		}
		// The built-in definitions are fixed; marshal what the schema
		// decides (the kinds) and the paths.
		for _, v := range []any{v2.Definitions["com.example.v1.Widget"], v2.Paths, v3.Components.Schemas["com.example.v1.Widget"], v3.Paths} {
			if _, err := json.Marshal(v); err != nil {
				t.Fatalf("marshalling: %v", err)
			}
		}
	})
}
