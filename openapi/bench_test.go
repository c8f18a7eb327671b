package openapi

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/readall"
)

// loadBenchCRD reads the largest real CRD of the corpus: Kyverno's
// ClusterPolicy (testdata/bench, see testdata/README.md).
func loadBenchCRD(b *testing.B) *crdschema.CustomResourceDefinition {
	b.Helper()
	f, err := os.Open("testdata/bench/kyverno.io_clusterpolicies.yaml.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(z)
	if err != nil {
		b.Fatal(err)
	}
	crds, err := readall.CRDs(data)
	if err != nil || len(crds) != 1 {
		b.Fatalf("reading the CRD: %v (%d CRDs)", err, len(crds))
	}
	return crds[0]
}

// BenchmarkPublish publishes the storage version of Kyverno's
// ClusterPolicy CRD (1.4 MB of YAML) in OpenAPI v2 and v3.
func BenchmarkPublish(b *testing.B) {
	crd := loadBenchCRD(b)
	version := crd.StorageVersion().Name
	b.Run("V3", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := V3(crd, version, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("V2", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := V2(crd, version, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("V3+Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			doc, err := V3(crd, version, Options{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := json.Marshal(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}
