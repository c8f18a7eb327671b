package upgrade

import (
	"context"
	"testing"

	"github.com/crdschema/crdschema/manifest"
)

// FuzzCheck sends arbitrary stored objects through Check with a real CRD
// pair: no panic, one verdict per object, and a verdict's evidence agrees
// with it.
func FuzzCheck(f *testing.F) {
	f.Add([]byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a","resourceVersion":"1"},"spec":{"image":"registry.example.com/x","legacy":"y"}}`))
	f.Add([]byte(`{"apiVersion":"stable.example.com/v1alpha1","kind":"CronTab","metadata":{"name":"a"},"status":{"phase":1}}`))
	f.Add([]byte(`{"apiVersion":"v1","kind":"CronTab","metadata":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		obj, err := manifest.UnmarshalObject(data)
		if err != nil {
			return
		}
		old := crontabCRD(t, true, "", "", "              legacy: {type: string}\n")
		def := crontabCRD(t, true, "        x-kubernetes-validations:\n        - rule: \"!has(self.spec) || !has(self.spec.image) || self.spec.image.size() < 20\"\n",
			"                maxLength: 10\n", "              replicas: {type: integer, default: 1}\n")
		r, _ := Check(context.Background(), def, old, []map[string]any{obj})
		if r == nil || len(r.Objects) != 1 {
			t.Fatalf("report %+v", r)
		}
		o := r.Objects[0]
		switch o.Verdict {
		case Valid:
			if len(o.Errors)+len(o.Blocking)+len(o.Changes) > 0 {
				t.Fatalf("valid with evidence: %+v", o)
			}
		case Ratcheted:
			if len(o.Errors) == 0 || len(o.Blocking) > 0 {
				t.Fatalf("ratcheted: %+v", o)
			}
		case Blocked:
			if len(o.Blocking) == 0 {
				t.Fatalf("blocked without a blocking error: %+v", o)
			}
		case ChangedOnRead:
			if len(o.Changes) == 0 {
				t.Fatalf("changed on read without changes: %+v", o)
			}
		case Unreadable:
			if o.Problem == "" {
				t.Fatalf("unreadable without a reason: %+v", o)
			}
		default:
			t.Fatalf("verdict %q", o.Verdict)
		}
	})
}
