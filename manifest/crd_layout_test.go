package manifest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/yamljson"
	kjson "sigs.k8s.io/json"
)

// referenceCRD decodes j as crdFromJSON does without the layout.
func referenceCRD(j []byte) (*crdschema.CustomResourceDefinition, error) {
	crd := new(crdschema.CustomResourceDefinition)
	_, err := kjson.UnmarshalStrict(j, crd, kjson.DisallowUnknownFields)
	return crd, err
}

// checkLaidOut fails t when decodeLaidOut accepts j and decodes anything
// other than the reference decode; it reports whether it accepted j.
func checkLaidOut(t *testing.T, j []byte) bool {
	t.Helper()
	var got crdschema.CustomResourceDefinition
	if !decodeLaidOut(j, &got) {
		return false
	}
	want, err := referenceCRD(j)
	if err != nil {
		t.Fatalf("the layout decoded %s, the reference failed: %v", j, err)
	}
	if !reflect.DeepEqual(&got, want) {
		t.Fatalf("decoding %s\nthe layout gave    %#v\nthe reference gave %#v", j, got, *want)
	}
	return true
}

// TestLaidOutCorpus: the CRDs of every project of the benchmarks decode
// as the reference decodes them, through the layout (not by its
// fallback).
func TestLaidOutCorpus(t *testing.T) {
	n := 0
	for _, p := range corpusProjects(t) {
		for _, body := range p.bodies {
			if checkLaidOut(t, body) {
				n++
			}
		}
	}
	if n < 200 {
		t.Errorf("the layout decoded only %d CRDs of the corpus", n)
	}
}

// TestLaidOutCases: the CRDs of the conformance cases (accepted or not)
// decode as the reference decodes them, or are left to it.
func TestLaidOutCases(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "conformance", "testdata", "cases", "*", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance cases: %v", err)
	}
	n := 0
	for _, f := range files {
		y, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		data, err := yamljson.ToJSON(y)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		var c struct {
			CRD    json.RawMessage `json:"crd"`
			OldCRD json.RawMessage `json:"oldCRD"`
		}
		if kjson.UnmarshalCaseSensitivePreserveInts(data, &c) != nil {
			continue
		}
		for _, j := range [][]byte{c.CRD, c.OldCRD} {
			if len(j) > 0 && checkLaidOut(t, j) {
				n++
			}
		}
	}
	t.Logf("%d CRDs of %d case files decoded through the layout", n, len(files))
}

// TestLaidOutDeclines: what the layout cannot decode as the reference
// does goes to the reference decode, whose result UnmarshalCRD returns.
func TestLaidOutDeclines(t *testing.T) {
	schema := func(s string) string {
		return `{"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":` + s + `}}]}}`
	}
	for _, s := range []string{
		`{"items":[{"type":"string"}]}`,                      // a list of schemas
		`{"items":true}`,                                     // ignored by the union
		`{"additionalProperties":true}`,                      // a boolean
		`{"additionalItems":false}`,                          // a boolean
		`{"dependencies":{"a":["b"]}}`,                       // property names
		`{"items":{"type":"string","x":1}}`,                  // unknown below items: not reported
		`{"items":{"type":"string"},"items":{"format":"x"}}`, // replaced, not merged
		`{"type":"object","type":"string"}`,                  // repeated key
		`{"items":{"type":1}}`,                               // an error below items
	} {
		j := []byte(schema(s))
		if checkLaidOut(t, j) {
			t.Errorf("the layout decoded %s", s)
		}
		got, _, gotErr := UnmarshalCRD(j)
		want, wantErr := referenceCRD(j)
		if (gotErr == nil) != (wantErr == nil) || (gotErr == nil && !reflect.DeepEqual(got, want)) {
			t.Errorf("UnmarshalCRD(%s) = %#v, %v; the reference: %#v, %v", s, got, gotErr, want, wantErr)
		}
	}
	for _, s := range []string{
		`{"items":null,"not":null,"additionalProperties":null,"dependencies":{"a":null}}`,
		`{"properties":{"a":null},"allOf":[null,{}],"items":{}}`,
		`{"properties":{},"allOf":[],"patternProperties":{"x":{"items":{"items":{"default":{"a":[1,1.5]}}}}}}`,
	} {
		if !checkLaidOut(t, []byte(schema(s))) {
			t.Errorf("the layout declined %s", s)
		}
	}
}

// FuzzLaidOut compares the layout's decode with the reference decode.
func FuzzLaidOut(f *testing.F) {
	f.Add([]byte(`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"items":{"properties":{"a":{"additionalProperties":{"type":"string"}}}}}}}]}}`))
	f.Add([]byte(`{"metadata":{"name":"a"},"spec":{"group":"g","versions":[{"schema":{"openAPIV3Schema":{"dependencies":{"a":null,"b":{}},"not":{"items":{}}}}},{"name":"x"}]}}`))
	f.Add([]byte(`{"spec":{"versions":[{"schema":null},{"schema":{}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLaidOut(t, data)
	})
}
