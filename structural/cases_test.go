package structural

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
)

// schemaCase is one CRD schema taken from the conformance cases, with the
// schema errors the API server reported for it (CEL, default validation
// and status-subresource errors left out: other packages produce them).
type schemaCase struct {
	Name   string                    `json:"name"`
	Path   string                    `json:"path"`
	Schema crdschema.JSONSchemaProps `json:"schema"`
	Errors []caseError               `json:"errors"`
}

type caseError struct {
	Type   string `json:"type"`
	Field  string `json:"field"`
	Detail string `json:"detail"`
	// Message is the whole text, as Error() renders it.
	Message string `json:"message"`
}

func loadCases(t testing.TB) []schemaCase {
	t.Helper()
	file := "testdata/cases.json"
	if f := os.Getenv("STRUCTURAL_CASES"); f != "" {
		// For checking new cases before adding them to testdata.
		file = f
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var cases []schemaCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// parsePath turns "spec.versions[0].schema.openAPIV3Schema" into a Path.
func parsePath(s string) *crdschema.Path {
	var p *crdschema.Path
	for _, part := range strings.Split(s, ".") {
		name, idx, _ := strings.Cut(part, "[")
		p = p.Child(name)
		if idx != "" {
			p = p.Key(strings.TrimSuffix(idx, "]"))
		}
	}
	return p
}

// schemaErrors runs the schema steps of CRD validation the way the API
// server composes them on create.
func schemaErrors(path *crdschema.Path, p *crdschema.JSONSchemaProps) crdschema.ErrorList {
	var errs, initErrs crdschema.ErrorList
	if s, err := New(p); err != nil {
		initErrs = append(initErrs, crdschema.Invalid(path, "", err.Error()))
	} else {
		errs = append(errs, Validate(path, s, Options{})...)
	}
	errs = append(errs, ValidateProps(path, p, Options{})...)
	if len(errs) == 0 {
		errs = initErrs
	}
	return errs
}

func sortedCaseErrors(l []caseError) []caseError {
	sort.Slice(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		if a.Detail != b.Detail {
			return a.Detail < b.Detail
		}
		return a.Message < b.Message
	})
	return l
}

func TestConformanceCases(t *testing.T) {
	for _, c := range loadCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			var got []caseError
			for _, e := range schemaErrors(parsePath(c.Path), &c.Schema) {
				got = append(got, caseError{string(e.Type), e.Field, e.Detail, e.Error()})
			}
			got, want := sortedCaseErrors(got), sortedCaseErrors(c.Errors)
			if len(got) != len(want) {
				t.Fatalf("got %d errors, want %d\ngot:  %v\nwant: %v", len(got), len(want), got, want)
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("error %d:\ngot:  %+v\nwant: %+v", i, got[i], want[i])
				}
			}
		})
	}
}
