package printer

import (
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/manifest"
)

// BenchmarkRow renders a Certificate-like object with six columns, two of
// them filters on status conditions.
func BenchmarkRow(b *testing.B) {
	p, err := New([]crdschema.CustomResourceColumnDefinition{
		{Name: "Ready", Type: "string", JSONPath: `.status.conditions[?(@.type=="Ready")].status`},
		{Name: "Secret", Type: "string", JSONPath: ".spec.secretName"},
		{Name: "Issuer", Type: "string", JSONPath: ".spec.issuerRef.name", Priority: 1},
		{Name: "Status", Type: "string", JSONPath: `.status.conditions[?(@.type=="Ready")].message`, Priority: 1},
		{Name: "Replicas", Type: "integer", JSONPath: ".spec.replicas"},
		{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp"},
	}, WithClock(clock))
	if err != nil {
		b.Fatal(err)
	}
	obj, err := manifest.UnmarshalObject([]byte(`{
	  "apiVersion": "cert-manager.io/v1", "kind": "Certificate",
	  "metadata": {"name": "web", "namespace": "default", "creationTimestamp": "2026-11-20T10:00:00Z",
	               "labels": {"app": "web"}},
	  "spec": {"secretName": "web-tls", "issuerRef": {"name": "letsencrypt", "kind": "ClusterIssuer"},
	           "dnsNames": ["example.com", "www.example.com"], "replicas": 3},
	  "status": {"conditions": [
	    {"type": "Issuing", "status": "False", "reason": "Done", "message": "done"},
	    {"type": "Ready", "status": "True", "reason": "Ready", "message": "Certificate is up to date and has not expired"}
	  ], "notAfter": "2027-01-01T00:00:00Z"}
	}`))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if row := p.Row(obj); len(row) != 7 || row[1] != "True" {
			b.Fatalf("row %v", row)
		}
	}
}

func BenchmarkFieldsMatch(b *testing.B) {
	f := NewFields([]crdschema.SelectableField{{JSONPath: ".spec.color"}, {JSONPath: ".spec.size"}}, true)
	sel, err := f.ParseSelector("spec.color=blue,spec.size!=M")
	if err != nil {
		b.Fatal(err)
	}
	obj := shirt("example1", "blue", "S")
	b.ReportAllocs()
	for b.Loop() {
		if ok, err := f.Matches(sel, obj); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
}
