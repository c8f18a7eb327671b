package crdtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/google/go-cmp/cmp"
)

func TestRunCronTab(t *testing.T) {
	Run(t, "testdata/crontab")
}

// writeSuite writes the CronTab CRD and a suite into a new directory and
// returns the suite's path.
func writeSuite(t *testing.T, suite string) string {
	t.Helper()
	dir := t.TempDir()
	crd, err := os.ReadFile("testdata/crontab/crontab-crd.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "crd.yaml"), crd, 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "x.testsuite.yaml")
	if err := os.WriteFile(p, []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBadInput(t *testing.T) {
	const head = "name: x\ncrdName: crontabs.stable.example.com\n"
	for _, tc := range []struct {
		name, suite string
		want        []string // substrings of the report
		inputError  bool     // the suite cannot be read: an error, not a failed case
	}{
		{"not YAML", "name: [x\n", []string{"x.testsuite.yaml: not a YAML test suite"}, true},
		{"not a suite", "- a\n- b\n", []string{"x.testsuite.yaml: not a test suite"}, true},
		{"no crdName", "name: x\ntests: {}\n", []string{"x.testsuite.yaml: test suite has no crdName"}, true},
		{"unknown CRD", "name: x\ncrdName: nope.example.com\n", []string{`x.testsuite.yaml: no CRD named "nope.example.com" in`}, true},
		{"unknown version", head + "version: v9\n", []string{`the CRD has no version "v9"`}, true},
		{"case without name", head + "tests:\n  onCreate:\n  - initial: 'a: 1'\n", []string{"tests.onCreate[0] has no name"}, true},
		{"bad patch", head + "tests:\n  onUpdate:\n  - name: p\n    initialCRDPatches: [{op: frob, path: /spec}]\n", []string{`tests.onUpdate[0] (p): initialCRDPatches[0]: unknown op "frob"`}, true},
		{"initial not YAML", head + "tests:\n  onCreate:\n  - name: c1\n    initial: '{a: [}'\n", []string{`onCreate "c1"`, "initial is not a YAML object"}, false},
		{"initial not an object", head + "tests:\n  onCreate:\n  - name: c1\n    initial: '- a'\n", []string{`onCreate "c1"`, "initial is not a YAML object"}, false},
		{"kind not served", head + "tests:\n  onCreate:\n  - name: c1\n    initial: 'apiVersion: stable.example.com/v2\n\n      kind: CronTab'\n", []string{`onCreate "c1"`, `initial: no matches for kind "CronTab" in version "stable.example.com/v2" (CRD crontabs.stable.example.com serves kind "CronTab" in stable.example.com/v1)`}, false},
		{"updated not YAML", head + "tests:\n  onUpdate:\n  - name: u1\n    initial: 'apiVersion: stable.example.com/v1\n\n      kind: CronTab'\n    updated: '{'\n", []string{`onUpdate "u1"`, "updated is not a YAML object"}, false},
		{"patch path missing", head + "tests:\n  onUpdate:\n  - name: u1\n    initialCRDPatches: [{op: remove, path: /spec/nope}]\n    initial: 'apiVersion: stable.example.com/v1\n\n      kind: CronTab'\n", []string{`onUpdate "u1"`, "initialCRDPatches: patch 0 (remove /spec/nope): no such member: /spec/nope"}, false},
		{"expected error missing", head + "tests:\n  onCreate:\n  - name: c1\n    initial: 'apiVersion: stable.example.com/v1\n\n      kind: CronTab'\n    expectedError: boom\n", []string{`onCreate "c1"`, "create succeeded, want an error containing", "boom"}, false},
		{"unknown field", head + "featureGate: [X]\n", []string{`unknown field "featureGate" (ignored)`, "0 passed, 0 failed"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeSuite(t, tc.suite)
			var out bytes.Buffer
			failed, err := RunFiles(context.Background(), &out, []string{p})
			if (err != nil) != tc.inputError {
				t.Errorf("error %v, want an input error: %v", err, tc.inputError)
			}
			if tc.inputError && (failed != 0 || !strings.Contains(out.String(), "ERROR "+p) || !strings.Contains(out.String(), "1 unreadable")) {
				t.Errorf("an unreadable suite: %d failed, report\n%s", failed, out.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("report does not contain %q:\n%s", w, out.String())
				}
			}
			if !strings.Contains(out.String(), p) && tc.name != "unknown field" {
				t.Errorf("report does not name the file %s:\n%s", p, out.String())
			}
		})
	}
}

func TestDiffObjects(t *testing.T) {
	got := map[string]any{"apiVersion": "a/v1", "kind": "K",
		"metadata": map[string]any{"name": "test-x", "namespace": "default", "uid": "u", "generation": int64(1), "resourceVersion": "3"},
		"spec":     map[string]any{"x": int64(1)}}
	exp, err := decodeObject("apiVersion: a/v1\nkind: K\nspec:\n  x: 1.0\n")
	if err != nil {
		t.Fatal(err)
	}
	if d := diffObjects(exp, got); d != "" {
		t.Errorf("1.0 reads as the integer 1 and system metadata is ignored, but got a diff:\n%s", d)
	}
	exp["spec"] = map[string]any{"x": 1.5}
	if d := diffObjects(exp, got); !strings.Contains(d, "1.5") {
		t.Errorf("diff does not show the expected value: %q", d)
	}
	exp["spec"] = map[string]any{"x": int64(1)}
	setMeta(exp, "labels", "x")
	if d := diffObjects(exp, got); !strings.Contains(d, "labels") {
		t.Errorf("diff does not show labels: %q", d)
	}
}

func TestDiffValues(t *testing.T) {
	exp := map[string]any{"spec": map[string]any{"x": 1.5, "list": []any{"a", "b"}, "gone": map[string]any{"y": true}, "same": "s"}}
	got := map[string]any{"spec": map[string]any{"x": int64(1), "list": []any{"a", "c"}, "new": []any{}, "same": "s"}, "status": nil}
	var b strings.Builder
	diffValues(&b, "", exp, got)
	want := `-.spec.gone: {"y":true}
-.spec.list[1]: "b"
+.spec.list[1]: "c"
+.spec.new: []
-.spec.x: float64(1.5)
+.spec.x: int64(1)
+.status: null
`
	if b.String() != want {
		t.Errorf("diffValues:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	diffValues(&b, "", []any{"a"}, []any{"a", "b"})
	if want := "-.: [\"a\"]\n+.: [\"a\",\"b\"]\n"; b.String() != want {
		t.Errorf("lists of different lengths: %q, want %q", b.String(), want)
	}
}

func TestPatch(t *testing.T) {
	doc := map[string]any{"a": []any{int64(1), int64(2)}, "b": map[string]any{"c~/": "x"}}
	ops := []patch{
		{Op: "add", Path: "/a/1", Value: raw(`9`)},
		{Op: "add", Path: "/a/-", Value: raw(`7`)},
		{Op: "remove", Path: "/a/0"},
		{Op: "replace", Path: "/b/c~0~1", Value: raw(`"y"`)},
		{Op: "copy", From: "/b", Path: "/d"},
		{Op: "move", From: "/d", Path: "/e"},
		{Op: "test", Path: "/e/c~0~1", Value: raw(`"y"`)},
	}
	got, err := applyPatches(doc, ops)
	if err != nil {
		t.Fatal(err)
	}
	want := `map[a:[9 2 7] b:map[c~/:y] e:map[c~/:y]]`
	if s := strings.ReplaceAll(strings.TrimSpace(fmtValue(got)), "  ", " "); s != want {
		t.Errorf("got %s, want %s", s, want)
	}
	for _, bad := range []patch{
		{Op: "replace", Path: "/nope", Value: raw(`1`)},
		{Op: "remove", Path: "/a/5"},
		{Op: "add", Path: "/a/01", Value: raw(`1`)},
		{Op: "test", Path: "/b/c~0~1", Value: raw(`"z"`)},
		{Op: "remove", Path: ""},
	} {
		if _, err := applyPatches(jsonvalue.Copy(got), []patch{bad}); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}

func raw(s string) *json.RawMessage {
	r := json.RawMessage(s)
	return &r
}

func fmtValue(v any) string { return fmt.Sprint(v) }

func FuzzRunFiles(f *testing.F) {
	for _, p := range []string{"testdata/crontab/crontab.testsuite.yaml", "testdata/failing/crontab.testsuite.yaml"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	crd, err := os.ReadFile("testdata/crontab/crontab-crd.yaml")
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "crd.yaml"), crd, 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, suite string) {
		p := filepath.Join(dir, "fuzz.testsuite.yaml")
		if err := os.WriteFile(p, []byte(suite), 0o644); err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		_, err := RunFiles(context.Background(), &out, []string{p})
		// A file that is not a suite is an input error: it names the file,
		// is printed, and is counted in the summary; nothing else is.
		if err != nil {
			if !strings.Contains(err.Error(), p) {
				t.Fatalf("input error does not name the file: %v", err)
			}
			if !strings.Contains(out.String(), "ERROR "+p) || !strings.Contains(out.String(), " 1 unreadable\n") {
				t.Fatalf("input error %v not reported:\n%s", err, out.String())
			}
		}
		if !strings.Contains(out.String(), " passed, ") {
			t.Fatalf("no summary line:\n%s", out.String())
		}
	})
}

// TestRunnerDecodesOnce checks the runner's memory of decoded objects: a
// text is decoded once, and every caller gets a top level and metadata of
// its own, so that the fields the runner sets for one case (metadata, a
// status, a sentinel) do not reach the next case's object.
func TestRunnerDecodesOnce(t *testing.T) {
	r := newRunner(nil)
	text := "metadata:\n  name: a\nspec:\n  list: [1, 2.5]\n"
	first, err := r.decode(text)
	if err != nil {
		t.Fatal(err)
	}
	setMeta(first, "name", "changed")
	setMeta(first, "namespace", "changed")
	first["status"] = "changed"
	second, err := r.decode(text)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := decodeObject(text)
	if d := cmp.Diff(want, second); d != "" {
		t.Errorf("the second decode differs from a fresh one (-fresh +second):\n%s", d)
	}
	if len(r.objects) != 1 {
		t.Errorf("%d texts remembered, want 1", len(r.objects))
	}
	noMeta, _ := r.decode("spec: {}")
	setMeta(noMeta, "name", "n")
	if again, _ := r.decode("spec: {}"); again["metadata"] != nil {
		t.Errorf("metadata set on one copy shows in the next: %v", again)
	}
	if _, err := r.decode("a: [b"); err == nil {
		t.Error("a malformed text decoded")
	}
	if _, err := r.decode("a: [b"); err == nil {
		t.Error("a malformed text decoded the second time")
	}
}
