package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/yamljson"
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
			for _, c := range splitDocuments(b) {
				out = append(out, c.data)
			}
		}
	}
	return out
}

// checkFast fails when decodeFast gives a result that differs from the
// library's decoding.
func checkFast(t *testing.T, data []byte) bool {
	fast, ok := decodeFast(data)
	if !ok {
		return false
	}
	full, _, err := decodeFull(chunk{data: data, first: 1})
	if err != nil {
		t.Fatalf("the fast path decodes what the library refuses (%v):\n%s", err, data)
	}
	if !reflect.DeepEqual(fast, full) {
		t.Fatalf("fast path\n%#v\nlibrary\n%#v\ninput:\n%s", fast, full, data)
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

// FuzzDecodeFast: whatever the fast path decodes, the library decodes the
// same way.
func FuzzDecodeFast(f *testing.F) {
	for _, s := range fastSeeds(f) {
		f.Add(s)
	}
	f.Add([]byte("a:\n- b: 'c'\n  d: -12\n- \"e\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFast(t, data)
	})
}

// checkOld fails when the fast path does not take exactly the documents
// it took before its rewrite, or decodes one of them differently.
func checkOld(t *testing.T, data []byte) {
	v, ok := decodeFast(data)
	old, oldOK := oldDecodeFast(data)
	if ok != oldOK {
		t.Fatalf("fast path taken: %v, before: %v\ninput:\n%s", ok, oldOK, data)
	}
	if !reflect.DeepEqual(v, old) {
		t.Fatalf("fast path\n%#v\nbefore\n%#v\ninput:\n%s", v, old, data)
	}
}

// checkTranscode fails when transcodeFast does not give up exactly where
// decodeFast does, or writes JSON that decodes to another value than
// decodeFast's, or misreads the top-level apiVersion and kind.
func checkTranscode(t *testing.T, data []byte) {
	j, av, kind, ok := transcodeFast(data)
	v, fastOK := decodeFast(data)
	if ok != fastOK {
		t.Fatalf("transcodeFast ok %v, decodeFast ok %v\ninput:\n%s", ok, fastOK, data)
	}
	if !ok {
		if _, _, ok := decodeDocument(data, nil); ok {
			t.Fatalf("decodeDocument decodes what decodeFast does not:\n%s", data)
		}
		return
	}
	fromJSON, err := crdschema.DecodeJSON(j)
	if err != nil {
		t.Fatalf("transcodeFast wrote invalid JSON (%v):\n%s\ninput:\n%s", err, j, data)
	}
	if !reflect.DeepEqual(fromJSON, v) {
		t.Fatalf("transcodeFast's JSON decodes to\n%#v\ndecodeFast gives\n%#v\nJSON:\n%s\ninput:\n%s", fromJSON, v, j, data)
	}
	obj, _ := v.(map[string]any)
	wantAV, _ := obj["apiVersion"].(string)
	wantKind, _ := obj["kind"].(string)
	if av != wantAV || kind != wantKind {
		t.Fatalf("transcodeFast read apiVersion %q kind %q, want %q %q\ninput:\n%s", av, kind, wantAV, wantKind, data)
	}
	// decodeDocument: the JSON of a CRD (of those it finds: a CRD whose
	// kind is not written plainly may come as a value), the value of
	// anything else
	dv, dj, dok := decodeDocument(data, nil)
	switch {
	case !dok:
		t.Fatalf("decodeDocument gives up on what decodeFast decodes:\n%s", data)
	case dj != nil && (!isCRD(obj) || !bytes.Equal(dj, j)):
		t.Fatalf("decodeDocument wrote JSON\n%s\nwant the JSON of a CRD\n%s\ninput:\n%s", dj, j, data)
	case dj == nil && !reflect.DeepEqual(dv, v):
		t.Fatalf("decodeDocument: value\n%#v\nwant\n%#v\ninput:\n%s", dv, v, data)
	case isCRD(obj) && strings.HasPrefix(string(data), "apiVersion: "+crdAPIVersion+"\nkind: "+crdKind+"\n") && dj == nil:
		t.Fatalf("decodeDocument did not write a plain CRD as JSON:\n%s", data)
	}
	if isCRD(obj) {
		sameCRD(t, j, data)
	}
}

// sameCRD fails unless the typed CRD decoded from j, the JSON that the
// fast path wrote, is the one decoded from the YAML, with the same unknown
// fields and errors: j must be the JSON that the library makes of the
// YAML, token by token (keys in the same order: the library's error for
// an object with several bad fields may depend on it), and when the
// library decodes the YAML without error, both give the same CRD.
func sameCRD(t *testing.T, j, yaml []byte) {
	want, err := yamljson.ForDecoding(yaml)
	if err != nil {
		t.Fatalf("the fast path wrote JSON for YAML that the library refuses (%v):\n%s", err, yaml)
	}
	if a, b := jsonTokens(t, j), jsonTokens(t, want); !slices.Equal(a, b) {
		t.Fatalf("the fast path wrote\n%s\nthe library\n%s", j, want)
	}
	def, unknown, err := crdschema.UnmarshalCRD(j)
	wantDef, wantUnknown, wantErr := crdschema.UnmarshalCRD(yaml)
	if err == nil && wantErr == nil && (!reflect.DeepEqual(unknown, wantUnknown) || !reflect.DeepEqual(def, wantDef)) ||
		(err == nil) != (wantErr == nil) {
		t.Fatalf("CRD from the fast path's JSON: %v, unknown %q\nfrom the YAML: %v, unknown %q\ninput:\n%s", err, unknown, wantErr, wantUnknown, yaml)
	}
}

// jsonTokens is the JSON text j as a list of tokens, strings quoted and
// numbers as written.
func jsonTokens(t *testing.T, j []byte) []string {
	d := json.NewDecoder(bytes.NewReader(j))
	d.UseNumber()
	var out []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("invalid JSON (%v):\n%s", err, j)
		}
		if s, ok := tok.(string); ok {
			tok = strconv.Quote(s)
		}
		out = append(out, fmt.Sprint(tok))
	}
}

func TestDecodeFastOld(t *testing.T) {
	for _, s := range fastSeeds(t) {
		checkOld(t, s)
	}
}

func TestTranscodeFast(t *testing.T) {
	seeds := fastSeeds(t)
	crds := 0
	for _, s := range seeds {
		checkTranscode(t, s) // and sameCRD for CRDs
		if _, _, kind, ok := transcodeFast(s); ok && kind == crdKind {
			crds++
		}
	}
	if crds == 0 {
		t.Errorf("no CRD of the test data takes the fast path")
	}
	// CRDs with unknown fields and fields of the wrong type: the same
	// errors and unknown fields from the fast path's JSON
	const crd = "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: a.b\n"
	for _, in := range []string{
		crd + "spec:\n  versions: x\n",
		crd + "spec:\n  group: 1\n  foo: bar\n",
		crd + "  labels:\n    a: 1\nspec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        type: object\n        xyz: 1\n",
		crd + "spec:\n  names: {}\n  extra: 1\n  versions:\n  - name: v1\n    served: true\n    more: []\n    schema:\n      openAPIV3Schema:\n        properties:\n          a:\n            type: string\n            unknownKeyword: 1\n",
	} {
		if j, _, _, ok := transcodeFast([]byte(in)); !ok {
			t.Errorf("not taken by the fast path:\n%s", in)
		} else {
			sameCRD(t, j, []byte(in))
		}
	}
	for _, in := range []string{
		"a: \"x\\ty\\n\\\"q\\\" \\\\\"\nb: 'it''s'\nc: |\n  line \"1\"\n  \\2\n",
		"apiVersion: apiextensions.k8s.io/v1\nkind: |-\n  CustomResourceDefinition\nspec: {}\n",
		"apiVersion: v1\nkind: CustomResourceDefinition\nitems:\n- kind: X\n  apiVersion: Y\n",
		"kind: a\n  b\nlist:\n-\n- []\n- {}\n- - 1\n  - -2\n- null\n- ~\n- true\n",
		"a: b\na: c\n", "a:\n  b: 1\n  b: 2\n", "- a: 1\n- a: 1\n",
		"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nx:\n- a: 1\n  b: [ ]\n",
		"apiVersion: apiextensions.k8s.io/v1beta1\nkind: CustomResourceDefinition\nx:\n- a: 1\n  b:\n  - c: d\n",
		"  kind: CustomResourceDefinitionX\n  apiVersion: apiextensions.k8s.io/v1\n",
	} {
		checkTranscode(t, []byte(in))
	}
}

// decodedChunk is what decodeChunk emits for c.
func decodedChunk(c chunk) []document {
	var docs []document
	decodeChunk("f", c, 1, 1, func(d document) { docs = append(docs, d) })
	return docs
}

// TestDecodeChunkCRD: a CRD is decoded once, into its JSON form, and
// reads as it did when it was decoded into an object first.
func TestDecodeChunkCRD(t *testing.T) {
	data, err := os.ReadFile("../../conformance/testdata/crdcheck/crds/standard/gateway.networking.k8s.io_httproutes.yaml")
	if err != nil {
		t.Fatal(err)
	}
	docs := decodedChunk(chunk{data: data, line: 1, first: 1})
	if len(docs) != 1 || docs[0].err != nil || docs[0].json == nil || docs[0].obj != nil {
		t.Fatalf("decodeChunk of a CRD: %d documents, err %v, json %t, obj %t", len(docs), docs[0].err, docs[0].json != nil, docs[0].obj != nil)
	}
	want, _ := oldDecodeFast(data)
	if got := docs[0].object(); !reflect.DeepEqual(got, want) {
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
		d := decodedChunk(chunk{data: []byte(in), line: 1, first: 1})[0]
		want, _, _ := decodeFull(chunk{data: []byte(in), first: 1})
		if d.err != nil || !reflect.DeepEqual(d.object(), want) {
			t.Errorf("%q: err %v, object %v, want %v", in, d.err, d.object(), want)
		}
		if isCRD(d.object()) != (d.json != nil) {
			t.Errorf("%q: JSON form kept: %t", in, d.json != nil)
		}
	}
}

// FuzzTranscodeFast: transcodeFast and decodeFast agree.
func FuzzTranscodeFast(f *testing.F) {
	for _, s := range fastSeeds(f) {
		f.Add(s)
	}
	f.Add([]byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nd: |-\n  \"a\"\\\n\n  b\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkTranscode(t, data)
	})
}

// FuzzDecodeFastOld: the fast path takes the documents it took before
// its rewrite and decodes them alike.
func FuzzDecodeFastOld(f *testing.F) {
	for _, s := range fastSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkOld(t, data)
	})
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
