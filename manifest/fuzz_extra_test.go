package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
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

// FuzzDecoder reads random streams: the Decoder never panics, returns
// an object or an error naming the document for each, and ends.
func FuzzDecoder(f *testing.F) {
	for _, s := range yamlSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dec := NewDecoder(bytes.NewReader(data))
		for n := 0; ; n++ {
			if n > len(data)+1 {
				t.Fatalf("%d documents from %d bytes", n, len(data))
			}
			doc, err := dec.Decode()
			if doc == nil {
				if err != io.EOF {
					t.Fatalf("no document, error %v", err)
				}
				return
			}
			if err != nil {
				if !strings.Contains(err.Error(), fmt.Sprintf("(line %d)", doc.Line)) {
					t.Fatalf("error %q does not name line %d", err, doc.Line)
				}
				continue
			}
			if doc.Object == nil || !json.Valid(doc.JSON) {
				t.Fatalf("document %d: object %v, JSON %q", doc.Index, doc.Object, doc.JSON)
			}
			readCRDs(doc.JSON)
		}
	})
}
