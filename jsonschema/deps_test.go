package jsonschema

import (
	"os/exec"
	"strings"
	"testing"
)

// TestNoCEL: the JSON Schema export links neither cel-go nor the packages
// that compile CEL rules, so that a program exporting schemas stays small.
func TestNoCEL(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to list the dependencies: %v", err)
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "github.com/google/cel-go") || strings.HasSuffix(dep, "crdschema/celrules") {
			t.Errorf("jsonschema depends on %s", dep)
		}
	}
}
