package crdschema_test

import (
	"encoding/json"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/yamljson"
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

// FuzzReadObjects reads random streams: ReadObjects and ReadCRDs never
// panic, and ReadObjects returns one object per document.
func FuzzReadObjects(f *testing.F) {
	for _, s := range yamlSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := yamljson.Split(data)
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
