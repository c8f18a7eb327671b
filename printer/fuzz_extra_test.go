package printer_test

import (
	"fmt"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/printer"
)

// FuzzFields matches random field selectors against random objects: no
// panic, objects left alone, and a match agrees with the object's field
// set.
func FuzzFields(f *testing.F) {
	for _, s := range []struct{ sel, obj string }{
		{"spec.color=blue", `{"metadata":{"name":"a","namespace":"ns"},"spec":{"color":"blue","size":3}}`},
		{"spec.size!=3,metadata.name=a", `{"metadata":{"name":"a"},"spec":{"size":3}}`},
		{"spec.color=", `{"spec":{"color":null}}`},
		{"metadata.namespace==ns", `{"metadata":{"namespace":"ns"},"spec":{"color":["a","b"]}}`},
		{"spec.flag=true", `{"spec":{"flag":true,"size":1.5}}`},
		{"spec.color=a\\,b", `{"spec":{"color":"a,b"}}`},
	} {
		f.Add(s.sel, s.obj)
	}
	fields := printer.NewFields([]crdschema.SelectableField{{JSONPath: ".spec.color"}, {JSONPath: ".spec.size"}, {JSONPath: ".spec.flag"}}, true)
	f.Fuzz(func(t *testing.T, selText, objJSON string) {
		obj, err := manifest.UnmarshalObject([]byte(objJSON))
		if err != nil {
			return
		}
		sel, err := fields.ParseSelector(selText)
		if err != nil {
			return
		}
		before := fmtObj(obj)
		ok, err := fields.Matches(sel, obj)
		set, serr := fields.Set(obj)
		if fmtObj(obj) != before {
			t.Fatal("the object was modified")
		}
		if (err == nil) != (serr == nil) {
			t.Fatalf("Matches error %v, Set error %v", err, serr)
		}
		if err != nil {
			return
		}
		want := true
		for _, r := range sel.Requirements() {
			if (set[r.Field] == r.Value) == r.NotEqual {
				want = false
			}
		}
		if ok != want {
			t.Fatalf("Matches = %v, but the field set %v gives %v", ok, set, want)
		}
	})
}

func fmtObj(obj map[string]any) string { return sprint(obj) }

func sprint(v any) string { return fmt.Sprint(v) }
