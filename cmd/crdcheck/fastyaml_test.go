package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/yamljson"
	"github.com/crdschema/crdschema/manifest"
	sigsyaml "sigs.k8s.io/yaml"
)

// fastSeeds are manifests and CRDs of the repository's test data.
func fastSeeds(t testing.TB) [][]byte {
	var out [][]byte
	for _, pattern := range []string{
		"testdata/*/*.yaml", "testdata/*/*.json",
		"../../conformance/testdata/crdcheck/objects/*.yaml",
		"../../conformance/testdata/crdcheck/crds/standard/*.yaml",
	} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range yamljson.SplitAll(b) {
				out = append(out, c.Data)
			}
		}
	}
	return out
}

// checkFast fails when decodeDocument gives a result that differs from
// what sigs.k8s.io/yaml.YAMLToJSON makes of the document, decoded as the
// API server decodes the JSON kubectl sends (not from the library's path:
// the fast path is checked against sigs.k8s.io/yaml itself).
func checkFast(t *testing.T, data []byte) bool {
	fast, ok := decodeDocument(data, nil)
	if !ok {
		return false
	}
	j, err := sigsyaml.YAMLToJSON(data)
	if err != nil {
		t.Fatalf("the fast path decodes what sigs.k8s.io/yaml refuses (%v):\n%s", err, data)
	}
	want, err := jsonscan.Decode(j)
	if err != nil {
		t.Fatalf("sigs.k8s.io/yaml's JSON %s: %v", j, err)
	}
	if !reflect.DeepEqual(fast, want) {
		t.Fatalf("fast path\n%#v\nsigs.k8s.io/yaml\n%#v\ninput:\n%s", fast, want, data)
	}
	return true
}

func TestDecodeFast(t *testing.T) {
	seeds := fastSeeds(t)
	taken := 0
	for _, s := range seeds {
		if checkFast(t, s) {
			taken++
		}
	}
	// the fast path must carry most real manifests, or it is no use
	if taken*2 < len(seeds) {
		t.Errorf("fast path taken for %d of %d documents", taken, len(seeds))
	}
	t.Logf("fast path taken for %d of %d documents", taken, len(seeds))
	cors, err := os.ReadFile("../../conformance/testdata/crdcheck/objects/examples_standard_http-cors_httproute-all-fields-set.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !checkFast(t, cors) {
		t.Errorf("the benchmark's example does not take the fast path")
	}
	for _, in := range []string{
		"a: 1\nb:\n- x\n- y: 2\n  z: [ ]\n",
		"a: 007\n", "a: 1.0\n", "a: yes\n", "a: 'it''s'\n", "a: \"x\\ty\"\n", "a: b # c\n",
		"a:\n  b: |\n    x\n", "a: &x 1\nb: *x\n", "a: 1\na: 2\n", "- a\n- - b\n  - c\n", "a: b\n c\n",
		"'k': v\n", "a: -0\n", "a: 123456789012345678\n", "a: https://x.example:8080/p\n", "a: x: y\n",
		"enabled: yes\n", "on: 1\n", "y: n\n", "a: Off\n", "a: 1e3\n", "a: 0o17\n", "a: 2001-12-14\n", "a: <<\n",
	} {
		checkFast(t, []byte(in))
	}
	for _, in := range []string{
		"a: |\n  x\n\n   y\n\nb: 1\n", "a: |-\n  # not a comment\n  x\n", "a: |\n x",
		"a: 'x\n  y'\n", "a: 'x\n  ''y'''\n", "a: 'x\n\n  y'\n", "a: x\n  # c\n",
		"a: .x\n", "a: .inf\n", "a: .NaN\n",
		"a: \"x\n  y\"\n", "a: \"x\\\n  y\"\n", "a: \"x \\\n  \\ y\"\n", "a: \"x\\\\\n  y\"\n", "a: \"x\\\\\\\n  y\"\n",
		"a: \"x\n\n  y\"\n", "a: \"x\n  y\" # c\n", "a: \"x\n  y\"z\n", "a: \"\\ \"\n",
	} {
		checkFast(t, []byte(in))
	}
	// continuation lines of plain scalars that start with indicators
	for _, c := range "-?:,[]{}#&*!|>'\"%@`~=<.0" {
		for _, rest := range []string{"", "x", " x", "- y", ": y"} {
			checkFast(t, []byte("a: b\n  "+string(c)+rest+"\nc: d\n"))
			checkFast(t, []byte("- a: b\n    "+string(c)+rest+"\n"))
		}
	}
}

// FuzzDecodeFast: whatever the fast path decodes, sigs.k8s.io/yaml (with
// the API server's JSON decoding) decodes the same way.
func FuzzDecodeFast(f *testing.F) {
	for _, s := range fastSeeds(f) {
		f.Add(s)
	}
	f.Add([]byte("a:\n- b: 'c'\n  d: -12\n- \"e\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFast(t, data)
	})
}

// decodedChunk is what decodeChunk emits for c.
func decodedChunk(c yamljson.Chunk) []document {
	var docs []document
	decodeChunk("f", c, 1, 1, func(d document) { docs = append(docs, d) })
	return docs
}

// TestDecodeChunkCRD: a CRD is decoded by the library's path, which keeps
// its JSON form (the text kubectl sends).
func TestDecodeChunkCRD(t *testing.T) {
	data, err := os.ReadFile("../../conformance/testdata/crdcheck/crds/standard/gateway.networking.k8s.io_httproutes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	docs := decodedChunk(yamljson.Chunk{Data: data, Line: 1, First: 1})
	if len(docs) != 1 || docs[0].err != nil || docs[0].json == nil {
		t.Fatalf("decodeChunk of a CRD: %d documents, err %v, json %t", len(docs), docs[0].err, docs[0].json != nil)
	}
	want, err := manifest.UnmarshalObject(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := docs[0].obj; !reflect.DeepEqual(got, want) {
		t.Errorf("the CRD's object differs from the YAML's")
	}
	// documents that look like CRDs: one that is not (decoded as an
	// object), and CRDs that the fast path does not take (decoded by the
	// full path, which gives their JSON form too)
	for _, in := range []string{
		"apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\n",
		"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nx: [a]\n",
		"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition # c\nx: \"\\u00e9\"\n",
	} {
		d := decodedChunk(yamljson.Chunk{Data: []byte(in), Line: 1, First: 1})[0]
		want, _ := manifest.UnmarshalObject([]byte(in))
		if d.err != nil || !reflect.DeepEqual(d.obj, want) {
			t.Errorf("%q: err %v, object %v, want %v", in, d.err, d.obj, want)
		}
		if isCRD(d.obj) != (d.json != nil) {
			t.Errorf("%q: JSON form kept: %t", in, d.json != nil)
		}
	}
}

// TestUsual: the eight-bytes-at-a-time check finds every unusual byte
// wherever it lies.
func TestUsual(t *testing.T) {
	for c := 0; c < 256; c++ {
		for n := 1; n <= 17; n++ {
			for at := 0; at < n; at++ {
				b := bytes.Repeat([]byte("a\n"), n)[:n]
				b[at] = byte(c)
				want := true
				for _, x := range b {
					want = want && !unusual[x]
				}
				if got := usual(b); got != want {
					t.Fatalf("usual(%q) = %t", b, got)
				}
			}
		}
	}
}
