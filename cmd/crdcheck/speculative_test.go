package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// validationLast makes every CRD of -crds validated only once all the
// objects are checked, so that each object is checked before the verdict
// on its CRD is known, for the duration of the test. The manifests must
// hold no CRD (their validation would wait for checks that wait for it).
func validationLast(t *testing.T) {
	release := make(chan struct{})
	testHooks.validation = func(validate func()) {
		<-release
		validate()
	}
	testHooks.checked = sync.OnceFunc(func() { close(release) })
	t.Cleanup(func() { testHooks.validation, testHooks.checked = nil, nil })
}

// TestSpeculativeChecks: objects checked before the verdict on their CRD
// get the outcomes they get when the verdict comes first, in every output
// format, for an accepted CRD and for a rejected one.
func TestSpeculativeChecks(t *testing.T) {
	many := manyObjects(t, 200)
	widgets := filepath.Join(t.TempDir(), "widgets.yaml")
	var b strings.Builder
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w%d\nspec:\n  foo: 1\n", i)
	}
	writeFile(t, widgets, b.String())
	runs := [][]string{
		{"-crds", crds, many, good, bad},
		{"-crds", badCRDs, widgets},
		{"-crds", crds, "-crds", badCRDs, widgets, good, bad},
	}
	for _, args := range runs {
		for _, format := range []string{"json", "text", "junit", "tap", "github"} {
			for _, extra := range [][]string{nil, {"-v"}} {
				a := append(append([]string{"-o", format}, extra...), args...)
				code, want, _ := runArgs(t, a...)
				func() {
					validationLast(t)
					gotCode, got, _ := runArgs(t, a...)
					if gotCode != code || got != want {
						t.Errorf("%v: checked before the CRDs' validation: exit status %d, want %d; report\n%s\nwant\n%s", a, gotCode, code, got, want)
					}
				}()
				testHooks.validation, testHooks.checked = nil, nil
			}
		}
	}

	// the objects of the rejected CRD are not checked, with the reason
	validationLast(t)
	code, v := jsonRun(t, "-crds", badCRDs, widgets)
	if code != exitRejected {
		t.Errorf("exit status %d, want %d", code, exitRejected)
	}
	objs := v["objects"].([]any)
	if len(objs) != 50 {
		t.Fatalf("%d objects, want 50", len(objs))
	}
	for _, o := range objs {
		o := o.(map[string]any)
		if o["status"] != "notChecked" || o["operation"] != "" ||
			!regexp.MustCompile(`^no matches for kind "Widget" in version "example.com/v1": CRD widgets.example.com at testdata/badcrds/widget.yaml:\d+ was rejected$`).MatchString(o["error"].(string)) {
			t.Fatalf("object of a rejected CRD checked before the verdict: %v", o)
		}
	}
}

// TestSpeculativeBadRules: objects checked before the verdict on a CRD
// whose CEL rules do not compile, or cost too much, reach those rules
// (compiled as objects reach them); they are reported as not checked, as
// when the verdict comes first.
func TestSpeculativeBadRules(t *testing.T) {
	dir := t.TempDir()
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Cluster
  names:
    plural: gadgets
    kind: Gadget
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.foo ==="
            - rule: "self.list.all(x, self.list.all(y, self.list.all(z, x + y + z != '')))"
            properties:
              foo:
                type: string
              list:
                type: array
                items:
                  type: string
`
	writeFile(t, filepath.Join(dir, "gadget.yaml"), crd)
	objs := filepath.Join(t.TempDir(), "gadgets.yaml")
	var b strings.Builder
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&b, "---\napiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g%d\nspec:\n  foo: x\n  list: [a, b]\n", i)
	}
	writeFile(t, objs, b.String())
	for _, format := range []string{"json", "text"} {
		code, want, _ := runArgs(t, "-o", format, "-crds", dir, objs)
		validationLast(t)
		gotCode, got, _ := runArgs(t, "-o", format, "-crds", dir, objs)
		testHooks.validation, testHooks.checked = nil, nil
		if gotCode != code || got != want {
			t.Errorf("-o %s: checked before the CRD's validation: exit status %d, want %d; report\n%s\nwant\n%s", format, gotCode, code, got, want)
		}
		if code != exitRejected || !strings.Contains(want, "gadgets.example.com") {
			t.Errorf("-o %s: exit status %d\n%s", format, code, want)
		}
	}
	_, v := jsonRun(t, "-crds", dir, objs)
	if c := v["crds"].([]any)[0].(map[string]any); c["status"] != "rejected" ||
		!strings.Contains(c["message"].(string), "compilation failed") || !strings.Contains(c["message"].(string), "cost") {
		t.Fatalf("CRD %v", c)
	}
	for _, o := range v["objects"].([]any) {
		if o := o.(map[string]any); o["status"] != "notChecked" {
			t.Fatalf("object of a rejected CRD: %v", o)
		}
	}
}

// TestTextCountsAccepted: the text output, which keeps only counts of the
// objects accepted without warnings, counts what the JSON output lists.
func TestTextCountsAccepted(t *testing.T) {
	many := manyObjects(t, 120)
	args := []string{"-crds", crds, many, good, bad, update}
	_, v := jsonRun(t, args...)
	s := v["summary"].(map[string]any)
	_, text, _ := runArgs(t, args...)
	want := fmt.Sprintf("objects: %v accepted, %v rejected, %v not checked, %v unreadable; %v warning(s)\n",
		s["accepted"], s["rejected"], s["notChecked"], s["errors"], s["warnings"])
	if !strings.HasSuffix(text, want) {
		t.Errorf("text output ends\n%s\nwant\n%s", text[max(0, len(text)-300):], want)
	}
	if s["accepted"] == "0" {
		t.Errorf("nothing accepted: %v", s)
	}
	_, verbose, _ := runArgs(t, append([]string{"-v"}, args...)...)
	n := 0
	for _, l := range strings.Split(verbose, "\n") {
		if strings.HasSuffix(l, ": accepted") && !strings.Contains(l, "CustomResourceDefinition") {
			n++
		}
	}
	if fmt.Sprint(n) != fmt.Sprint(s["accepted"]) {
		t.Errorf("-v lists %d accepted objects, the summary counts %v", n, s["accepted"])
	}
}
