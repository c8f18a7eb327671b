package printer

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/manifest"
)

// FuzzRow builds a printer from a random column path and type and renders a
// random JSON object with it. Nothing may panic, and every row has one cell
// per column.
func FuzzRow(f *testing.F) {
	f.Add(".spec.replicas", "integer", `{"metadata":{"name":"a"},"spec":{"replicas":3}}`)
	f.Add(`.status.conditions[?(@.type=="Ready")].status`, "string", `{"status":{"conditions":[{"type":"Ready","status":"True"}]}}`)
	f.Add(".metadata.creationTimestamp", "date", `{"metadata":{"creationTimestamp":"2000-01-01T00:00:00Z"}}`)
	f.Add(".spec.n", "number", `{"spec":{"n":1.5e300}}`)
	f.Add(".spec.b", "boolean", `{"spec":{"b":true}}`)
	f.Add(".spec[", "string", `{}`)
	f.Add("..x", "string", `{"a":[{"x":null}]}`)
	f.Fuzz(func(t *testing.T, path, typ, object string) {
		obj, err := manifest.UnmarshalObject([]byte(object))
		if err != nil {
			return
		}
		p, err := New([]crdschema.CustomResourceColumnDefinition{
			{Name: "A", Type: "string", JSONPath: ".metadata.name"},
			{Name: "B", Type: typ, JSONPath: path},
		}, WithClock(clock))
		if p == nil {
			t.Fatal("nil printer")
		}
		if err == nil && len(p.Columns()) != 3 {
			t.Fatalf("columns %v", p.Columns())
		}
		row := p.Row(obj)
		if len(row) != len(p.Columns()) {
			t.Fatalf("%d cells for %d columns", len(row), len(p.Columns()))
		}
		if typ == "string" && len(row) == 3 && row[2] != nil {
			if _, ok := row[2].(string); !ok {
				t.Fatalf("string column cell %#v", row[2])
			}
		}
		p.Table([]map[string]any{obj}).WriteText(discard{}, true)
	})
}

type discard struct{}

func (discard) Write(b []byte) (int, error) { return len(b), nil }

// FuzzParseSelector parses random field selectors; a selector that parses
// prints back to a string that parses to the same requirements.
// (testdata/fuzz holds a case where the order changes.)
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{
		"spec.color=blue", "spec.color=green,spec.size=M", "spec.size!=M", "a==b", "a=b\\,c", "a=b\\", "=", "a",
		"metadata.name=x,metadata.namespace!=y", "a=\\=\\\\", ",,",
	} {
		f.Add(s)
	}
	fields := NewFields([]crdschema.SelectableField{{JSONPath: ".spec.color"}, {JSONPath: ".spec.size"}}, true)
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSelector(s)
		if err != nil {
			return
		}
		again, err := ParseSelector(sel.String())
		if err != nil {
			t.Fatalf("%q printed as %q which does not parse: %v", s, sel.String(), err)
		}
		// Terms are sorted as written, so the order may change; the set of
		// requirements may not.
		key := func(s Selector) string {
			var parts []string
			for _, r := range s.Requirements() {
				parts = append(parts, fmt.Sprintf("%q %q %v", r.Field, r.Value, r.NotEqual))
			}
			slices.Sort(parts)
			return strings.Join(parts, ";")
		}
		if key(again) != key(sel) {
			t.Fatalf("%q: %q then %q", s, sel.String(), again.String())
		}
		sel.Matches(map[string]string{"spec.color": "blue"})
		fields.ParseSelector(s)
	})
}
