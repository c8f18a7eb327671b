package openapi

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/manifest"
	"github.com/google/go-cmp/cmp"
)

// goldenCase is a CRD version and the documents the API server published
// for it (testdata/cases, taken from the conformance goldens).
type goldenCase struct {
	Source  string          `json:"source"`
	CRD     json.RawMessage `json:"crd"`
	Version string          `json:"version"`
	V2      any             `json:"v2"`
	V3      any             `json:"v3"`
}

func readGzipJSON(t testing.TB, path string, v any) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func loadCase(t testing.TB, path string) (*goldenCase, *crdschema.CustomResourceDefinition, string) {
	t.Helper()
	var c goldenCase
	readGzipJSON(t, path, &c)
	crd, _, err := manifest.UnmarshalCRD(c.CRD)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	version := c.Version
	if version == "" {
		v := crd.StorageVersion()
		if v == nil {
			t.Fatalf("%s: no storage version", path)
		}
		version = v.Name
	}
	return &c, crd, version
}

// asJSON marshals v and decodes it again as a plain JSON value.
func asJSON(t testing.TB, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 200 {
		return string(b[:200]) + "..."
	}
	return string(b)
}

func TestGoldenDocuments(t *testing.T) {
	files, err := filepath.Glob("testdata/cases/*.json.gz")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json.gz")
		t.Run(name, func(t *testing.T) {
			c, crd, version := loadCase(t, f)
			before := asJSON(t, crd)

			v2, err := V2(crd, version, Options{})
			if err != nil {
				t.Fatalf("V2: %v", err)
			}
			if diff := cmp.Diff(c.V2, asJSON(t, v2)); diff != "" {
				t.Errorf("V2 differs from upstream (%s) (-want +got):\n%s", c.Source, diff)
			}
			v3, err := V3(crd, version, Options{})
			if err != nil {
				t.Fatalf("V3: %v", err)
			}
			if diff := cmp.Diff(c.V3, asJSON(t, v3)); diff != "" {
				t.Errorf("V3 differs from upstream (%s) (-want +got):\n%s", c.Source, diff)
			}
			if !reflect.DeepEqual(asJSON(t, crd), before) {
				t.Errorf("the CRD was modified")
			}
		})
	}
}

// TestConcurrentPublishing publishes one CRD from several goroutines at
// once (run with -race) and checks that every result is the same.
func TestConcurrentPublishing(t *testing.T) {
	_, crd, version := loadCase(t, "testdata/cases/openapi_embedded-nullable-int-or-string-mix.json.gz")
	want, err := V3(crd, version, Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantJSON := asJSON(t, want)
	done := make(chan any)
	for range 4 {
		go func() {
			doc, err := V3(crd, version, Options{})
			if err != nil {
				done <- err
				return
			}
			// Changing one result must not change another.
			doc.Components.Schemas["com.example.stable.v1.Ingot"].Properties["spec"].Properties["opt"].Enum[0] = "changed"
			_, err = V2(crd, version, Options{})
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(asJSON(t, want), wantJSON) {
		t.Error("publishing again changed an earlier result")
	}
}
