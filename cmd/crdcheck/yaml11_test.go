package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestYAML11: objects read as kubectl reads them (sigs.k8s.io/yaml, YAML
// 1.1): enabled: yes is the boolean true and replicas: 1.0 the integer 1,
// so the API server accepts them (a boolean property, an integer CEL
// rule): the fast path leaves such documents to the library; yes where a
// string is wanted is refused, as the API server refuses it.
func TestYAML11(t *testing.T) {
	dir := t.TempDir()
	crd := `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
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
            properties:
              enabled: {type: boolean}
              replicas:
                type: integer
                x-kubernetes-validations:
                - rule: self % 2 == 1
              mode: {type: string}
`
	crdFile := filepath.Join(dir, "crd.yaml")
	if err := os.WriteFile(crdFile, []byte(crd), 0o644); err != nil {
		t.Fatal(err)
	}
	objects := `apiVersion: example.com/v1
kind: Widget
metadata: {name: plain}
spec:
  enabled: yes
  replicas: 1.0
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: anchored}
spec: &s
  enabled: On
  replicas: 3.0
  extra: &x 1
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: refused}
spec:
  mode: yes
`
	code, rep, stderr := runJSON(t, objects, "-crds", crdFile, "-")
	if code != exitRejected {
		t.Errorf("exit status %d, want %d (%s)", code, exitRejected, stderr)
	}
	want := map[string]string{"plain": "accepted", "anchored": "accepted", "refused": "rejected"}
	if len(rep.Objects) != len(want) {
		t.Fatalf("%d objects, want %d: %+v", len(rep.Objects), len(want), rep.Objects)
	}
	for _, o := range rep.Objects {
		if o.Status != want[o.Name] {
			t.Errorf("%s: %s (%s), want %s", o.Name, o.Status, o.Error, want[o.Name])
		}
	}
}
