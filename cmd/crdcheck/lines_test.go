package main

import "testing"

func TestFieldPosition(t *testing.T) {
	doc := []byte(`apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
  labels:
    app.kubernetes.io/name: web
spec:
  a.b: 1
  rules:
  - matches:
    - path: {type: Exact, value: /}
      method: NOTREAL
`)
	list := []byte(`{"apiVersion": "v1", "kind": "List", "items": [
  {"kind": "A"},
  {"kind": "B",
   "spec": {"x": 1}}]}
`)
	for _, tt := range []struct {
		doc       []byte
		item      int
		path      string
		line, col int
	}{
		{doc, 0, "spec.rules[0].matches[0].method", 12, 15},
		{doc, 0, "spec.rules[0].matches[0].path.value", 11, 34},
		{doc, 0, "metadata.labels[app.kubernetes.io/name]", 6, 29},
		{doc, 0, "spec.a.b", 8, 8},
		{doc, 0, "spec.rules[0].backendRefs", 10, 5}, // absent: its parent
		{doc, 0, "spec.rules[7]", 10, 3},             // out of range: the list
		{doc, 0, "<nil>", 1, 1},
		{list, 2, "spec.x", 4, 18},
		{list, 2, "<nil>", 3, 3},
	} {
		line, col, ok := fieldPosition(tt.doc, tt.item, tt.path)
		if !ok || line != tt.line || col != tt.col {
			t.Errorf("%s (item %d): %d:%d %v, want %d:%d", tt.path, tt.item, line, col, ok, tt.line, tt.col)
		}
	}
	if _, _, ok := fieldPosition([]byte("a: [\n"), 0, "a"); ok {
		t.Error("a document that is not YAML: ok")
	}
}

func FuzzFieldPosition(f *testing.F) {
	f.Add([]byte("a:\n  b: [1, {c: 2}]\n"), 0, "a.b[1].c")
	f.Add([]byte("items: [{a: 1}]"), 1, "a")
	f.Add([]byte("x: &a {y: *a}"), 0, "x.y.y.y")
	f.Fuzz(func(t *testing.T, doc []byte, item int, path string) {
		if len(doc) > 1<<12 {
			return
		}
		line, col, ok := fieldPosition(doc, item, path)
		if ok && (line < 1 || col < 1) {
			t.Errorf("position %d:%d", line, col)
		}
	})
}
