package yamljson

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonscan"
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

func TestHostile(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	if _, err := ToJSON([]byte("a: " + deep)); err == nil {
		t.Error("20,000 nested flow sequences: no error")
	}
	bomb := `a: &a ["x","x","x","x","x","x","x","x","x","x"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h,*h]
`
	if _, err := ToJSON([]byte(bomb)); err == nil {
		t.Error("alias bomb: no error")
	}
}

// FuzzToJSON converts random YAML: the result, when there is one, is
// valid JSON, and converting it again gives it back unchanged.
func FuzzToJSON(f *testing.F) {
	for _, s := range yamlSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		before := bytes.Clone(data)
		j, err := ToJSON(data)
		if !bytes.Equal(data, before) {
			t.Fatal("the input was modified")
		}
		if err != nil {
			return
		}
		if !json.Valid(j) {
			t.Fatalf("not JSON: %q", j)
		}
		again, err := ToJSON(j)
		if err != nil {
			t.Fatalf("converting the JSON again: %v", err)
		}
		if _, err := jsonscan.Decode(j); err == nil {
			if !bytes.Equal(again, j) {
				t.Fatalf("JSON changed: %q -> %q", j, again)
			}
		}
	})
}

// FuzzSplit splits random streams: every document it returns is JSON.
func FuzzSplit(f *testing.F) {
	for _, s := range yamlSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, err := Split(data)
		if err != nil {
			return
		}
		for _, d := range docs {
			if !json.Valid(d) {
				t.Fatalf("document is not JSON: %q", d)
			}
		}
	})
}
