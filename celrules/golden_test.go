package celrules

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/crdschema/crdschema/ratchet"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/structural"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// goldenCase is one conformance case of upstream's CEL behaviour, reduced
// to what this package sees: the schema, the CRD's CEL errors and costs,
// and the requests' errors. The expected values were produced by the API
// server's own code.
type goldenCase struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	OldSchemas  []json.RawMessage
	Path        string        `json:"path"`
	CRDErrors   []goldenError `json:"crdErrors"`
	CELCosts    []goldenCost  `json:"celCosts"`
	Requests    []struct {
		Operation   string          `json:"operation"`
		Subresource string          `json:"subresource"`
		Object      json.RawMessage `json:"object"`
		OldObject   json.RawMessage `json:"oldObject"`
		Errors      []goldenError   `json:"errors"`
	} `json:"requests"`
}

type goldenError struct {
	Type   string `json:"type"`
	Field  string `json:"field"`
	Detail string `json:"detail"`
}

type goldenCost struct {
	Field       string `json:"field"`
	Rule        string `json:"rule"`
	Cost        uint64 `json:"cost"`
	Cardinality uint64 `json:"cardinality"`
}

var selfTypeName = regexp.MustCompile(`selfType\d+`)

func (e goldenError) String() string { return e.Type + " " + e.Field + ": " + e.Detail }

func toGolden(errs crdschema.ErrorList) []goldenError {
	out := make([]goldenError, 0, len(errs))
	for _, e := range errs {
		out = append(out, goldenError{Type: string(e.Type), Field: e.Field, Detail: selfTypeName.ReplaceAllString(e.Detail, "selfType<N>")})
	}
	return out
}

func loadCases(t testing.TB) map[string]*goldenCase {
	dir := "testdata/cases"
	if d := os.Getenv("CELRULES_CASES"); d != "" {
		dir = d
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	out := map[string]*goldenCase{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := &goldenCase{}
		if err := json.Unmarshal(b, c); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = c
	}
	return out
}

func mustSchema(t testing.TB, raw json.RawMessage) *structural.Schema {
	t.Helper()
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(&p)
	if err != nil {
		return nil
	}
	return s
}

var pathIndex = regexp.MustCompile(`^(\w+)\[(\d+)\]$`)

func parsePath(s string) *crdschema.Path {
	var p *crdschema.Path
	for _, part := range strings.Split(s, ".") {
		if m := pathIndex.FindStringSubmatch(part); m != nil {
			i, _ := strconv.Atoi(m[2])
			p = p.Child(m[1]).Index(i)
			continue
		}
		p = p.Child(part)
	}
	return p
}

func mustDecode(t testing.TB, raw json.RawMessage) any {
	t.Helper()
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	v, err := jsonscan.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// preexisting decodes the old CRD's schemas.
func preexisting(t testing.TB, raws []json.RawMessage) []*crdschema.JSONSchemaProps {
	var schemas []*crdschema.JSONSchemaProps
	for _, raw := range raws {
		p := &crdschema.JSONSchemaProps{}
		if err := json.Unmarshal(raw, p); err != nil {
			t.Fatal(err)
		}
		schemas = append(schemas, p)
	}
	return schemas
}

// celCRDError tells whether a CRD error is one CheckSchema reports.
func celCRDError(e goldenError, schemaPath string) bool {
	return strings.Contains(e.Field, "x-kubernetes-validations") ||
		(e.Field == schemaPath && strings.Contains(e.Detail, "x-kubernetes-validations"))
}

// diff returns the errors of want missing from got and those of got
// missing from want, as multisets.
func diff(got, want []goldenError) (missing, extra []goldenError) {
	left := map[goldenError]int{}
	for _, e := range got {
		left[e]++
	}
	for _, e := range want {
		if left[e] > 0 {
			left[e]--
			continue
		}
		missing = append(missing, e)
	}
	for _, e := range got {
		if left[e] > 0 {
			left[e]--
			extra = append(extra, e)
		}
	}
	return missing, extra
}

func runCase(t testing.TB, c *goldenCase, extra ...Option) (crdMissing, crdExtra []goldenError, costs []goldenCost, reqMissing, reqExtra [][]goldenError) {
	s := mustSchema(t, c.Schema)
	if s == nil {
		return
	}
	var opts []any
	var compileOpts []Option
	for _, e := range extra {
		opts = append(opts, e)
		compileOpts = append(compileOpts, e)
	}
	if c.OldSchemas != nil {
		opts = append(opts, NewExpressions(preexisting(t, c.OldSchemas)...))
		for _, o := range c.OldSchemas {
			var a, b any
			json.Unmarshal(o, &a)
			json.Unmarshal(c.Schema, &b)
			if reflect.DeepEqual(a, b) {
				opts = append(opts, SuppressExpressionCost())
			}
		}
	}
	if errs := structural.Validate(parsePath(c.Path), s, structural.Options{}); len(errs) > 0 {
		opts = append(opts, SchemaErrors(errs))
	}
	// The rules' own defects (a missing rule, a bad message, reason or
	// fieldPath) are reported by structural.ValidateProps, as part of the
	// schema's errors, and stop the rules of the nodes above them.
	var props crdschema.JSONSchemaProps
	if err := json.Unmarshal(c.Schema, &props); err != nil {
		t.Fatal(err)
	}
	var defects crdschema.ErrorList
	for _, e := range structural.ValidateProps(parsePath(c.Path), &props, structural.Options{}) {
		if strings.Contains(e.Field, "x-kubernetes-validations") {
			defects = append(defects, e)
		}
	}
	opts = append(opts, SchemaErrors(defects))
	errs, cs, err := CheckSchema(s, parsePath(c.Path), opts...)
	if err != nil {
		t.Fatal(err)
	}
	errs = append(defects, errs...)
	var want []goldenError
	for _, e := range c.CRDErrors {
		if celCRDError(e, c.Path) {
			want = append(want, e)
		}
	}
	crdMissing, crdExtra = diff(toGolden(errs), want)
	for _, x := range cs {
		costs = append(costs, goldenCost{Field: x.Field, Rule: x.Rule, Cost: x.Cost, Cardinality: x.Cardinality})
	}
	if len(c.CRDErrors) > 0 {
		return
	}
	compiled, err := Compile(s, true, compileOpts...)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Requests {
		obj := mustDecode(t, r.Object)
		old := mustDecode(t, r.OldObject)
		var vopts []ValidateOption
		if old != nil {
			vopts = append(vopts, WithRatcheting(ratchet.Correlate(obj, old, s)))
		}
		got := compiled.Validate(context.Background(), nil, obj, old, vopts...).Errors
		m, x := diff(toGolden(got), r.Errors)
		reqMissing = append(reqMissing, m)
		reqExtra = append(reqExtra, x)
	}
	return
}

func TestGoldenReport(t *testing.T) {
	if os.Getenv("CELRULES_REPORT") == "" {
		t.Skip("set CELRULES_REPORT=1 for a report of every case")
	}
	cases := loadCases(t)
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := cases[n]
		cm, cx, costs, rm, rx := runCase(t, c)
		var lines []string
		for _, e := range cm {
			lines = append(lines, "  crd missing: "+e.String())
		}
		for _, e := range cx {
			lines = append(lines, "  crd extra:   "+e.String())
		}
		if fmt.Sprint(costs) != fmt.Sprint(c.CELCosts) && !(len(costs) == 0 && len(c.CELCosts) == 0) {
			lines = append(lines, fmt.Sprintf("  costs got  %v\n        want %v", costs, c.CELCosts))
		}
		for i := range rm {
			for _, e := range rm[i] {
				lines = append(lines, fmt.Sprintf("  req %d missing: %s", i, e))
			}
			for _, e := range rx[i] {
				lines = append(lines, fmt.Sprintf("  req %d extra:   %s", i, e))
			}
		}
		if len(lines) > 0 {
			fmt.Printf("%s:\n%s\n", n, strings.Join(lines, "\n"))
		}
	}
}

// nonCELError tells whether a request error comes from a check other than
// CEL rules (OpenAPI validation, metadata, list uniqueness), which this
// package does not make.
func nonCELError(e goldenError) bool {
	return strings.Contains(e.Detail, " in body ") ||
		(e.Detail == "" && (e.Type == "FieldValueRequired" || e.Type == "FieldValueDuplicate")) ||
		strings.HasPrefix(e.Detail, "some validation rules were not checked")
}

// TestGolden runs the conformance cases of testdata/cases, produced by the
// API server's own code, through CheckSchema, Compile and Validate.
func TestGolden(t *testing.T) {
	cases := loadCases(t)
	if len(cases) < 50 {
		t.Fatalf("only %d cases", len(cases))
	}
	// Every case runs on its own, then with one Cache shared by all
	// cases: reusing parses must not change a result.
	shared := new(Cache)
	for _, mode := range []struct {
		name string
		opts []Option
	}{{"fresh", nil}, {"sharedCache", []Option{UseCache(shared)}}} {
		t.Run(mode.name, func(t *testing.T) { testGolden(t, cases, mode.opts) })
	}
}

func testGolden(t *testing.T, cases map[string]*goldenCase, opts []Option) {
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			cm, cx, costs, rm, rx := runCase(t, c, opts...)
			for _, e := range cm {
				t.Errorf("CRD error missing: %s", e)
			}
			for _, e := range cx {
				t.Errorf("unexpected CRD error: %s", e)
			}
			if d := cmp.Diff(c.CELCosts, costs, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("costs (-want +got):\n%s", d)
			}
			for i := range rm {
				blocked := false
				for _, e := range c.Requests[i].Errors {
					if strings.HasPrefix(e.Detail, "some validation rules were not checked") {
						blocked = true
					}
				}
				if blocked {
					// The pipeline skips CEL after blocking errors.
					continue
				}
				for _, e := range rm[i] {
					if !nonCELError(e) {
						t.Errorf("request %d: error missing: %s", i, e)
					}
				}
				for _, e := range rx[i] {
					t.Errorf("request %d: unexpected error: %s", i, e)
				}
			}
		})
	}
}
