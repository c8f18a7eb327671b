package crd

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/manifest"
)

// cacheCRD returns a CRD of kind Widget whose version v1 (and v2 with
// twoVersions) has the schema of spec given, in JSON.
func cacheCRD(t *testing.T, spec string, twoVersions bool) *crdschema.CustomResourceDefinition {
	t.Helper()
	version := func(name string, storage bool) string {
		return fmt.Sprintf(`{"name": %q, "served": true, "storage": %t, "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": %s}}}}`, name, storage, spec)
	}
	versions := version("v1", true)
	if twoVersions {
		versions += "," + version("v2", false)
	}
	def, _, err := manifest.UnmarshalCRD([]byte(`{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": {"name": "widgets.example.com"},
		"spec": {"group": "example.com", "scope": "Namespaced",
			"names": {"plural": "widgets", "singular": "widget", "kind": "Widget", "listKind": "WidgetList"},
			"versions": [` + versions + `]}}`))
	if err != nil {
		t.Fatal(err)
	}
	return def
}

var generatedTypeName = regexp.MustCompile(`selfType\d+`)

// errorTexts renders errs with the generated type names (which change with
// every compilation) made equal.
func errorTexts(errs crdschema.ErrorList) []string {
	out := make([]string, len(errs))
	for i, e := range errs {
		out[i] = generatedTypeName.ReplaceAllString(e.Error(), "selfType")
	}
	return out
}

// cacheSpecs are schemas of spec that repeat rules over equal and over
// different types: the same rule over a string and an integer (a type
// error in one only), over lists with and without maxItems (different
// costs, a cost error in one only), with a fieldPath, a
// messageExpression, and a function that only later releases know.
var cacheSpecs = []string{
	`{"type": "object", "properties": {"x": {"type": "string", "maxLength": 10}}, "x-kubernetes-validations": [{"rule": "self.x + 'a' != 'ba'", "fieldPath": ".x"}]}`,
	`{"type": "object", "properties": {"x": {"type": "integer"}}, "x-kubernetes-validations": [{"rule": "self.x + 'a' != 'ba'", "fieldPath": ".x"}]}`,
	`{"type": "object", "properties": {"x": {"type": "string", "maxLength": 11}}, "x-kubernetes-validations": [{"rule": "self.x + 'a' != 'ba'", "fieldPath": ".x"}]}`,
	`{"type": "object", "properties": {"l": {"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 10}}}, "x-kubernetes-validations": [{"rule": "self.l.all(a, self.l.all(b, a.size() <= b.size()))", "messageExpression": "'l: ' + self.l.join(',')"}]}`,
	`{"type": "object", "properties": {"l": {"type": "array", "items": {"type": "string"}}}, "x-kubernetes-validations": [{"rule": "self.l.all(a, self.l.all(b, a.size() <= b.size()))", "messageExpression": "'l: ' + self.l.join(',')"}]}`,
	`{"type": "object", "properties": {"l": {"type": "array", "maxItems": 10, "items": {"type": "integer"}}}, "x-kubernetes-validations": [{"rule": "self.l.distinct() == self.l"}]}`,
	`{"type": "object", "properties": {"l": {"type": "array", "maxItems": 10, "items": {"type": "integer"}, "x-kubernetes-validations": [{"rule": "oldSelf.all(x, x in self)"}]}}}`,
}

// TestCacheSameResults checks that CRD validation, rule costs and serving
// give with a Cache shared by everything exactly what each call gives
// alone: the same rules over different types keep their own type errors
// and costs, releases keep their own environments, and a compilation
// made for validation (which creates programs only where that can fail)
// does not stand in for one that serves requests.
func TestCacheSameResults(t *testing.T) {
	ctx := context.Background()
	cache := new(celrules.Cache)
	shared := WithCache(cache)
	seen := map[string]bool{}            // the errors of the creates
	for round := 0; round < 2; round++ { // the second round hits what the first cached
		for i, spec := range cacheSpecs {
			for _, two := range []bool{false, true} {
				def := cacheCRD(t, spec, two)
				for _, rel := range []string{"1.33", "1.37"} {
					name := fmt.Sprintf("round %d spec %d versions %t %s", round, i, two, rel)
					kv, err := crdschema.ParseKubernetesVersion(rel)
					if err != nil {
						t.Fatal(err)
					}
					ver := WithKubernetesVersion(kv)
					alone := errorTexts(Validate(ctx, def, ver))
					if want := cacheSpecErrors[i][rel]; (len(alone) > 0) != want {
						t.Fatalf("%s: errors %q, want errors: %t", name, alone, want)
					}
					if got := errorTexts(Validate(ctx, def, ver, shared)); !cmp.Equal(got, alone) {
						t.Errorf("%s: Validate with a shared cache (-alone +shared):\n%s", name, cmp.Diff(alone, got))
					}
					if got := errorTexts(ValidateUpdate(ctx, def, def, ver, shared)); !cmp.Equal(got, errorTexts(ValidateUpdate(ctx, def, def, ver))) {
						t.Errorf("%s: ValidateUpdate differs with a shared cache: %q", name, got)
					}
					costsAlone, errAlone := RuleCosts(def, nil, "v1", ver)
					costs, err := RuleCosts(def, nil, "v1", ver, shared)
					if fmt.Sprint(errAlone) != fmt.Sprint(err) || !cmp.Equal(costs, costsAlone) {
						t.Errorf("%s: RuleCosts with a shared cache (-alone +shared):\n%s", name, cmp.Diff(costsAlone, costs))
					}
					if len(alone) > 0 {
						continue
					}
					// Served with the shared cache, after validation filled it.
					for _, opts := range [][]Option{{ver}, {ver, shared}, {ver, shared, WithLazyCompile()}} {
						res, err := New(def, "v1", opts...)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						for _, obj := range cacheObjects {
							r, err := res.Create(ctx, obj())
							if r.Object == nil {
								t.Fatalf("%s: %v", name, err)
							}
							got, want := errorTexts(r.Errors), errorTexts(cacheCreate(t, def, ver, obj))
							for _, e := range want {
								seen[e] = true
							}
							if !cmp.Equal(got, want) {
								t.Errorf("%s: Create with %d options (-alone +shared):\n%s", name, len(opts), cmp.Diff(want, got))
							}
						}
					}
				}
			}
		}
	}
	for _, want := range []string{
		`spec.x: Invalid value: failed rule: self.x + 'a' != 'ba'`,
		`spec.x: Invalid value: "object": failed rule: self.x + 'a' != 'ba'`, // 1.33
		`spec: Invalid value: l: aa,b`,
		`spec: Invalid value: failed rule: self.l.distinct() == self.l`,
		`spec: Invalid value: "object": no such key: x evaluating rule: self.x + 'a' != 'ba'`,
	} {
		if !seen[want] {
			t.Errorf("no create got %q; got %v", want, seen)
		}
	}
}

// cacheSpecErrors tells which specs of cacheSpecs CRD validation refuses
// at which release.
var cacheSpecErrors = []map[string]bool{
	{}, {"1.33": true, "1.37": true}, {}, {}, {"1.33": true, "1.37": true}, {"1.33": true}, {},
}

// cacheObjects are objects for the CRDs of cacheSpecs, each failing some
// of their rules.
var cacheObjects = []func() map[string]any{
	func() map[string]any { return widget(map[string]any{"x": "b"}) },
	func() map[string]any { return widget(map[string]any{"l": []any{"aa", "b"}}) },
	func() map[string]any { return widget(map[string]any{"l": []any{int64(1), int64(1)}}) },
}

func widget(spec map[string]any) map[string]any {
	return map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "namespace": "default"}, "spec": spec}
}

// cacheCreate creates obj with a Resource of its own.
func cacheCreate(t *testing.T, def *crdschema.CustomResourceDefinition, ver Option, obj func() map[string]any) crdschema.ErrorList {
	t.Helper()
	res, err := New(def, "v1", ver)
	if err != nil {
		t.Fatal(err)
	}
	r, err := res.Create(context.Background(), obj())
	if r.Object == nil {
		t.Fatal(err)
	}
	return r.Errors
}

// TestCacheKeepsTypeErrors checks, on known texts, that two CRDs sharing
// a cached rule over different types get their own errors and costs.
func TestCacheKeepsTypeErrors(t *testing.T) {
	ctx := context.Background()
	shared := WithCache(new(celrules.Cache))
	str, integer := cacheCRD(t, cacheSpecs[0], true), cacheCRD(t, cacheSpecs[1], true)
	if errs := Validate(ctx, str, shared); len(errs) != 0 {
		t.Fatalf("string: %v", errs)
	}
	errs := errorTexts(Validate(ctx, integer, shared))
	if len(errs) != 1 || !strings.Contains(errs[0], "found no matching overload for '_+_' applied to '(int, string)'") {
		t.Errorf("integer: want the type error, got %q", errs)
	}
	if errs := Validate(ctx, str, shared); len(errs) != 0 {
		t.Fatalf("string after integer: %v", errs)
	}
	bounded, unbounded := cacheCRD(t, cacheSpecs[3], false), cacheCRD(t, cacheSpecs[4], false)
	if errs := Validate(ctx, bounded, shared); len(errs) != 0 {
		t.Fatalf("bounded: %v", errs)
	}
	errs = errorTexts(Validate(ctx, unbounded, shared))
	if len(errs) == 0 || !strings.Contains(strings.Join(errs, "\n"), "estimated rule cost exceeds budget") {
		t.Errorf("unbounded: want a cost error, got %q", errs)
	}
	bc, _ := RuleCosts(bounded, nil, "v1", shared)
	uc, _ := RuleCosts(unbounded, nil, "v1", shared)
	if len(bc) != 2 || len(uc) != 2 || bc[0].Cost >= uc[0].Cost {
		t.Errorf("costs bounded %+v, unbounded %+v: want the unbounded rule to cost more", bc, uc)
	}
}

// TestCacheConcurrent serves CRDs from several goroutines through one
// cache, with rules compiled lazily on the first requests (run it with
// -race): every goroutine gets the results of a Resource of its own.
func TestCacheConcurrent(t *testing.T) {
	ctx := context.Background()
	shared := WithCache(new(celrules.Cache))
	defs := []*crdschema.CustomResourceDefinition{cacheCRD(t, cacheSpecs[0], false), cacheCRD(t, cacheSpecs[2], true), cacheCRD(t, cacheSpecs[3], false)}
	want := make([][][]string, len(defs))
	for i, def := range defs {
		for _, obj := range cacheObjects {
			want[i] = append(want[i], errorTexts(cacheCreate(t, def, WithKubernetesVersion(crdschema.KubernetesVersion{}), obj)))
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, def := range defs {
				res, err := New(def, "v1", shared, WithLazyCompile())
				if err != nil {
					errs <- err.Error()
					return
				}
				for j, obj := range cacheObjects {
					r, err := res.Create(ctx, obj())
					if r.Object == nil {
						errs <- err.Error()
						return
					}
					if got := errorTexts(r.Errors); !cmp.Equal(got, want[i][j]) {
						errs <- fmt.Sprintf("CRD %d object %d: %q, want %q", i, j, got, want[i][j])
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestServedSchemasShared checks that New builds the served schema once
// for versions whose schemas are deeply equal, and apart for a version
// that differs (here only in a default's type of number, which serving
// changes: 1.0 is served as 1, 1.5 stays), with the same objects created
// either way.
func TestServedSchemasShared(t *testing.T) {
	spec := func(def string) string {
		return `{"type": "object", "properties": {"n": {"type": "number", "default": ` + def + `}}}`
	}
	def, _, err := manifest.UnmarshalCRD([]byte(`{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": {"name": "widgets.example.com"},
		"spec": {"group": "example.com", "scope": "Namespaced", "names": {"plural": "widgets", "kind": "Widget"},
			"versions": [
				{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": ` + spec("1.0") + `}}}},
				{"name": "v2", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": ` + spec("1.0") + `}}}},
				{"name": "v3", "served": true, "storage": false, "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": ` + spec("1.5") + `}}}}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := New(def, "v2")
	if err != nil {
		t.Fatal(err)
	}
	if res.schemas["v1"] != res.schemas["v2"] || res.schemas["v1"] == res.schemas["v3"] {
		t.Errorf("v1 and v2 should share their served schema, v3 have its own")
	}
	for version, want := range map[string]any{"v1": int64(1), "v2": int64(1), "v3": 1.5} {
		res, err := New(def, version)
		if err != nil {
			t.Fatal(err)
		}
		obj := widget(map[string]any{})
		obj["apiVersion"] = "example.com/" + version
		r, err := res.Create(context.Background(), obj)
		if err != nil || len(r.Errors) > 0 {
			t.Fatalf("%s: %v %v", version, err, r.Errors)
		}
		if got := r.Object["spec"].(map[string]any)["n"]; got != want {
			t.Errorf("%s: default %#v, want %#v", version, got, want)
		}
	}
}
