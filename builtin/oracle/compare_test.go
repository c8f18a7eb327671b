package oracle

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/crdschema/crdschema/internal/readall"
	"github.com/crdschema/crdschema/manifest"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/builtin"
	"k8s.io/klog/v2"
)

// objectFiles are the YAML files of built-in objects the comparison runs
// on: the rendered installs of testdata/objects, the project's corpus,
// and the manifests of Kubernetes' own tests and add-ons in the
// k8s.io/kubernetes module.
func objectFiles(t *testing.T) []string {
	files, _ := filepath.Glob("testdata/objects/*/*.yaml")
	// The project's corpus (CRDSCHEMA_CORPUS, as the bench reads it):
	// its built-in objects, when it is there.
	corpus := os.Getenv("CRDSCHEMA_CORPUS")
	if corpus == "" {
		corpus = "/work/shared/corpus"
	}
	if _, err := os.Stat(corpus); err == nil {
		filepath.Walk(corpus, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json")) {
				files = append(files, p)
			}
			return nil
		})
	} else {
		t.Logf("corpus left out: %v", err)
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/kubernetes").Output()
	if err != nil {
		t.Logf("k8s.io/kubernetes manifests left out: %v", err)
		return files
	}
	dir := strings.TrimSpace(string(out))
	for _, sub := range []string{"test/e2e/testing-manifests", "test/fixtures", "cluster/addons", "hack/testdata"} {
		filepath.Walk(filepath.Join(dir, sub), func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json")) {
				files = append(files, p)
			}
			return nil
		})
	}
	return files
}

type sample struct {
	name string
	obj  map[string]any
}

// builtinObjects reads every object of a kind both the oracle and the
// release serve; List kinds are flattened into their items, as kubectl
// does.
func builtinObjects(t *testing.T, api *builtin.API) []sample {
	var out []sample
	for _, f := range objectFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil || bytes.Contains(data, []byte("{{")) {
			continue
		}
		objs, err := readall.Objects(data)
		if err != nil {
			continue
		}
		var flat []map[string]any
		for _, o := range objs {
			if k, _ := o["kind"].(string); strings.HasSuffix(k, "List") {
				for _, it := range asSlice(o["items"]) {
					if m, ok := it.(map[string]any); ok {
						flat = append(flat, m)
					}
				}
				continue
			}
			flat = append(flat, o)
		}
		for i, o := range flat {
			av, _ := o["apiVersion"].(string)
			k, _ := o["kind"].(string)
			if _, ok := api.Lookup(av, k); !ok {
				continue
			}
			g, _, _ := strings.Cut(av, "/")
			if !strings.Contains(av, "/") {
				g = ""
			}
			if strategies[schemaGK(g, k)] == nil {
				continue
			}
			rel := f
			if i := strings.Index(f, "k8s.io/kubernetes@"); i >= 0 {
				rel = f[i:]
			}
			out = append(out, sample{fmt.Sprintf("%s#%d", rel, i), o})
		}
	}
	return out
}

func asSlice(v any) []any { l, _ := v.([]any); return l }

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// verdict is what crdschema's builtin package says of one request.
type verdict struct {
	refused bool
	layer   string
	text    string
}

func check(api *builtin.API, obj, old map[string]any) verdict {
	var r *builtin.Result
	var err error
	if old == nil {
		r, err = api.Create(obj)
	} else {
		r, err = api.Update(obj, old)
	}
	if err != nil {
		return verdict{}
	}
	switch {
	case r.DecodeError != nil:
		return verdict{true, "decode", r.DecodeError.Error()}
	case len(r.Errors) > 0:
		return verdict{true, r.Errors[0].Layer, r.Err().Error()}
	}
	return verdict{}
}

// checkBody is check for a request body as written (CreateJSON,
// UpdateJSON).
func checkBody(api *builtin.API, body []byte, old map[string]any) verdict {
	var r *builtin.Result
	var err error
	if old == nil {
		r, err = api.CreateJSON(body)
	} else {
		r, err = api.UpdateJSON(body, old)
	}
	if err != nil {
		return verdict{}
	}
	switch {
	case r.DecodeError != nil:
		return verdict{true, "decode", r.DecodeError.Error()}
	case len(r.Errors) > 0:
		return verdict{true, r.Errors[0].Layer, r.Err().Error()}
	}
	return verdict{}
}

// duplicated returns bodies with a key given twice: each top-level field
// (but apiVersion and kind) written again before the body's own, with
// the same value and with the value of another JSON type, and
// metadata.name given twice.
func duplicated(obj map[string]any) [][]byte {
	var out [][]byte
	body := mustJSON(obj)
	for _, k := range sortedKeys(obj) {
		if k == "apiVersion" || k == "kind" {
			continue
		}
		for _, v := range []any{obj[k], "x", int64(1)} {
			pre := append(append([]byte("{"), mustJSON(k)...), ':')
			pre = append(append(pre, mustJSON(v)...), ',')
			out = append(out, append(pre, body[1:]...))
		}
	}
	if m, ok := obj["metadata"].(map[string]any); ok {
		c := deepCopy(obj).(map[string]any)
		delete(c, "metadata")
		rest := mustJSON(c)
		meta := mustJSON(m)
		for _, name := range []string{"Bad_Name", "dup"} {
			dm := append([]byte(`{"name":`+string(mustJSON(name))+`,`), meta[1:]...)
			if len(meta) == 2 {
				dm = []byte(`{"name":` + string(mustJSON(name)) + `}`)
			}
			out = append(out, append(append([]byte(`{"metadata":`), dm...), append([]byte(","), rest[1:]...)...))
		}
	}
	return out
}

func oracleText(r Result) string {
	switch {
	case r.DecodeError != "":
		return r.DecodeError
	case len(r.Errors) > 0:
		var parts []string
		for _, e := range r.Errors {
			parts = append(parts, e.Field+": "+e.Text)
		}
		return strings.Join(parts, "; ")
	}
	return r.Other
}

// tally counts the comparison of one kind of request.
type tally struct {
	requests, apiRefused, found int
	byLayer                     map[string]int
	exact                       int // refusals whose decoding error text is the API server's
	falseRefusals               []string
	categories                  map[string]int // false refusals by kind, mutation and layer
}

func (tl *tally) add(name, category string, api Result, got verdict) {
	tl.requests++
	if tl.byLayer == nil {
		tl.byLayer = map[string]int{}
	}
	if api.Refused() {
		tl.apiRefused++
		if got.refused {
			tl.found++
			tl.byLayer[got.layer]++
			if got.layer == "decode" && got.text == api.DecodeError {
				tl.exact++
			}
		}
		return
	}
	if got.refused {
		tl.falseRefusals = append(tl.falseRefusals, fmt.Sprintf("%s: crdschema refuses (%s) %s", name, got.layer, got.text))
		if tl.categories == nil {
			tl.categories = map[string]int{}
		}
		tl.categories[category+" ("+got.layer+")"]++
	}
}

func (tl *tally) report(t *testing.T, what string) {
	share := 0.0
	if tl.apiRefused > 0 {
		share = 100 * float64(tl.found) / float64(tl.apiRefused)
	}
	var found []string
	for _, l := range layers {
		found = append(found, fmt.Sprintf("%s %d", l, tl.byLayer[l]))
	}
	fmt.Printf("builtin vs API server %s, %s: %d requests, API server refuses %d, crdschema finds %d (%.1f%%; %s; decoding texts identical %d), false refusals %d\n",
		Release, what, tl.requests, tl.apiRefused, tl.found, share, strings.Join(found, ", "), tl.exact, len(tl.falseRefusals))
	var cats []string
	for c, n := range tl.categories {
		cats = append(cats, fmt.Sprintf("%5d %s", n, c))
	}
	sort.Strings(cats)
	for _, c := range cats {
		t.Errorf("false refusals: %s", c)
	}
	sort.Strings(tl.falseRefusals)
	for i, f := range tl.falseRefusals {
		if i == 10 && os.Getenv("ALL") == "" {
			t.Errorf("... and %d more", len(tl.falseRefusals)-10)
			break
		}
		t.Errorf("false refusal: %s", f)
	}
}

func TestMain(m *testing.M) {
	// The API server logs differences between hand-written and
	// declarative validation; they are not the comparison's business.
	fs := flag.NewFlagSet("klog", flag.ContinueOnError)
	klog.InitFlags(fs)
	fs.Set("logtostderr", "false")
	fs.Set("stderrthreshold", "FATAL")
	klog.SetOutput(io.Discard)
	os.Exit(m.Run())
}

func TestCompare(t *testing.T) {
	api, err := builtin.New(builtin.WithKubernetesVersion(releaseVersion))
	if err != nil {
		t.Fatal(err)
	}
	strictAPI, _ := builtin.New(builtin.WithKubernetesVersion(releaseVersion), builtin.WithStrictFieldValidation())
	samples := builtinObjects(t, api)
	if len(samples) < 100 {
		t.Fatalf("only %d built-in objects found", len(samples))
	}
	kinds := map[string]int{}
	for _, s := range samples {
		kinds[s.obj["kind"].(string)]++
	}
	fmt.Printf("builtin vs API server %s: %d objects of %d kinds\n", Release, len(samples), len(kinds))

	var create, strict, mutCreate, mutStrict, mutUpdate, dupCreate, dupStrict tally
	for _, s := range samples {
		body := mustJSON(s.obj)
		r := Create(body)
		kind := s.obj["kind"].(string)
		create.add(s.name, kind, r, check(api, s.obj, nil))
		strict.add(s.name, kind, strictResult(r), check(strictAPI, s.obj, nil))
		if r.Refused() {
			continue // mutations of objects the API server refuses say little
		}
		for i, db := range duplicated(s.obj) {
			name := fmt.Sprintf("%s duplicate %d", s.name, i)
			dr := Create(db)
			dupCreate.add(name, kind+" duplicate", dr, checkBody(api, db, nil))
			dupStrict.add(name, kind+" duplicate", strictResult(dr), checkBody(strictAPI, db, nil))
		}
		for _, m := range mutations(s.obj) {
			name := s.name + " " + m.what
			mb := mustJSON(m.obj)
			mobj := normalize(m.obj) // numbers as the library reads them
			mr := Create(mb)
			cat := kind + " " + m.kind
			mutCreate.add(name, cat, mr, check(api, mobj, nil))
			mutStrict.add(name, cat, strictResult(mr), check(strictAPI, mobj, nil))
			if m.update {
				ur := Update(mb, body)
				mutUpdate.add(name, cat, ur, check(api, mobj, s.obj))
			}
		}
	}
	create.report(t, "create, corpus objects")
	strict.report(t, "create strict, corpus objects")
	mutCreate.report(t, "create, mutations")
	mutStrict.report(t, "create strict, mutations")
	mutUpdate.report(t, "update, mutations")
	dupCreate.report(t, "create, bodies with duplicate fields")
	dupStrict.report(t, "create strict, bodies with duplicate fields")
}

// strictResult is the API server's answer under fieldValidation=Strict.
func strictResult(r Result) Result {
	if r.DecodeError == "" && len(r.Strict) > 0 {
		r.DecodeError = "strict decoding error: " + strings.Join(r.Strict, ", ")
		r.Errors = nil
	}
	return r
}

// normalize gives a JSON-decoded value the library's number model: int64
// for integers, float64 otherwise.
func normalize(v map[string]any) map[string]any {
	obj, err := manifest.UnmarshalObject(mustJSON(v))
	if err != nil {
		panic(err)
	}
	return obj
}

// TestCorpusRefusals prints why the API server refuses objects of the
// corpus as they are, to tell fixtures meant to fail from oracle
// problems.
func TestCorpusRefusals(t *testing.T) {
	api, _ := builtin.New(builtin.WithKubernetesVersion(releaseVersion))
	for _, s := range builtinObjects(t, api) {
		r := Create(mustJSON(s.obj))
		got := check(api, s.obj, nil)
		if r.Refused() || got.refused {
			t.Logf("%s: API server: %s\n\tcrdschema: %s", s.name, oracleText(r), got.text)
		}
	}
}

// TestDecodeTexts lists decoding errors whose text differs from the API
// server's (set TEXTS=1).
func TestDecodeTexts(t *testing.T) {
	if os.Getenv("TEXTS") == "" {
		t.Skip("set TEXTS=1 to list decoding texts that differ")
	}
	api, _ := builtin.New(builtin.WithKubernetesVersion(releaseVersion))
	seen := map[string]bool{}
	for _, s := range builtinObjects(t, api) {
		for _, m := range mutations(s.obj) {
			r := Create(mustJSON(m.obj))
			got := check(api, normalize(m.obj), nil)
			if r.DecodeError != "" && got.layer == "decode" && got.text != r.DecodeError && !seen[m.kind] {
				seen[m.kind] = true
				t.Logf("%s\n\tAPI server: %s\n\tcrdschema:  %s", m.what, r.DecodeError, got.text)
			}
		}
	}
}

// releaseVersion is Release for package builtin.
var releaseVersion = func() crdschema.KubernetesVersion {
	v, err := crdschema.ParseKubernetesVersion(Release)
	if err != nil {
		panic(err)
	}
	return v
}()

// layers are the layers of package builtin's checks, in its order.
var layers = []string{"decode", "schema", "declarative", "metadata"}
