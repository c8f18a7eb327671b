package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSchemaCommand(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := runArgs(t, "schema", crds, "-d", dir)
	want := filepath.Join(dir, "crontab-stable.example.com-v1.json")
	if code != exitOK || strings.TrimSpace(out) != want {
		t.Fatalf("exit status %d, stdout %q, stderr %q", code, out, errOut)
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(readFile(t, want)), &s); err != nil {
		t.Fatalf("%s: %v", want, err)
	}
	if s["$schema"] != "http://json-schema.org/draft-07/schema#" || s["title"] != "CronTab stable.example.com/v1" {
		t.Errorf("schema %v", s)
	}
	spec := s["properties"].(map[string]any)["spec"].(map[string]any)
	if d, _ := spec["description"].(string); !strings.Contains(d, "self.foo == oldSelf.foo (foo is immutable)") {
		t.Errorf("spec's CEL rule not in its description: %q", d)
	}
	// -strict forbids unknown fields
	if code, _, _ := runArgs(t, "schema", "-strict", "-d", dir, crds); code != exitOK {
		t.Fatalf("-strict: exit status %d", code)
	}
	strict := readFile(t, want)
	if !strings.Contains(strict, `"additionalProperties": false`) {
		t.Errorf("-strict schema allows unknown fields")
	}
	// errors: no CRDs, a missing file, a CRD that cannot be decoded
	if code, _, _ := runArgs(t, "schema", "-d", dir); code != exitUsage {
		t.Errorf("no CRDs: exit status %d", code)
	}
	if code, _, errOut := runArgs(t, "schema", "-d", dir, "testdata/nope.yaml"); code != exitUsage || !strings.Contains(errOut, "nope.yaml") {
		t.Errorf("missing file: exit status %d, %q", code, errOut)
	}
	broken := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(broken, []byte("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec: 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runArgs(t, "schema", "-d", dir, broken); code != exitUsage || !strings.Contains(errOut, broken+":1") {
		t.Errorf("undecodable CRD: exit status %d, %q", code, errOut)
	}
	// a CRD the API server refuses: its errors, no schema, exit status 1
	refused := filepath.Join(dir, "refused.yaml")
	crdText := readFile(t, filepath.Join(crds, "crontab.yaml"))
	bad := strings.Replace(crdText, "self.foo == oldSelf.foo", "self.foo ==", 1)
	if bad == crdText {
		t.Fatal("the test CRD changed: no rule to break")
	}
	if err := os.WriteFile(refused, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out2 := t.TempDir()
	code, out, errOut = runArgs(t, "schema", "-d", out2, refused)
	if code != exitRejected || out != "" || !strings.Contains(errOut, "rejected, no schema written") || !strings.Contains(errOut, "compilation failed") {
		t.Errorf("refused CRD: exit status %d, stdout %q, stderr %q", code, out, errOut)
	}
	if entries, _ := os.ReadDir(out2); len(entries) != 0 {
		t.Errorf("refused CRD: %d files written", len(entries))
	}
}

// TestSchemaCommandNames: kinds of the same name in different groups get
// files of their own; the same CRD twice writes one file; two different
// CRDs for one file are an input error.
func TestSchemaCommandNames(t *testing.T) {
	dir := t.TempDir()
	crdText := readFile(t, filepath.Join(crds, "crontab.yaml"))
	other := strings.ReplaceAll(crdText, "stable.example.com", "other.example.com")
	changed := strings.Replace(crdText, "self.foo == oldSelf.foo", "self.foo == oldSelf.foo || true", 1)
	files := map[string]string{"a.yaml": crdText, "b.yaml": other, "c.yaml": crdText, "d.yaml": changed}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := func(name string) string { return filepath.Join(dir, name) }
	out := t.TempDir()
	code, stdout, errOut := runArgs(t, "schema", "-d", out, path("a.yaml"), path("b.yaml"), path("c.yaml"))
	if code != exitOK {
		t.Fatalf("exit status %d, stderr %q", code, errOut)
	}
	for _, want := range []string{"crontab-stable.example.com-v1.json", "crontab-other.example.com-v1.json"} {
		if strings.Count(stdout, want) != 1 {
			t.Errorf("%s written %d times: %q", want, strings.Count(stdout, want), stdout)
		}
	}
	code, _, errOut = runArgs(t, "schema", "-d", t.TempDir(), path("a.yaml"), path("d.yaml"))
	if code != exitUsage || !strings.Contains(errOut, "a different schema was written to this file before") {
		t.Errorf("collision: exit status %d, stderr %q", code, errOut)
	}
}
