package openapi_test

// Hostile schemas for OpenAPI publishing: bounded time and memory, no
// panics, documents that marshal, inputs left alone; concurrent use.

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/hostile"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/openapi"
)

// The harness of the hostile-input tests (package internal/hostile).
const hostileLimit = hostile.Limit

var (
	bounded       = hostile.Run
	boundedAlloc  = hostile.RunAlloc
	skipUnderRace = hostile.SkipUnderRace
)

// crdWith returns a CRD of group example.com, kind Widget, version v1, with
// schema as its openAPIV3Schema.
func crdWith(schema *crdschema.JSONSchemaProps) *crdschema.CustomResourceDefinition {
	def := &crdschema.CustomResourceDefinition{}
	def.Name = "widgets.example.com"
	def.Spec.Group = "example.com"
	def.Spec.Scope = crdschema.NamespaceScoped
	def.Spec.Names = crdschema.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"}
	def.Spec.Versions = []crdschema.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
		Schema: &crdschema.CustomResourceValidation{OpenAPIV3Schema: schema},
		Subresources: &crdschema.CustomResourceSubresources{Status: &crdschema.CustomResourceSubresourceStatus{},
			Scale: &crdschema.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.r", StatusReplicasPath: ".status.r"}}}}
	return def
}

// publish publishes def in both versions with every option combination,
// checking that def is not modified and that the documents marshal.
func publish(t *testing.T, def *crdschema.CustomResourceDefinition) (v2, v3 []byte) {
	t.Helper()
	before := hostile.Clone(def)
	bounded(t, hostileLimit, func() {
		for i, opts := range []openapi.Options{{}, {StripValueValidation: true, StripNullable: true, OmitSelectableFields: true}} {
			s, err := openapi.V2(def, "v1", opts)
			if err != nil {
				t.Errorf("V2: %v", err)
				return
			}
			d, err := openapi.V3(def, "v1", opts)
			if err != nil {
				t.Errorf("V3: %v", err)
				return
			}
			a, err := json.Marshal(s)
			if err != nil {
				t.Errorf("marshalling V2: %v", err)
			}
			b, err := json.Marshal(d)
			if err != nil {
				t.Errorf("marshalling V3: %v", err)
			}
			if i == 0 {
				v2, v3 = a, b
			}
		}
	})
	if !reflect.DeepEqual(def, before) {
		t.Error("the CRD was modified")
	}
	return
}

func nestSchema(depth int) *crdschema.JSONSchemaProps {
	p := crdschema.JSONSchemaProps{Type: "string", Description: "bottom"}
	for range depth {
		inner := p
		p = crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{"a": inner},
			AllOf: []crdschema.JSONSchemaProps{{Required: []string{"a"}}}}
	}
	return &crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{"spec": p}}
}

// TestHostileDeepSchema publishes schemas nested 1,000 and 20,000 deep.
func TestHostileDeepSchema(t *testing.T) {
	skipUnderRace(t)
	for _, depth := range []int{1000, 20000} {
		_, v3 := publish(t, crdWith(nestSchema(depth)))
		if depth == 1000 && !strings.Contains(string(v3), `"bottom"`) {
			t.Errorf("depth %d: the bottom of the schema is not published", depth)
		}
	}
}

// TestHostileWideSchema: 100,000 properties, 3,000 rules, a 10 MB
// description, an enum of 100,000 values.
func TestHostileWideSchema(t *testing.T) {
	skipUnderRace(t)
	props := make(map[string]crdschema.JSONSchemaProps, 100000)
	enum := make([]crdschema.JSON, 100000)
	for i := range 100000 {
		props[fmt.Sprint("p", i)] = crdschema.JSONSchemaProps{Type: "integer"}
		enum[i] = crdschema.JSON{Value: fmt.Sprint(i)}
	}
	rules := make([]crdschema.ValidationRule, 3000)
	for i := range rules {
		rules[i] = crdschema.ValidationRule{Rule: fmt.Sprintf("self.p%d >= 0", i)}
	}
	props["e"] = crdschema.JSONSchemaProps{Type: "string", Enum: enum, Description: strings.Repeat("d", 10<<20)}
	schema := &crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{
		"spec": {Type: "object", Properties: props, XValidations: rules}}}
	def := crdWith(schema)
	// What the library allocates (marshalling the documents with
	// go-openapi takes as much again).
	boundedAlloc(t, 1<<30, func() {
		openapi.V2(def, "v1", openapi.Options{})
		openapi.V3(def, "v1", openapi.Options{})
	})
	_, v3 := publish(t, def)
	if !strings.Contains(string(v3), `"p99999"`) || !strings.Contains(string(v3), "self.p2999 ") {
		t.Errorf("properties or rules missing (%d bytes: %v %v)", len(v3), strings.Contains(string(v3), `"p99999"`), strings.Contains(string(v3), "self.p2999 "))
	}
}

// TestHostileValues: numbers at the edges, invalid UTF-8, and (in-memory
// only) NaN in defaults and bounds.
func TestHostileValues(t *testing.T) {
	bad := "a\xff\xfeb"
	schema := &crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{
		"i":  {Type: "integer", Minimum: ptr(-9.223372036854776e18), Maximum: ptr(9.223372036854776e18), Default: &crdschema.JSON{Value: int64(math.MaxInt64)}},
		"f":  {Type: "number", Minimum: ptr(-math.MaxFloat64), Maximum: ptr(math.MaxFloat64), MultipleOf: ptr(5e-324), Default: &crdschema.JSON{Value: 1e308}},
		"s":  {Type: "string", MaxLength: ptr(int64(math.MaxInt64)), MinLength: ptr(int64(math.MinInt64)), Description: bad},
		bad:  {Type: "string", Enum: []crdschema.JSON{{Value: bad}}, Default: &crdschema.JSON{Value: bad}},
		"l":  {Type: "array", MaxItems: ptr(int64(math.MaxInt64)), Items: &crdschema.JSONSchemaPropsOrArray{Schema: &crdschema.JSONSchemaProps{Type: "string"}}},
		"m":  {Type: "object", MaxProperties: ptr(int64(math.MaxInt64)), AdditionalProperties: &crdschema.JSONSchemaPropsOrBool{Allows: true, Schema: &crdschema.JSONSchemaProps{Type: "integer"}}},
		"x":  {Type: "object", XPreserveUnknownFields: ptr(true), Example: &crdschema.JSON{Value: map[string]any{bad: []any{int64(math.MinInt64), 5e-324}}}},
		"ru": {Type: "string", XValidations: []crdschema.ValidationRule{{Rule: "self == '" + bad + "'", Message: bad, FieldPath: "." + bad}}},
	}}
	_, v3 := publish(t, crdWith(schema))
	for _, want := range []string{"9223372036854775807", "1e+308", "5e-324"} {
		if !strings.Contains(string(v3), want) {
			t.Errorf("%s not published", want)
		}
	}
	// A pattern that is not a regular expression (invalid UTF-8) makes the
	// schema unpublishable, as in the API server: the kind is published
	// without it.
	withBadPattern := crdWith(&crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{
		"s": {Type: "string", Pattern: bad}}})
	if _, v3 := publish(t, withBadPattern); !strings.Contains(string(v3), `"com.example.v1.Widget"`) {
		t.Error("the kind is not published")
	}
	// NaN cannot come from JSON; publishing it must not crash.
	nan := crdWith(&crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{
		"n": {Type: "number", Maximum: ptr(math.NaN()), Default: &crdschema.JSON{Value: math.Inf(1)}}}})
	bounded(t, hostileLimit, func() {
		if d, err := openapi.V3(nan, "v1", openapi.Options{}); err == nil {
			json.Marshal(d)
		}
		if s, err := openapi.V2(nan, "v1", openapi.Options{}); err == nil {
			json.Marshal(s)
		}
	})
	// Nil and broken CRDs give errors, not panics.
	bounded(t, hostileLimit, func() {
		for _, def := range []*crdschema.CustomResourceDefinition{nil, {}, crdWith(nil)} {
			openapi.V2(def, "v1", openapi.Options{})
			openapi.V3(def, "v1", openapi.Options{})
			openapi.V3(def, "nope", openapi.Options{})
		}
	})
}

func ptr[T any](v T) *T { return &v }

// realCRDs reads the CRDs of the golden cases.
func realCRDs(t testing.TB) []*crdschema.CustomResourceDefinition {
	t.Helper()
	files, _ := filepath.Glob("testdata/cases/realworld_*.json.gz")
	if len(files) == 0 {
		t.Fatal("no real CRDs")
	}
	var defs []*crdschema.CustomResourceDefinition
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		z, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(z)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		var c struct {
			CRD     json.RawMessage `json:"crd"`
			Version string          `json:"version"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		def, _, err := manifest.UnmarshalCRD(c.CRD)
		if err != nil {
			t.Fatal(err)
		}
		defs = append(defs, def)
	}
	return defs
}

// TestPublishDoesNotModifyCRD: V2 and V3 leave real CRDs alone.
func TestPublishDoesNotModifyCRD(t *testing.T) {
	for _, def := range realCRDs(t) {
		before := hostile.Clone(def)
		for _, v := range def.Spec.Versions {
			for _, opts := range []openapi.Options{{}, {StripValueValidation: true, StripNullable: true, OmitSelectableFields: true}} {
				openapi.V2(def, v.Name, opts)
				openapi.V3(def, v.Name, opts)
			}
		}
		if !reflect.DeepEqual(def, before) {
			t.Errorf("%s: the CRD was modified", def.Name)
		}
	}
}

// TestConcurrentPublish publishes real CRDs from many goroutines (run with
// -race): the documents are the sequential ones.
func TestConcurrentPublish(t *testing.T) {
	defs := realCRDs(t)
	run := func(i int) string {
		def := defs[i]
		v := def.Spec.Versions[0].Name
		s, err := openapi.V2(def, v, openapi.Options{})
		d, err3 := openapi.V3(def, v, openapi.Options{StripNullable: i%2 == 0})
		a, _ := json.Marshal(s)
		b, _ := json.Marshal(d)
		return fmt.Sprint(string(a), err, string(b), err3)
	}
	want := make([]string, len(defs))
	for i := range defs {
		want[i] = run(i)
	}
	var wg sync.WaitGroup
	for g := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 2 * len(defs) {
				i := (g + k) % len(defs)
				if got := run(i); got != want[i] {
					t.Errorf("%s: concurrent documents differ", defs[i].Name)
					return
				}
			}
		}()
	}
	wg.Wait()
}
