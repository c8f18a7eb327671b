package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// fastSeeds are manifests and CRDs of the repository's test data.
func fastSeeds(t testing.TB) [][]byte {
	var out [][]byte
	for _, pattern := range []string{
		"testdata/*/*.yaml", "testdata/*/*.json",
		"../../conformance/testdata/crdcheck/objects/*.yaml",
		"../../conformance/testdata/crdcheck/crds/standard/*.yaml",
	} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range splitDocuments(b) {
				out = append(out, c.data)
			}
		}
	}
	return out
}

// checkFast fails when decodeFast gives a result that differs from the
// library's decoding.
func checkFast(t *testing.T, data []byte) bool {
	fast, ok := decodeFast(data)
	if !ok {
		return false
	}
	full, _, err := decodeFull(chunk{data: data, first: 1})
	if err != nil {
		t.Fatalf("the fast path decodes what the library refuses (%v):\n%s", err, data)
	}
	if !reflect.DeepEqual(fast, full) {
		t.Fatalf("fast path\n%#v\nlibrary\n%#v\ninput:\n%s", fast, full, data)
	}
	return true
}

func TestDecodeFast(t *testing.T) {
	seeds := fastSeeds(t)
	taken := 0
	for _, s := range seeds {
		if checkFast(t, s) {
			taken++
		}
	}
	// the fast path must carry most real manifests, or it is no use
	if taken*2 < len(seeds) {
		t.Errorf("fast path taken for %d of %d documents", taken, len(seeds))
	}
	t.Logf("fast path taken for %d of %d documents", taken, len(seeds))
	cors, err := os.ReadFile("../../conformance/testdata/crdcheck/objects/examples_standard_http-cors_httproute-all-fields-set.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !checkFast(t, cors) {
		t.Errorf("the benchmark's example does not take the fast path")
	}
	for _, in := range []string{
		"a: 1\nb:\n- x\n- y: 2\n  z: [ ]\n",
		"a: 007\n", "a: 1.0\n", "a: yes\n", "a: 'it''s'\n", "a: \"x\\ty\"\n", "a: b # c\n",
		"a:\n  b: |\n    x\n", "a: &x 1\nb: *x\n", "a: 1\na: 2\n", "- a\n- - b\n  - c\n", "a: b\n c\n",
		"'k': v\n", "a: -0\n", "a: 123456789012345678\n", "a: https://x.example:8080/p\n", "a: x: y\n",
	} {
		checkFast(t, []byte(in))
	}
	for _, in := range []string{
		"a: |\n  x\n\n   y\n\nb: 1\n", "a: |-\n  # not a comment\n  x\n", "a: |\n x",
		"a: 'x\n  y'\n", "a: 'x\n  ''y'''\n", "a: 'x\n\n  y'\n", "a: x\n  # c\n",
		"a: .x\n", "a: .inf\n", "a: .NaN\n",
		"a: \"x\n  y\"\n", "a: \"x\\\n  y\"\n", "a: \"x \\\n  \\ y\"\n", "a: \"x\\\\\n  y\"\n", "a: \"x\\\\\\\n  y\"\n",
		"a: \"x\n\n  y\"\n", "a: \"x\n  y\" # c\n", "a: \"x\n  y\"z\n", "a: \"\\ \"\n",
	} {
		checkFast(t, []byte(in))
	}
	// continuation lines of plain scalars that start with indicators
	for _, c := range "-?:,[]{}#&*!|>'\"%@`~=<.0" {
		for _, rest := range []string{"", "x", " x", "- y", ": y"} {
			checkFast(t, []byte("a: b\n  "+string(c)+rest+"\nc: d\n"))
			checkFast(t, []byte("- a: b\n    "+string(c)+rest+"\n"))
		}
	}
}

// FuzzDecodeFast: whatever the fast path decodes, the library decodes the
// same way.
func FuzzDecodeFast(f *testing.F) {
	for _, s := range fastSeeds(f) {
		f.Add(s)
	}
	f.Add([]byte("a:\n- b: 'c'\n  d: -12\n- \"e\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFast(t, data)
	})
}
