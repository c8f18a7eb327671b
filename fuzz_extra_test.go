package crdschema_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/crdschema/crdschema"
)

var yamlSeeds = []string{
	"a: 1\nb: [1.0, x, {c: null}]\n",
	"---\nkind: K\n---\n\n---\nkind: L\nmetadata: {name: n}\n",
	"n: 18446744073709551616\nm: -9223372036854775808\nf: 1e400\ng: 5e-324\n",
	"a: &a [1, 2]\nb: *a\nc: !!str 1\nd: 2001-01-01\ne: 0x1F\n",
	"a: |\n  text\n  more\nb: >\n  folded\n",
	`{"a":[1,{"b":null}],"c":"\u00e9"}`,
	"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.b\nspec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        type: object\n",
	"? [a]\n: b\n", "a: b: c", "- 1\n- 2\n", "",
}

// FuzzYAMLToJSON converts random YAML: the result, when there is one, is
// valid JSON, and converting it again gives it back unchanged.
func FuzzYAMLToJSON(f *testing.F) {
	for _, s := range yamlSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		before := bytes.Clone(data)
		j, err := crdschema.YAMLToJSON(data)
		if !bytes.Equal(data, before) {
			t.Fatal("the input was modified")
		}
		if err != nil {
			return
		}
		if !json.Valid(j) {
			t.Fatalf("not JSON: %q", j)
		}
		again, err := crdschema.YAMLToJSON(j)
		if err != nil {
			t.Fatalf("converting the JSON again: %v", err)
		}
		if _, err := crdschema.DecodeJSON(j); err == nil {
			if !bytes.Equal(again, j) {
				t.Fatalf("JSON changed: %q -> %q", j, again)
			}
		}
	})
}

// FuzzReadObjects reads random streams: SplitDocuments, ReadObjects and
// ReadCRDs never panic, and ReadObjects returns one object per document.
func FuzzReadObjects(f *testing.F) {
	for _, s := range yamlSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := crdschema.SplitDocuments(data)
		objs, oerr := crdschema.ReadObjects(data)
		crdschema.ReadCRDs(data)
		if err != nil {
			return
		}
		for _, d := range docs {
			if !json.Valid(d) {
				t.Fatalf("document is not JSON: %q", d)
			}
		}
		if oerr == nil && len(objs) != len(docs) {
			t.Fatalf("%d objects from %d documents", len(objs), len(docs))
		}
		for _, o := range objs {
			if o == nil {
				t.Fatal("nil object")
			}
		}
	})
}
