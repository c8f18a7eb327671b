package crd

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/manifest"
)

// validateBoth validates def (an update from old when old is not nil)
// with the cache and without, and fails t when the errors differ.
func validateBoth(t *testing.T, cache *celrules.Cache, def, old *crdschema.CustomResourceDefinition, opts ...Option) {
	t.Helper()
	run := func(opts ...Option) crdschema.ErrorList {
		if old != nil {
			return ValidateUpdate(context.Background(), def, old, opts...)
		}
		return Validate(context.Background(), def, opts...)
	}
	want := verdictTexts(run(opts...))
	got := verdictTexts(run(append(opts, WithCache(cache))...))
	if !slices.Equal(got, want) {
		t.Fatalf("with a cache:\n  %q\nwithout:\n  %q", got, want)
	}
}

var pointerText = regexp.MustCompile(`\(0x[0-9a-f]+\)`)

// verdictTexts are errorTexts with the pointers that bad values print
// made equal.
func verdictTexts(errs crdschema.ErrorList) []string {
	out := errorTexts(errs)
	for i := range out {
		out[i] = pointerText.ReplaceAllString(out[i], "(0x)")
	}
	return out
}

// TestVerdictsSameResults validates the CRDs of the conformance cases,
// each twice and at two releases, with one cache for all and without:
// the errors are the same.
func TestVerdictsSameResults(t *testing.T) {
	cache := new(celrules.Cache)
	k133, err := crdschema.ParseKubernetesVersion("1.33")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range readConformanceCases(t) {
		def := mustCRD(t, c.CRD)
		var old *crdschema.CustomResourceDefinition
		if len(c.OldCRD) > 0 {
			old = mustCRD(t, c.OldCRD)
		}
		for range 2 {
			validateBoth(t, cache, def, old)
			validateBoth(t, cache, def, old, WithKubernetesVersion(k133))
			validateBoth(t, cache, def, nil)
		}
	}
}

// TestVerdictsRandomChanges changes the CRDs of the conformance cases at
// random (a field removed, a string, a number or a boolean changed, a
// list item replaced by the next) and validates every variant with one cache and
// without; then the originals again.
func TestVerdictsRandomChanges(t *testing.T) {
	cache := new(celrules.Cache)
	rng := rand.New(rand.NewPCG(1, 30))
	cases := readConformanceCases(t)
	n := 0
	for _, c := range cases {
		var doc any
		if err := json.Unmarshal(c.CRD, &doc); err != nil {
			t.Fatal(err)
		}
		for range 8 {
			changed := changeAtRandom(rng, deepCopyJSON(doc))
			b, err := json.Marshal(changed)
			if err != nil {
				t.Fatal(err)
			}
			def, _, err := manifest.UnmarshalCRD(b)
			if err != nil {
				continue
			}
			n++
			validateBoth(t, cache, def, nil)
			validateBoth(t, cache, def, mustCRD(t, c.CRD))
		}
	}
	for _, c := range cases {
		validateBoth(t, cache, mustCRD(t, c.CRD), nil)
	}
	if n < len(cases) {
		t.Errorf("only %d variants of %d cases decode", n, len(cases))
	}
}

// TestVerdictsOwnErrors: the errors a call returns are its own; changing
// them changes nothing the next call returns.
func TestVerdictsOwnErrors(t *testing.T) {
	cache := new(celrules.Cache)
	def := cacheCRD(t, `{"type": "object", "properties": {"x": {"type": "strin"}}}`, false)
	first := Validate(context.Background(), def, WithCache(cache))
	if len(first) == 0 {
		t.Fatal("no errors")
	}
	want := errorTexts(first)
	for _, e := range first {
		e.Field, e.Detail = "changed", "changed"
	}
	if got := errorTexts(Validate(context.Background(), def, WithCache(cache))); !slices.Equal(got, want) {
		t.Errorf("after changing the errors returned: %q, want %q", got, want)
	}
	// The CRD changed after a validation gets the errors of its new value.
	def.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["x"] = crdschema.JSONSchemaProps{Type: "string"}
	validateBoth(t, cache, def, nil)
}

// TestVerdictsCanceled: a validation whose context ended is not kept.
func TestVerdictsCanceled(t *testing.T) {
	cache := new(celrules.Cache)
	def := cacheCRD(t, `{"type": "object", "default": {"x": "a"}, "properties": {"x": {"type": "string"}}, "x-kubernetes-validations": [{"rule": "self.x == 'b'"}]}`, false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	Validate(ctx, def, WithCache(cache))
	validateBoth(t, cache, def, nil)
}

// FuzzVerdicts compares validations with one cache for every input and
// without.
func FuzzVerdicts(f *testing.F) {
	for _, c := range readConformanceCases(f)[:40] {
		f.Add([]byte(c.CRD))
	}
	cache := new(celrules.Cache)
	f.Fuzz(func(t *testing.T, data []byte) {
		def, _, err := manifest.UnmarshalCRD(data)
		if err != nil {
			return
		}
		validateBoth(t, cache, def, nil)
		validateBoth(t, cache, def, def)
	})
}

func deepCopyJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = deepCopyJSON(x)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, x := range v {
			l[i] = deepCopyJSON(x)
		}
		return l
	}
	return v
}

// changeAtRandom makes one change at a random place of doc and returns
// doc.
func changeAtRandom(rng *rand.Rand, doc any) any {
	v := doc
	for {
		switch x := v.(type) {
		case map[string]any:
			if len(x) == 0 {
				return doc
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			k := keys[rng.IntN(len(keys))]
			switch child := x[k].(type) {
			case map[string]any, []any:
				if rng.IntN(4) > 0 {
					v = child
					continue
				}
				delete(x, k)
			case string:
				x[k] = []string{"", "x", "object", "integer", "string", "self.x > 0"}[rng.IntN(6)]
			case bool:
				x[k] = !child
			case float64:
				x[k] = child + float64(rng.IntN(3)) - 1
			default:
				delete(x, k)
			}
			return doc
		case []any:
			if len(x) == 0 {
				return doc
			}
			i := rng.IntN(len(x))
			switch x[i].(type) {
			case map[string]any, []any:
				if rng.IntN(4) > 0 {
					v = x[i]
					continue
				}
			}
			x[i] = x[(i+1)%len(x)]
			return doc
		default:
			return doc
		}
	}
}

// schemaDigest is the digest input of s.
func schemaDigest(s *crdschema.JSONSchemaProps) string {
	d := digester{h: sha256.New(), buf: make([]byte, 0, 64)}
	d.schema(s, 0)
	d.h.Write(d.buf)
	return string(d.h.Sum(nil))
}

// TestDigestCoversSchema: setting any field of a JSONSchemaProps (to an
// empty list, map or pointer, to a non-empty string, to true) or of a
// validation rule changes the digest.
func TestDigestCoversSchema(t *testing.T) {
	empty := schemaDigest(&crdschema.JSONSchemaProps{})
	set := func(f reflect.Value) {
		switch f.Kind() {
		case reflect.String:
			f.SetString("x")
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Pointer:
			f.Set(reflect.New(f.Type().Elem()))
		case reflect.Slice:
			f.Set(reflect.MakeSlice(f.Type(), 0, 0))
		case reflect.Map:
			f.Set(reflect.MakeMap(f.Type()))
		default:
			t.Fatalf("no test value for a %s", f.Kind())
		}
	}
	typ := reflect.TypeFor[crdschema.JSONSchemaProps]()
	for i := range typ.NumField() {
		var s crdschema.JSONSchemaProps
		set(reflect.ValueOf(&s).Elem().Field(i))
		if schemaDigest(&s) == empty {
			t.Errorf("setting %s does not change the digest", typ.Field(i).Name)
		}
	}
	rule := reflect.TypeFor[crdschema.ValidationRule]()
	for i := range rule.NumField() {
		s := crdschema.JSONSchemaProps{XValidations: []crdschema.ValidationRule{{}}}
		before := schemaDigest(&s)
		set(reflect.ValueOf(&s.XValidations[0]).Elem().Field(i))
		if schemaDigest(&s) == before {
			t.Errorf("setting the rule's %s does not change the digest", rule.Field(i).Name)
		}
	}
	// Values of defaults, by kind.
	seen := map[string]bool{}
	for _, v := range []any{nil, "1", int64(1), float64(1), true, false, map[string]any{}, []any{}, map[string]any{"a": nil}, []any{nil}, 1} {
		k := schemaDigest(&crdschema.JSONSchemaProps{Default: &crdschema.JSON{Value: v}})
		if seen[k] {
			t.Errorf("the default %#v has the digest of another", v)
		}
		seen[k] = true
	}
}

func BenchmarkDigest(b *testing.B) {
	def := mustCRD(b, readHTTPRoute(b))
	for b.Loop() {
		if _, ok := digest("Validate", crdschema.KubernetesVersion{}, []*crdschema.CustomResourceDefinition{def}); !ok {
			b.Fatal("not covered")
		}
	}
}
