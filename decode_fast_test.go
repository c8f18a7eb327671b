package crdschema

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/crdschema/crdschema/internal/casefile"
	"github.com/crdschema/crdschema/internal/yamljson"
	"github.com/google/go-cmp/cmp"
	yaml "go.yaml.in/yaml/v3"
)

// The one-pass decoding of CRDs (crdFromJSONFast) is checked against the
// generic one it replaces (crdFromJSONGeneric, kept as the reference and
// the fallback): where the fast path takes a document, the reference must
// decode it without error into the same CRD with the same unknown
// fields; where the reference gives an error, the fast path must give up
// (so that UnmarshalCRD's errors are the reference's, by construction).

// sameCRD reports whether two decoded CRDs are the same: deeply equal
// (which tells int64 from float64 in free-form values) and with the same
// JSON encoding (which tells -0 from 0, where == does not).
func sameCRD(a, b *CustomResourceDefinition) bool {
	if !reflect.DeepEqual(a, b) {
		return false
	}
	ja, erra := json.Marshal(a)
	jb, errb := json.Marshal(b)
	return erra == nil && errb == nil && bytes.Equal(ja, jb)
}

// crdDiff describes how two CRDs that are not the same differ. (It is
// not the test of sameness because go-cmp takes time exponential in the
// depth of nested lists.)
func crdDiff(want, got *CustomResourceDefinition) string {
	exactFloats := cmp.Comparer(func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b)
	})
	return cmp.Diff(want, got, exactFloats)
}

// checkFastDecoding compares the two decodings of the JSON CRD document j
// and reports whether the fast path took it.
func checkFastDecoding(t *testing.T, j []byte) bool {
	t.Helper()
	before := bytes.Clone(j)
	got, gotUnknown, ok := crdFromJSONFast(j)
	if !bytes.Equal(j, before) {
		t.Fatalf("crdFromJSONFast modified its input %q", before)
	}
	want, wantUnknown, err := crdFromJSONGeneric(j)
	if !ok {
		// UnmarshalCRD then is the reference; its error texts are those
		// of the reference (which, where one schema object holds several
		// errors, picks one in map order).
		u, uu, uerr := crdFromJSON(j)
		if (uerr == nil) != (err == nil) {
			t.Errorf("%.300s: crdFromJSON error %v, reference %v", j, uerr, err)
		}
		if err == nil {
			if !sameCRD(want, u) {
				t.Errorf("%.300s: crdFromJSON differs from the reference (-want +got):\n%s", j, crdDiff(want, u))
			}
			if !slices.Equal(wantUnknown, uu) {
				t.Errorf("%.300s: crdFromJSON unknown fields %q, reference %q", j, uu, wantUnknown)
			}
		}
		return false
	}
	if err != nil {
		t.Errorf("%.300s: the fast path decodes it, the reference fails: %v", j, err)
		return true
	}
	if !sameCRD(want, got) {
		t.Errorf("%.300s: decoded CRD differs from the reference (-want +got):\n%s", j, crdDiff(want, got))
	}
	if !slices.Equal(wantUnknown, gotUnknown) {
		t.Errorf("%.300s: unknown fields %q, reference %q", j, gotUnknown, wantUnknown)
	}
	return true
}

// TestFastDecodingCorpus checks every CRD of bench/testdata/crds: the fast
// path must take each (it is there for them) and agree with the reference.
func TestFastDecodingCorpus(t *testing.T) {
	n := 0
	for _, p := range corpusProjects(t) {
		for _, body := range p.bodies {
			n++
			if !checkFastDecoding(t, body) {
				t.Errorf("%s: the fast path gave up on a CRD of the corpus: %.200s", p.name, body)
			}
		}
	}
	if n < 200 {
		t.Errorf("only %d CRDs in the corpus", n)
	}
}

// conformanceCRDs returns the crd and oldCRD documents of every
// conformance case, as the conformance suite sends them.
func conformanceCRDs(tb testing.TB) map[string][]byte {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("conformance", "testdata", "cases", "*", "*.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	out := map[string][]byte{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			tb.Fatalf("%s: %v", file, err)
		}
		if len(doc.Content) != 1 || len(doc.Content[0].Content)%2 != 0 {
			tb.Fatalf("%s: not one mapping", file)
		}
		m := doc.Content[0].Content
		for i := 0; i < len(m); i += 2 {
			if k := m[i].Value; k == "crd" || k == "oldCRD" {
				j, err := casefile.ToJSON(m[i+1])
				if err != nil {
					tb.Fatalf("%s: %s: %v", file, k, err)
				}
				out[file+" "+k] = j
			}
		}
	}
	return out
}

// TestFastDecodingConformance checks the CRDs of the conformance cases.
// Some of them are refused by design (their errors then come from the
// reference); most must take the fast path.
func TestFastDecodingConformance(t *testing.T) {
	crds := conformanceCRDs(t)
	fast := 0
	for _, j := range crds {
		if checkFastDecoding(t, j) {
			fast++
		}
	}
	t.Logf("%d of %d conformance CRDs take the fast path", fast, len(crds))
	if len(crds) < 500 || fast < len(crds)*9/10 {
		t.Errorf("%d of %d conformance CRDs take the fast path, want at least 90%% of at least 500", fast, len(crds))
	}
}

// TestFastDecodingMutations checks documents derived from CRDs by random
// changes: repeated keys, values of every JSON type for every field,
// nulls, number spellings, unknown fields at every level, escapes, deep
// nesting (see mutateCRD).
func TestFastDecodingMutations(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	bases := mutationBases(t)
	fast := 0
	for i := 0; i < n; i++ {
		j := mutateCRD(bases, uint64(i))
		if checkFastDecoding(t, j) {
			fast++
		}
	}
	t.Logf("%d of %d mutants take the fast path", fast, n)
	if fast == 0 || fast == n {
		t.Errorf("%d of %d mutants take the fast path: the mutations do not reach both paths", fast, n)
	}
}

// TestFastDecodingEveryValue puts every value of mutationValues in place
// of every value of fullCRD and of the crontab CRD, one at a time.
func TestFastDecodingEveryValue(t *testing.T) {
	crontab, err := yamljson.ToJSON([]byte(crontabYAML))
	if err != nil {
		t.Fatal(err)
	}
	fast, n := 0, 0
	for _, base := range [][]byte{[]byte(fullCRD), crontab} {
		doc, err := parseJNode(base)
		if err != nil {
			t.Fatal(err)
		}
		if !checkFastDecoding(t, base) {
			t.Errorf("the fast path gave up on %.100s", base)
		}
		for _, c := range doc.containers(nil) {
			for i := range c.vals {
				old := c.vals[i]
				for _, v := range mutationValues {
					c.vals[i] = &jnode{raw: v}
					var b bytes.Buffer
					doc.write(&b)
					n++
					if checkFastDecoding(t, b.Bytes()) {
						fast++
					}
				}
				c.vals[i] = old
			}
		}
	}
	t.Logf("%d of %d documents take the fast path", fast, n)
}

// TestFastDecodingCases checks hand-written documents at the edges.
func TestFastDecodingCases(t *testing.T) {
	for _, in := range fastDecodingCases {
		checkFastDecoding(t, []byte(in))
	}
}

// FuzzFastDecoding checks the two decodings on random documents.
func FuzzFastDecoding(f *testing.F) {
	for _, in := range fastDecodingCases {
		f.Add([]byte(in))
	}
	bases := mutationBases(f)
	for i := 0; i < 20; i++ {
		f.Add(mutateCRD(bases, uint64(i)))
	}
	f.Fuzz(func(t *testing.T, j []byte) {
		checkFastDecoding(t, j)
	})
}
