package prune_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/internal/casefile"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/internal/yamljson"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/structural"
	yaml "go.yaml.in/yaml/v3"
)

// The cases in testdata/cases are conformance cases of pruning and
// defaulting with the API server's results (*.golden.json, produced by
// running upstream's code); they test this package and package defaulting
// together, as the API server runs them. Each create request is run
// through the decode step (Decoder) and defaulting,
// and the object and unknown fields are compared with upstream's, except
// for the metadata fields the create preparation sets afterwards.

type testCase struct {
	Description string          `json:"description"`
	CRD         json.RawMessage `json:"crd"`
	Version     string          `json:"version"`
	Requests    []struct {
		Operation   string          `json:"operation"`
		Subresource string          `json:"subresource"`
		Object      json.RawMessage `json:"object"`
	} `json:"requests"`
}

type golden struct {
	Requests []struct {
		Object        map[string]any `json:"object"`
		UnknownFields []string       `json:"unknownFields"`
		RequestError  string         `json:"requestError"`
	} `json:"requests"`
}

// systemFields are set by the create preparation, after decoding.
var systemFields = []string{"creationTimestamp", "uid", "generation", "namespace", "deletionTimestamp", "deletionGracePeriodSeconds"}

func TestCases(t *testing.T) {
	files, err := filepath.Glob("testdata/cases/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases: %v", err)
	}
	compared := 0
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) { compared += runCase(t, f) })
	}
	if compared < len(files)/2 {
		t.Errorf("only %d requests compared in %d cases", compared, len(files))
	}
}

func runCase(t *testing.T, file string) (compared int) {
	var tc testCase
	readYAML(t, file, &tc)
	var g golden
	readYAML(t, strings.TrimSuffix(file, ".yaml")+".golden.json", &g)
	def, _, err := manifest.UnmarshalCRD(tc.CRD)
	if err != nil {
		t.Fatal(err)
	}
	ver := def.StorageVersion()
	if tc.Version != "" {
		ver = def.Version(tc.Version)
	}
	s, err := structural.New(ver.Schema.OpenAPIV3Schema)
	if err != nil {
		t.Fatal(err)
	}
	served, err := defaulting.PruneDefaults(s)
	if err != nil {
		t.Fatal(err)
	}
	d := prune.NewDecoder(prune.DecoderOptions{
		Group:                 def.Spec.Group,
		Kind:                  def.Spec.Names.Kind,
		Schemas:               map[string]*structural.Schema{ver.Name: served},
		PreserveUnknownFields: def.Spec.PreserveUnknownFields,
	})
	for i, r := range tc.Requests {
		if r.Operation != "create" || i >= len(g.Requests) {
			continue
		}
		want := g.Requests[i]
		compared++
		v, err := jsonscan.Decode(r.Object)
		if err != nil {
			t.Fatal(err)
		}
		obj := v.(map[string]any)
		unknown, err := d.Decode(obj)
		if want.RequestError != "" {
			if err == nil || !strings.HasSuffix(want.RequestError, ": "+err.Error()) {
				t.Errorf("request %d: error %v, want the end of %q", i, err, want.RequestError)
			}
			continue
		}
		if err != nil {
			t.Errorf("request %d: %v", i, err)
			continue
		}
		defaulting.Default(obj, served)
		if ver.Subresources != nil && ver.Subresources.Status != nil {
			delete(obj, "status")
		}
		sort.Strings(unknown)
		if len(unknown) == 0 {
			unknown = nil
		}
		if !reflect.DeepEqual(unknown, want.UnknownFields) {
			t.Errorf("request %d: unknown fields\n got %q\nwant %q", i, unknown, want.UnknownFields)
		}
		got := normalize(t, obj)
		exp := normalize(t, want.Object)
		if !reflect.DeepEqual(got, exp) {
			t.Errorf("request %d: object\n got %s\nwant %s", i, jsonString(got), jsonString(exp))
		}
	}
	return compared
}

// normalize drops the fields set after decoding and turns numbers into
// float64, as the goldens compare numbers as JSON numbers.
func normalize(t *testing.T, obj map[string]any) map[string]any {
	b, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if md, ok := out["metadata"].(map[string]any); ok {
		for _, f := range systemFields {
			delete(md, f)
		}
	}
	return out
}

func readYAML(t *testing.T, file string, v any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// The cases are harness, read as the oracle reads them
	// (internal/casefile: YAML 1.2, number literals as written).
	j := data
	if !yamljson.IsJSON(data) {
		var n yaml.Node
		if err := yaml.Unmarshal(data, &n); err != nil || len(n.Content) == 0 {
			t.Fatalf("%s: %v", file, err)
		}
		if j, err = casefile.ToJSON(n.Content[0]); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	if err := json.Unmarshal(j, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

func jsonString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
