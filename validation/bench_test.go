package validation

import (
	"github.com/crdschema/crdschema/internal/objectcheck"
	"os"
	"testing"

	"github.com/crdschema/crdschema/manifest"
)

func loadHTTPRoute(t testing.TB) (*Validator, map[string]any) {
	t.Helper()
	data, err := os.ReadFile("testdata/httproute-v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := New(mustStructural(t, data))
	if err != nil {
		t.Fatal(err)
	}
	objData, err := os.ReadFile("testdata/httproute.json")
	if err != nil {
		t.Fatal(err)
	}
	obj, err := manifest.UnmarshalObject(objData)
	if err != nil {
		t.Fatal(err)
	}
	return v, obj
}

func TestHTTPRouteValid(t *testing.T) {
	v, obj := loadHTTPRoute(t)
	if errs := v.Validate(nil, obj); len(errs) != 0 {
		t.Fatalf("valid HTTPRoute rejected: %v", errs)
	}
	spec := obj["spec"].(map[string]any)
	spec["hostnames"] = []any{"Bad_Host"}
	checkErrors(t, v.Validate(nil, obj), []string{
		`spec.hostnames[0]: Invalid value: "Bad_Host": spec.hostnames[0] in body should match '^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'`,
	})
}

func BenchmarkValidate(b *testing.B) {
	v, obj := loadHTTPRoute(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if errs := v.Validate(nil, obj); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}

func BenchmarkValidateInvalid(b *testing.B) {
	v, obj := loadHTTPRoute(b)
	spec := obj["spec"].(map[string]any)
	spec["hostnames"] = []any{"Bad_Host", 7}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if errs := v.Validate(nil, obj); len(errs) == 0 {
			b.Fatal("no errors")
		}
	}
}

func BenchmarkNew(b *testing.B) {
	data, err := os.ReadFile("testdata/httproute-v1.schema.json")
	if err != nil {
		b.Fatal(err)
	}
	s := mustStructural(b, data)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := New(s); err != nil {
			b.Fatal(err)
		}
	}
}

func TestValidateConcurrent(t *testing.T) {
	v, obj := loadHTTPRoute(t)
	bad := map[string]any{"spec": map[string]any{"hostnames": []any{"Bad_Host"}}}
	done := make(chan bool)
	for g := 0; g < 4; g++ {
		go func() {
			for i := 0; i < 50; i++ {
				if len(v.Validate(nil, obj)) != 0 || len(v.Validate(nil, bad)) != 1 {
					t.Error("unexpected result")
				}
			}
			done <- true
		}()
	}
	for g := 0; g < 4; g++ {
		<-done
	}
}

func BenchmarkValidateListSetsAndMaps(b *testing.B) {
	data, err := os.ReadFile("testdata/httproute-v1.schema.json")
	if err != nil {
		b.Fatal(err)
	}
	s := mustStructural(b, data)
	_, obj := loadHTTPRoute(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if errs := objectcheck.ListSetsAndMaps(nil, obj, s); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}

func BenchmarkValidateEmbeddedMeta(b *testing.B) {
	s := mustStructural(b, []byte(specSchema(`{"tmpl":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}`)))
	obj := mustObject(b, `{"spec":{"tmpl":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"app":"web"}}}}}`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if errs := objectcheck.EmbeddedMeta(nil, obj, s, false); len(errs) != 0 {
			b.Fatal(errs)
		}
	}
}
