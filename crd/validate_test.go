package crd

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/casefile"
	"github.com/crdschema/crdschema/manifest"
	yaml "go.yaml.in/yaml/v3"
)

// conformanceCase is a document of testdata/conformance.yaml.
type conformanceCase struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	CRD         json.RawMessage `json:"crd"`
	OldCRD      json.RawMessage `json:"oldCRD"`
	Errors      []string        `json:"errors"`
}

func readConformanceCases(t testing.TB) []conformanceCase {
	t.Helper()
	data, err := os.ReadFile("testdata/conformance.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// The cases are harness, not user input: read as the conformance
	// cases are (internal/casefile, YAML 1.2 scalars, number literals as
	// written).
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var cases []conformanceCase
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		b, err := casefile.ToJSON(n.Content[0])
		if err != nil {
			t.Fatal(err)
		}
		var c conformanceCase
		if err := json.Unmarshal(b, &c); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, c)
	}
	if len(cases) < 50 {
		t.Fatalf("read %d cases, want at least 50", len(cases))
	}
	return cases
}

func mustCRD(t testing.TB, data []byte) *crdschema.CustomResourceDefinition {
	t.Helper()
	def, _, err := manifest.UnmarshalCRD(data)
	if err != nil {
		t.Fatal(err)
	}
	return def
}

// errorKeys renders errs as sorted "<type> <field>: <detail>" strings, the
// form the cases use.
func errorKeys(errs crdschema.ErrorList) []string {
	keys := make([]string, 0, len(errs))
	for _, e := range errs {
		keys = append(keys, string(e.Type)+" "+e.Field+": "+e.Detail)
	}
	sort.Strings(keys)
	return keys
}

func sameErrors(got crdschema.ErrorList, want []string) bool {
	w := append([]string(nil), want...)
	sort.Strings(w)
	g := errorKeys(got)
	if len(g) == 0 && len(w) == 0 {
		return true
	}
	return reflect.DeepEqual(g, w)
}

// TestConformance runs the CRDs of the conformance suite (create, or update
// from oldCRD) and expects exactly the API server's errors, compared as
// multisets of type, field and detail.
func TestConformance(t *testing.T) {
	for _, c := range readConformanceCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			def := mustCRD(t, c.CRD)
			var errs crdschema.ErrorList
			if len(c.OldCRD) > 0 {
				errs = ValidateUpdate(context.Background(), def, mustCRD(t, c.OldCRD))
			} else {
				errs = Validate(context.Background(), def)
			}
			if !sameErrors(errs, c.Errors) {
				t.Errorf("%s\ngot:\n  %s\nwant:\n  %s", c.Description, strings.Join(errorKeys(errs), "\n  "), strings.Join(c.Errors, "\n  "))
			}
		})
	}
}

// TestInputsNotModified checks that neither Validate nor ValidateUpdate
// changes the CRDs they are given.
func TestInputsNotModified(t *testing.T) {
	for _, c := range readConformanceCases(t) {
		def := mustCRD(t, c.CRD)
		old := def
		if len(c.OldCRD) > 0 {
			old = mustCRD(t, c.OldCRD)
		}
		before, _ := json.Marshal([]any{def, old})
		Validate(context.Background(), def)
		ValidateUpdate(context.Background(), def, old)
		after, _ := json.Marshal([]any{def, old})
		if !bytes.Equal(before, after) {
			t.Errorf("%s: input modified", c.Name)
		}
	}
}

// TestNil checks that nil CRDs are reported, not crashed on.
func TestNil(t *testing.T) {
	if errs := Validate(context.Background(), nil); len(errs) == 0 {
		t.Error("Validate(context.Background(), nil): no errors")
	}
	if errs := ValidateUpdate(context.Background(), nil, nil); len(errs) == 0 {
		t.Error("ValidateUpdate(context.Background(), nil, nil): no errors")
	}
	if Defaulted(nil) != nil {
		t.Error("Defaulted(nil) != nil")
	}
	if s, p := VersionSchema(nil, "v1"); s != nil || p != nil {
		t.Error("VersionSchema(nil) not nil")
	}
}

func readHTTPRoute(t testing.TB) []byte {
	t.Helper()
	f, err := os.Open("testdata/httproute.yaml.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestRealCRD: a large CRD of a public project is accepted, created and
// updated onto itself.
func TestRealCRD(t *testing.T) {
	def := mustCRD(t, readHTTPRoute(t))
	if errs := Validate(context.Background(), def); len(errs) > 0 {
		t.Errorf("Validate: %v", errs)
	}
	if errs := ValidateUpdate(context.Background(), def, def); len(errs) > 0 {
		t.Errorf("ValidateUpdate: %v", errs)
	}
}

func BenchmarkValidate(b *testing.B) {
	def := mustCRD(b, readHTTPRoute(b))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if errs := Validate(context.Background(), def); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

func BenchmarkValidateUpdate(b *testing.B) {
	def := mustCRD(b, readHTTPRoute(b))
	old := mustCRD(b, readHTTPRoute(b))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if errs := ValidateUpdate(context.Background(), def, old); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

func FuzzValidate(f *testing.F) {
	for _, c := range readConformanceCases(f) {
		f.Add([]byte(c.CRD))
	}
	f.Add(readHTTPRoute(f))
	f.Fuzz(func(t *testing.T, data []byte) {
		def, _, err := manifest.UnmarshalCRD(data)
		if err != nil {
			return
		}
		errs := Validate(context.Background(), def)
		for _, e := range errs {
			_ = e.Error()
		}
		ValidateUpdate(context.Background(), def, def)
	})
}

// TestValidateRepeatedVersionSchemas checks a CRD whose first and third
// versions share a schema the second does not (so that it is not
// hoisted): a schema equal to a valid one is valid, and one equal to an
// invalid one gets its errors at its own path.
func TestValidateRepeatedVersionSchemas(t *testing.T) {
	crdWith := func(shared string) *crdschema.CustomResourceDefinition {
		return mustCRD(t, []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"widgets.example.com"},
"spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},
"versions":[
 {"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":`+shared+`}},
 {"name":"v2","served":true,"storage":false,"schema":{"openAPIV3Schema":{"type":"object","properties":{"b":{"type":"integer"}}}}},
 {"name":"v3","served":true,"storage":false,"schema":{"openAPIV3Schema":`+shared+`}}]}}`))
	}
	valid := `{"type":"object","properties":{"a":{"type":"string","default":"x","x-kubernetes-validations":[{"rule":"self.size() < 10"}]}}}`
	if errs := Validate(context.Background(), crdWith(valid)); len(errs) != 0 {
		t.Errorf("valid repeated schema: %v", errs)
	}
	invalid := `{"type":"object","properties":{"a":{"type":"string","default":1,"x-kubernetes-validations":[{"rule":"self.size() <"}]}}}`
	errs := Validate(context.Background(), crdWith(invalid))
	var at1, at3 int
	for _, e := range errs {
		switch {
		case strings.HasPrefix(e.Field, "spec.versions[0].schema"):
			at1++
		case strings.HasPrefix(e.Field, "spec.versions[2].schema"):
			at3++
		default:
			t.Errorf("unexpected error %v", e)
		}
	}
	if at1 == 0 || at1 != at3 {
		t.Errorf("errors of the repeated invalid schema: %d at versions[0], %d at versions[2]: %v", at1, at3, errs)
	}
}
