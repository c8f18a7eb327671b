package celparse

import (
	"encoding/json"
	"errors"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

var update = flag.Bool("update", false, "extract testdata/rules.json anew from the conformance cases, the CRD corpus and crdtest's suites")

// ruleSources are where TestExtractRules finds rules: the conformance
// cases, crdtest's openshift-api suites (both in this repository) and the
// shared corpus of real CRDs.
var ruleSources = []string{"../../conformance/testdata/cases", "../../crdtest/testdata", "../../../shared/corpus"} // the shared corpus beside the repository

// TestExtractRules extracts, with -update, every rule and
// messageExpression of an x-kubernetes-validations list in the YAML and
// JSON files of ruleSources into testdata/rules.json, deduplicated and
// sorted, for the differential tests.
func TestExtractRules(t *testing.T) {
	if !*update {
		t.Skip("testdata/rules.json is extracted with -update")
	}
	set := map[string]bool{}
	for _, root := range ruleSources {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml") || strings.HasSuffix(path, ".json")) {
				return nil
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			dec := yaml.NewDecoder(f)
			for {
				var v any
				if err := dec.Decode(&v); err != nil {
					if !errors.Is(err, io.EOF) {
						t.Logf("%s: %v (skipped)", path, err)
					}
					return nil
				}
				collect(v, set)
			}
		})
		if err != nil {
			t.Fatalf("walking %s: %v", root, err)
		}
	}
	texts := make([]string, 0, len(set))
	for s := range set {
		texts = append(texts, s)
	}
	sort.Strings(texts)
	b, err := json.MarshalIndent(texts, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("testdata/rules.json", append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d distinct texts", len(texts))
}

// collect adds the rules and message expressions of v's validation lists
// to set.
func collect(v any, set map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k == "x-kubernetes-validations" {
				if list, ok := x.([]any); ok {
					for _, r := range list {
						if m, ok := r.(map[string]any); ok {
							for _, f := range []string{"rule", "messageExpression"} {
								if s, ok := m[f].(string); ok {
									set[s] = true
								}
							}
						}
					}
				}
			}
			collect(x, set)
		}
	case []any:
		for _, x := range v {
			collect(x, set)
		}
	}
}
