package structural

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/crdschema/crdschema"
)

// gateway returns the schema of the Gateway API's Gateway CRD (v1), a large
// real-world schema with rules, list maps and int-or-strings.
func gateway(tb testing.TB) *crdschema.JSONSchemaProps {
	tb.Helper()
	data, err := os.ReadFile("testdata/gateway.json")
	if err != nil {
		tb.Fatal(err)
	}
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal(data, &p); err != nil {
		tb.Fatal(err)
	}
	return &p
}

func TestGatewayIsAccepted(t *testing.T) {
	p := gateway(t)
	s, err := New(p)
	if err != nil {
		t.Fatal(err)
	}
	if errs := Validate(rootPath, s, Options{}); len(errs) != 0 {
		t.Errorf("Validate: %v", errs)
	}
	if errs := ValidateProps(rootPath, p, Options{}); len(errs) != 0 {
		t.Errorf("ValidateProps: %v", errs)
	}
}

func BenchmarkNew(b *testing.B) {
	p := gateway(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	s, err := New(gateway(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Validate(rootPath, s, Options{})
	}
}

func BenchmarkValidateProps(b *testing.B) {
	p := gateway(b)
	opts := Options{}
	b.ReportAllocs()
	for b.Loop() {
		ValidateProps(rootPath, p, opts)
	}
}

func BenchmarkFieldPath(b *testing.B) {
	s, err := New(gateway(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := s.FieldPath(".spec.gatewayClassName", true); err != nil {
			b.Fatal(err)
		}
	}
}
