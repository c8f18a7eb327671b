package costs

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/readall"
	"github.com/crdschema/crdschema/manifest"
)

// corpusDir finds the corpus of real CRDs of the project's shared folder.
func corpusDir() string {
	for _, d := range []string{os.Getenv("CRDSCHEMA_CORPUS"), "../../shared/corpus/crds", "/work/shared/corpus/crds"} {
		if d != "" {
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				return d
			}
		}
	}
	return ""
}

// stripBounds removes maxItems, maxProperties and maxLength from the
// subtree at props (a path of property names) of every version's schema of
// the CRD given as JSON. It reports whether a bound was removed.
func stripBounds(doc map[string]any, props []string) bool {
	spec, _ := doc["spec"].(map[string]any)
	versions, _ := spec["versions"].([]any)
	removed := false
	for _, v := range versions {
		vm, _ := v.(map[string]any)
		sch, _ := vm["schema"].(map[string]any)
		node, _ := sch["openAPIV3Schema"].(map[string]any)
		for _, p := range props {
			ps, _ := node["properties"].(map[string]any)
			node, _ = ps[p].(map[string]any)
		}
		if node != nil && strip(node) {
			removed = true
		}
	}
	return removed
}

func strip(v any) bool {
	removed := false
	switch t := v.(type) {
	case map[string]any:
		for _, k := range []string{"maxItems", "maxProperties", "maxLength"} {
			if _, ok := t[k]; ok {
				delete(t, k)
				removed = true
			}
		}
		for k, e := range t {
			if k == "x-kubernetes-validations" || k == "default" || k == "example" || k == "enum" {
				continue
			}
			if strip(e) {
				removed = true
			}
		}
	case []any:
		for _, e := range t {
			if strip(e) {
				removed = true
			}
		}
	}
	return removed
}

// subtrees returns the property paths of depth 1 and 2 of a CRD's first
// schema.
func subtrees(def *crdschema.CustomResourceDefinition) [][]string {
	if len(def.Spec.Versions) == 0 || def.Spec.Versions[0].Schema == nil || def.Spec.Versions[0].Schema.OpenAPIV3Schema == nil {
		return nil
	}
	root := def.Spec.Versions[0].Schema.OpenAPIV3Schema
	var out [][]string
	for _, a := range sortedKeys(root.Properties) {
		out = append(out, []string{a})
		p := root.Properties[a]
		for _, b := range sortedKeys(p.Properties) {
			out = append(out, []string{a, b})
		}
	}
	return out
}

func sortedKeys(m map[string]crdschema.JSONSchemaProps) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestCorpus removes the bounds of the CRDs of the corpus one subtree at a
// time; where that makes the API server refuse the rules' costs, the fixes
// Explain suggests must each make the CRD pass, be the largest values that
// do, and be suggested at no less than half of them.
func TestCorpus(t *testing.T) {
	dir := corpusDir()
	if dir == "" {
		t.Skip("the corpus of real CRDs (shared/corpus/crds beside the repository, or $CRDSCHEMA_CORPUS) is not there")
	}
	if testing.Short() {
		t.Skip("-short: the corpus test runs the CRD validation thousands of times")
	}
	if raceEnabled {
		t.Skip("-race: the corpus test would take an hour with the race detector; it runs without it")
	}
	// All of it takes tens of minutes on two cores: by default, the first
	// stripped variant with cost errors of each project.
	full := os.Getenv("COSTS_CORPUS") == "full"
	if !full {
		t.Log("checking the first stripped CRD with cost errors of each project; COSTS_CORPUS=full checks every one")
	}
	doneProject := map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.yaml"))
	var crds, cases, fixes, noFix int
	for _, f := range files {
		if !full && doneProject[filepath.Base(filepath.Dir(f))] {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		defs, err := readall.CRDs(data)
		if err != nil || len(defs) != 1 || !strings.Contains(string(data), "x-kubernetes-validations") {
			continue
		}
		def := defs[0]
		if hasCostErrors(context.Background(), def, defaultRelease) {
			continue
		}
		crds++
		j, err := json.Marshal(def)
		if err != nil {
			t.Fatal(err)
		}
		for _, sub := range subtrees(def) {
			var doc map[string]any
			if err := json.Unmarshal(j, &doc); err != nil {
				t.Fatal(err)
			}
			if !stripBounds(doc, sub) {
				continue
			}
			b, _ := json.Marshal(doc)
			stripped, _, err := manifest.UnmarshalCRD(b)
			if err != nil {
				t.Fatal(err)
			}
			if !hasCostErrors(context.Background(), stripped, defaultRelease) {
				continue
			}
			project := filepath.Base(filepath.Dir(f))
			if !full && doneProject[project] {
				continue
			}
			doneProject[project] = true
			cases++
			name := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f) + " without bounds under " + strings.Join(sub, ".")
			t.Run(name, func(t *testing.T) {
				r, err := Explain(context.Background(), stripped)
				if err != nil {
					t.Fatal(err)
				}
				if len(r.Rules) == 0 {
					t.Fatal("no rule reported over budget")
				}
				fixes += len(r.Fixes)
				if len(r.Fewest) == 0 {
					noFix++
					t.Logf("no combination of bounds on the rules' paths fixes it: %+v", r.Rules[0])
				}
				checkFixes(t, stripped, r)
			})
		}
	}
	t.Logf("%d CRDs with rules, %d stripped variants with cost errors, %d fixes checked, %d without a fix", crds, cases, fixes, noFix)
	if cases == 0 {
		t.Error("no stripped CRD had cost errors: the test checks nothing")
	}
}
