package manifest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/yamljson"
	sigsyaml "sigs.k8s.io/yaml"
)

// sameAsSigsYAML fails unless the YAML document doc reads as
// sigs.k8s.io/yaml reads it: yamljson.ToJSON gives YAMLToJSON's bytes (or
// both refuse it), and UnmarshalObject the value the API server decodes
// from them. It reports whether the document was read.
func sameAsSigsYAML(t *testing.T, name string, doc []byte) bool {
	t.Helper()
	want, wantErr := sigsyaml.YAMLToJSON(doc)
	got, err := yamljson.ToJSON(doc)
	if err != nil && strings.Contains(err.Error(), "are both") {
		return false // keys that sigs.k8s.io/yaml merges in Go's map order
	}
	if (err == nil) != (wantErr == nil) {
		t.Errorf("%s: ToJSON error %v, sigs.k8s.io/yaml's %v\n%.500s", name, err, wantErr, doc)
		return false
	}
	if err != nil {
		return false
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: ToJSON\n%.500s\nsigs.k8s.io/yaml\n%.500s", name, got, want)
		return false
	}
	v, err := jsonscan.Decode(want)
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return false
	}
	if m, ok := v.(map[string]any); ok && !yamljson.IsJSON(doc) && len(yamljson.SplitAll(doc)) == 1 {
		obj, err := UnmarshalObject(doc)
		if err != nil || !reflect.DeepEqual(obj, m) {
			t.Errorf("%s: UnmarshalObject %v (%v), want the value of sigs.k8s.io/yaml's JSON", name, obj, err)
		}
	}
	return true
}

// yamlFiles returns the YAML files below dir (gzipped ones unpacked),
// by path.
func yamlFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		var data []byte
		switch {
		case strings.HasSuffix(p, ".yaml"), strings.HasSuffix(p, ".yml"):
			data, err = os.ReadFile(p)
		case strings.HasSuffix(p, ".yaml.gz"):
			data, err = readGzip(p)
		default:
			return nil
		}
		out[p] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSameAsSigsYAML: every YAML document of the repository's test data
// (the CRD corpus of bench/, the conformance cases, crdcheck's test
// data and examples) and of the shared corpus (../../shared/corpus, or
// $CRDSCHEMA_CORPUS) converts to the very bytes of
// sigs.k8s.io/yaml.YAMLToJSON, and decodes to their value.
func TestSameAsSigsYAML(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the differential test reads every YAML file of the repository and the shared corpus")
	}
	dirs := []string{"../bench/testdata/crds", "../conformance/testdata", "../cmd/crdcheck/testdata", "../crd/testdata", "../examples"}
	corpus := os.Getenv("CRDSCHEMA_CORPUS")
	if corpus == "" {
		corpus = "../../shared/corpus"
	}
	if _, err := os.Stat(corpus); err == nil {
		dirs = append(dirs, corpus)
	} else {
		t.Logf("no shared corpus at %s (set CRDSCHEMA_CORPUS): %v", corpus, err)
	}
	for _, dir := range dirs {
		files := yamlFiles(t, dir)
		docs, read := 0, 0
		for p, data := range files {
			for _, c := range yamljson.SplitAll(data) {
				if yamljson.IsJSON(c.Data) {
					continue
				}
				docs++
				if sameAsSigsYAML(t, fmt.Sprintf("%s:%d", p, c.Line), c.Data) {
					read++
				}
			}
		}
		t.Logf("%s: %d files, %d YAML documents, %d read as sigs.k8s.io/yaml reads them (the others refused by both)", dir, len(files), docs, read)
		if len(files) > 0 && read == 0 {
			t.Errorf("%s: no document read", dir)
		}
	}
}

// yamlSpellings are scalars in the spellings that YAML 1.1 and 1.2, or
// YAML and JSON, read differently.
var yamlSpellings = []string{
	"yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "y", "Y", "n", "N",
	"true", "True", "TRUE", "false", "False", "FALSE", "tRUE",
	"null", "Null", "NULL", "~", "", "nULL",
	"1", "-1", "+1", "0", "-0", "+0", "007", "0o17", "0x1F", "0X1f", "0b101", "1_000", "0x_1F", "012345678",
	"1.0", "-1.0", "1.", "1.5", ".5", "-.5", "+.5", "1e3", "1E3", "1e+3", "1.0e3", "1e-3", "6.02e23", "1e400", "-1e400", "1e-400",
	"1.7976931348623157e308", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551615",
	"18446744073709551616", "123456789012345678901234567890", "1_000.5",
	".inf", ".Inf", ".INF", "-.inf", "+.inf", ".nan", ".NaN", ".NAN", "inf", "nan",
	"2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2002-12-14T21:59:43Z", "12:30:45", "1:20",
	"'yes'", "\"on\"", "'1.0'", "\"0x1F\"", "!!str yes", "!!int 1", "!!float 1", "!!bool yes", "!!null ''", "!!binary aGVsbG8=",
	"<<", "=", "-", "a b", "a: b", "[a, b]", "{a: 1}", "[]", "{}", "\"\\u00e9\"", "'it''s'", "é", "<b>&</b>",
}

// TestSameAsSigsYAMLSpellings: scalars in every spelling, as values, keys,
// list items and in multi-line strings, read as sigs.k8s.io/yaml reads
// them.
func TestSameAsSigsYAMLSpellings(t *testing.T) {
	var docs []string
	for _, s := range yamlSpellings {
		docs = append(docs,
			"v: "+s+"\n",
			s+": v\n",
			"l:\n- "+s+"\n- x\n",
			"f: ["+s+"]\n",
			"m: {"+s+": 1}\n",
			"k:\n  "+s+": 1\n  x: 2\n",
			"s: |\n  "+s+"\n  more\n",
			"s: >-\n  "+s+"\n  folded\n",
			"p: "+s+" and\n  more "+s+"\n",
		)
	}
	docs = append(docs,
		"a: &x {b: 1}\nc: *x\n<<: *x\n",
		"base: &b {x: 1, y: 2}\nd:\n  <<: *b\n  y: 3\n",
		"d:\n  <<: [{a: 1}, {a: 2, b: 2}]\n  c: 3\n",
		"a: 1\na: 2\n", "a: {b: 1}\na: {c: 2}\n",
		"1: a\n2.5: b\ntrue: c\n~: d\n",
		"? [a]\n: b\n", "? {a: 1}\n: b\n",
		"a: \"tab\\there\"\n", "a: 'x\n\n  y'\n", "a: |+\n  x\n\n", "a: |2\n   x\n",
		"- - - a\n", "a: !!set {x, y}\n", "a: !!omap [{x: 1}]\n", "a: !custom x\n",
		"a: 0777\nb: 0o777\nc: 08\n",
	)
	for _, d := range docs {
		sameAsSigsYAML(t, fmt.Sprintf("%q", d), []byte(d))
	}
}

// FuzzSameAsSigsYAML: any document reads as sigs.k8s.io/yaml reads it.
func FuzzSameAsSigsYAML(f *testing.F) {
	for _, s := range yamlSpellings {
		f.Add([]byte("v: " + s + "\n" + s + ": [" + s + "]\n"))
	}
	for _, s := range yamlSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, c := range yamljson.SplitAll(data) {
			if !yamljson.IsJSON(c.Data) {
				sameAsSigsYAML(t, "input", c.Data)
			}
		}
	})
}
