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
	want := filepath.Join(dir, "crontab_v1.json")
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
}
