package structural_test

// Hostile schemas: deep, wide, with huge or invalid values. Every entry
// point must finish in bounded time with a clear result, never panic, and
// never modify its input.

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/apiextensions"
	"github.com/crdschema/crdschema/internal/hostile"
	"github.com/crdschema/crdschema/structural"
)

// The harness of the hostile-input tests (package internal/hostile).
const hostileLimit = hostile.Limit

var (
	bounded       = hostile.Run
	boundedAlloc  = hostile.RunAlloc
	skipUnderRace = hostile.SkipUnderRace
)

var hostileRoot = crdschema.NewPath("spec", "validation", "openAPIV3Schema")

// nestSchema nests depth schemas through the keyword via ("properties",
// "items", "additionalProperties", "allOf" or "not") around a string leaf.
func nestSchema(depth int, via string) *crdschema.JSONSchemaProps {
	p := crdschema.JSONSchemaProps{Type: "string", MaxLength: ptr(int64(10))}
	if via == "allOf" || via == "not" {
		p = crdschema.JSONSchemaProps{MinLength: ptr(int64(1))}
	}
	for range depth - 1 {
		inner := p
		switch via {
		case "properties":
			p = crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{"a": p}}
		case "items":
			p = crdschema.JSONSchemaProps{Type: "array", Items: &crdschema.JSONSchemaPropsOrArray{Schema: &inner}}
		case "additionalProperties":
			p = crdschema.JSONSchemaProps{Type: "object", AdditionalProperties: &crdschema.JSONSchemaPropsOrBool{Allows: true, Schema: &inner}}
		case "allOf":
			p = crdschema.JSONSchemaProps{AllOf: []crdschema.JSONSchemaProps{p}}
		case "not":
			p = crdschema.JSONSchemaProps{Not: &inner}
		}
	}
	if via == "allOf" || via == "not" {
		inner := p
		p = crdschema.JSONSchemaProps{Type: "string", AllOf: []crdschema.JSONSchemaProps{inner}}
	}
	return &p
}

func ptr[T any](v T) *T { return &v }

// allEntryPoints runs every function of the package that takes a schema on
// p, checks that none modifies its input, and returns the errors of
// Validate and ValidateProps and that of New.
func allEntryPoints(t *testing.T, p *crdschema.JSONSchemaProps) (errs, propsErrs crdschema.ErrorList, newErr error) {
	t.Helper()
	before := hostile.Clone(p)
	bounded(t, hostileLimit, func() {
		var s *structural.Schema
		s, newErr = structural.New(p)
		propsErrs = structural.ValidateProps(hostileRoot, p, structural.Options{})
		if newErr != nil {
			return
		}
		sBefore := s.DeepCopy()
		errs = structural.Validate(hostileRoot, s, structural.Options{})
		structural.Validate(hostileRoot, s, structural.Options{AllowNestedAdditionalProperties: true, AllowNestedXValidations: true, AllowValidationPropertiesWithAdditionalProperties: true})
		s.FieldPath(strings.Repeat(".a", 2000), true)
		s.Unfold()
		if _, err := structural.New(s.ToJSONSchemaProps()); err != nil {
			t.Errorf("New(ToJSONSchemaProps()): %v", err)
		}
		s.Walk(nil, func(*crdschema.Path, *structural.Schema) bool { return true })
		apiextensions.Schema(p)
		if !reflect.DeepEqual(s, sBefore) {
			t.Error("the structural schema was modified")
		}
	})
	if !reflect.DeepEqual(p, before) {
		t.Error("the JSONSchemaProps were modified")
	}
	return
}

// TestHostileDeepSchema nests schemas 1,000 deep through every keyword
// that nests: all are accepted.
func TestHostileDeepSchema(t *testing.T) {
	skipUnderRace(t)
	for _, via := range []string{"properties", "items", "additionalProperties", "allOf", "not"} {
		t.Run(via, func(t *testing.T) {
			deep := nestSchema(1000, via)
			root := &crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{"spec": *deep}}
			errs, propsErrs, newErr := allEntryPoints(t, root)
			if newErr != nil || len(errs) > 0 || len(propsErrs) > 0 {
				t.Errorf("New: %v\nValidate: %v\nValidateProps: %v", newErr, errs, propsErrs)
			}
		})
	}
	// Deeper still: 100,000 levels finish too (the structural schema has no
	// depth limit; the API server's JSON decoder would stop at 10,000).
	t.Run("100000", func(t *testing.T) {
		p := nestSchema(100000, "properties")
		var errs crdschema.ErrorList
		bounded(t, hostileLimit, func() {
			s, err := structural.New(p)
			if err != nil {
				t.Error(err)
				return
			}
			errs = structural.Validate(hostileRoot, s, structural.Options{})
			errs = append(errs, structural.ValidateProps(hostileRoot, p, structural.Options{})...)
		})
		if len(errs) > 0 {
			t.Errorf("%d errors, first %v", len(errs), errs[0])
		}
	})
}

// TestHostileWideSchema: 100,000 properties, and an enum of 100,000 values.
func TestHostileWideSchema(t *testing.T) {
	skipUnderRace(t)
	const n = 100000
	props := make(map[string]crdschema.JSONSchemaProps, n)
	enum := make([]crdschema.JSON, n)
	for i := range n {
		props[fmt.Sprint("p", i)] = crdschema.JSONSchemaProps{Type: "integer"}
		enum[i] = crdschema.JSON{Value: fmt.Sprint(i)}
	}
	props["e"] = crdschema.JSONSchemaProps{Type: "string", Enum: enum}
	p := &crdschema.JSONSchemaProps{Type: "object", Properties: props}
	boundedAlloc(t, 1<<30, func() {
		errs, propsErrs, newErr := allEntryPoints(t, p)
		if newErr != nil || len(errs) > 0 || len(propsErrs) > 0 {
			t.Errorf("New: %v\nValidate: %v\nValidateProps: %v", newErr, errs, propsErrs)
		}
	})
}

// TestHostileSchemaValues: huge, invalid and extreme keyword values give
// clear errors or are accepted, in bounded time.
func TestHostileSchemaValues(t *testing.T) {
	skipUnderRace(t)
	big := strings.Repeat("a", 10<<20)
	bad := "a\xff\xfeb"
	tests := []struct {
		name string
		p    crdschema.JSONSchemaProps
		// wantErr is a substring of the error of Validate or
		// ValidateProps, or empty when the schema is accepted.
		wantErr string
	}{
		{"10 MB pattern", crdschema.JSONSchemaProps{Type: "string", Pattern: big}, ""},
		{"10 MB description", crdschema.JSONSchemaProps{Type: "string", Description: big}, ""},
		{"pattern nested too deep", crdschema.JSONSchemaProps{Type: "string", Pattern: strings.Repeat("(", 10000) + strings.Repeat(")", 10000)}, "must be a valid regular expression, but isn't: "},
		{"pattern too large", crdschema.JSONSchemaProps{Type: "string", Pattern: "((a{1000}){1000}){1000}"}, "must be a valid regular expression, but isn't: "},
		{"catastrophic pattern", crdschema.JSONSchemaProps{Type: "string", Pattern: "^(a+)+$"}, ""},
		{"invalid UTF-8 pattern", crdschema.JSONSchemaProps{Type: "string", Pattern: bad}, "must be a valid regular expression, but isn't: "},
		{"invalid UTF-8 property", crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{bad: {Type: "string"}}}, ""},
		{"invalid UTF-8 type", crdschema.JSONSchemaProps{Type: bad}, "Unsupported value"},
		{"invalid UTF-8 format", crdschema.JSONSchemaProps{Type: "string", Format: bad}, ""},
		{"invalid UTF-8 enum", crdschema.JSONSchemaProps{Type: "string", Enum: []crdschema.JSON{{Value: bad}}}, ""},
		{"extreme bounds", crdschema.JSONSchemaProps{Type: "number", Minimum: ptr(-math.MaxFloat64), Maximum: ptr(math.MaxFloat64), MultipleOf: ptr(5e-324)}, ""},
		{"extreme lengths", crdschema.JSONSchemaProps{Type: "string", MinLength: ptr(int64(math.MaxInt64)), MaxLength: ptr(int64(math.MinInt64))}, ""},
		{"extreme counts", crdschema.JSONSchemaProps{Type: "array", Items: &crdschema.JSONSchemaPropsOrArray{Schema: &crdschema.JSONSchemaProps{Type: "string"}},
			MaxItems: ptr(int64(math.MaxInt64)), MinItems: ptr(int64(math.MinInt64))}, ""},
		{"huge rule", crdschema.JSONSchemaProps{Type: "string", XValidations: []crdschema.ValidationRule{{Rule: big, FieldPath: "." + big}}}, "must be a valid path"},
		{"field path with invalid UTF-8", crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{bad: {Type: "string"}},
			XValidations: []crdschema.ValidationRule{{Rule: "true", FieldPath: "['" + bad + "']"}}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{"f": tc.p}}
			errs, propsErrs, newErr := allEntryPoints(t, p)
			if newErr != nil {
				t.Fatalf("New: %v", newErr)
			}
			all := append(append(crdschema.ErrorList{}, errs...), propsErrs...)
			text := ""
			for _, e := range all {
				text += e.Error() + "\n"
			}
			switch {
			case tc.wantErr == "" && len(all) > 0:
				if len(text) > 1000 {
					text = text[:1000]
				}
				t.Errorf("unexpected errors:\n%s", text)
			case tc.wantErr != "" && !strings.Contains(text, tc.wantErr):
				t.Errorf("errors do not contain %q:\n%.300s ... %s", tc.wantErr, text, text[max(0, len(text)-300):])
			}
		})
	}
}

// TestHostileThousandsOfRules: ValidateProps checks a node with 3,000
// rules (each with a fieldPath to resolve).
func TestHostileThousandsOfRules(t *testing.T) {
	skipUnderRace(t)
	rules := make([]crdschema.ValidationRule, 3000)
	for i := range rules {
		rules[i] = crdschema.ValidationRule{Rule: fmt.Sprintf("self.a.size() < %d", i), FieldPath: ".a"}
	}
	p := &crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{
		"spec": {Type: "object", Properties: map[string]crdschema.JSONSchemaProps{"a": {Type: "string"}}, XValidations: rules}}}
	var errs crdschema.ErrorList
	bounded(t, hostileLimit, func() { errs = structural.ValidateProps(hostileRoot, p, structural.Options{}) })
	if len(errs) > 0 {
		t.Errorf("errors %v", errs)
	}
	errs, propsErrs, newErr := allEntryPoints(t, p)
	if newErr != nil || len(errs) > 0 || len(propsErrs) > 0 {
		t.Errorf("New: %v\nValidate: %v\nValidateProps: %v", newErr, errs, propsErrs)
	}
}

// TestHostileFieldPaths: FieldPath on long, deep and malformed paths.
func TestHostileFieldPaths(t *testing.T) {
	skipUnderRace(t)
	s, err := structural.New(nestSchema(1000, "properties"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		wantErr bool
	}{
		{strings.Repeat(".a", 999), false},
		{strings.Repeat("['a']", 999), false},
		{strings.Repeat(".a", 1000), true},
		{strings.Repeat(".a", 1<<20), true},
		{"." + strings.Repeat("a", 10<<20), true},
		{strings.Repeat("[", 1<<20), true},
		{"['" + strings.Repeat(`\`, 1<<20), true},
		{".a\xff", true},
		{"['\xff']", true},
	}
	for i, tc := range tests {
		var err error
		bounded(t, hostileLimit, func() { _, _, err = s.FieldPath(tc.path, true) })
		if (err != nil) != tc.wantErr {
			t.Errorf("path %d (%.20q...): err = %v", i, tc.path, err)
		}
		if err != nil && len(err.Error()) > 1<<16 {
			// The error quotes the offending token, not the whole path.
			t.Logf("path %d: error of %d bytes", i, len(err.Error()))
		}
	}
}

// TestNoInputModification: New, Validate and ValidateProps leave the
// schemas of a large real CRD (Gateway API's Gateway) alone.
func TestNoInputModification(t *testing.T) {
	data, err := os.ReadFile("testdata/gateway.json")
	if err != nil {
		t.Fatal(err)
	}
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	if errs, propsErrs, newErr := allEntryPoints(t, &p); newErr != nil || len(errs) > 0 || len(propsErrs) > 0 {
		t.Errorf("New: %v\nValidate: %v\nValidateProps: %v", newErr, errs, propsErrs)
	}
}

// TestConcurrentSchema uses one structural schema from many goroutines at
// once (run with -race): every reader gets the sequential result.
func TestConcurrentSchema(t *testing.T) {
	data, err := os.ReadFile("testdata/gateway.json")
	if err != nil {
		t.Fatal(err)
	}
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(&p)
	if err != nil {
		t.Fatal(err)
	}
	run := func() string {
		var b strings.Builder
		fmt.Fprintln(&b, structural.Validate(hostileRoot, s, structural.Options{}))
		for _, fp := range []string{".spec.listeners", ".spec.gatewayClassName", ".spec.nope", ".metadata.name"} {
			path, _, err := s.FieldPath(fp, true)
			fmt.Fprintln(&b, path, err)
		}
		u := s.Unfold()
		j, _ := json.Marshal(u.ToJSONSchemaProps())
		b.Write(j)
		j, _ = json.Marshal(s.ToJSONSchemaProps())
		b.Write(j)
		s.Walk(nil, func(path *crdschema.Path, n *structural.Schema) bool {
			fmt.Fprint(&b, path.String(), n.Type)
			return true
		})
		c := s.DeepCopy()
		if !reflect.DeepEqual(c, s) {
			fmt.Fprint(&b, "copy differs")
		}
		return b.String()
	}
	want := run()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				if got := run(); got != want {
					t.Error("a concurrent run differs from the sequential one")
					return
				}
			}
		}()
	}
	wg.Wait()
}
