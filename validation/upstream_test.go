package validation

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/metavalidation"
	"github.com/crdschema/crdschema/structural"
)

// upstreamCase is a schema and objects with the errors the API server
// reported for them (testdata/upstream_cases.json, taken from the
// conformance goldens, which were produced by running upstream's code).
type upstreamCase struct {
	Name       string                `json:"name"`
	Namespaced bool                  `json:"namespaced"`
	Schema     json.RawMessage       `json:"schema"`
	Requests   []upstreamCaseRequest `json:"requests"`
}

type upstreamCaseRequest struct {
	Object json.RawMessage `json:"object"`
	Errors []struct {
		Type   string `json:"type"`
		Field  string `json:"field"`
		Detail string `json:"detail"`
	} `json:"errors"`
}

func mustStructural(t testing.TB, schemaJSON []byte) *structural.Schema {
	t.Helper()
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal(schemaJSON, &p); err != nil {
		t.Fatalf("schema: %v", err)
	}
	s, err := structural.New(&p)
	if err != nil {
		t.Fatalf("structural: %v", err)
	}
	return s
}

// validateRequest runs every check of this package that the API server runs
// on a created custom resource.
func validateRequest(v *Validator, s *structural.Schema, obj map[string]any, namespaced bool) crdschema.ErrorList {
	errs := v.Validate(nil, obj) // OpenAPI, list sets and maps, embedded resources
	if md, ok := obj["metadata"]; ok {
		meta, err := metavalidation.DecodeObjectMeta(md)
		if err == nil {
			errs = append(errs, metavalidation.ValidateObjectMeta(meta, namespaced, metavalidation.NameIsDNSSubdomain, crdschema.NewPath("metadata"))...)
		}
	}
	return errs
}

func errorKeys(l crdschema.ErrorList) []string {
	out := make([]string, len(l))
	for i, e := range l {
		out[i] = fmt.Sprintf("%s|%s|%s", string(e.Type), e.Field, e.Detail)
	}
	sort.Strings(out)
	return out
}

func TestUpstreamCases(t *testing.T) {
	// upstream_cases.json: the conformance cases of the validation and
	// pipeline areas; random_cases.json: random schemas and objects, run
	// through upstream by the conformance oracle. VALIDATION_CASES names
	// another file in the same format.
	files := []string{"testdata/upstream_cases.json", "testdata/random_cases.json"}
	if f := os.Getenv("VALIDATION_CASES"); f != "" {
		files = []string{f}
	}
	var cases []upstreamCase
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var more []upstreamCase
		if err := json.Unmarshal(data, &more); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, more...)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			s := mustStructural(t, c.Schema)
			v, err := New(s)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range c.Requests {
				obj, err := jsonscan.Decode(r.Object)
				if err != nil {
					t.Fatal(err)
				}
				got := errorKeys(validateRequest(v, s, obj.(map[string]any), c.Namespaced))
				var want []string
				for _, e := range r.Errors {
					want = append(want, fmt.Sprintf("%s|%s|%s", e.Type, e.Field, e.Detail))
				}
				sort.Strings(want)
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Errorf("request %d:\n got:\n  %s\nwant:\n  %s", i, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
				}
			}
		})
	}
}
