package costs

import (
	"context"
	"os"
	"testing"

	"github.com/crdschema/crdschema/manifest"
)

// FuzzExplain checks that Explain never panics and that every fix it
// suggests is true.
func FuzzExplain(f *testing.F) {
	for _, p := range []string{"../examples/costs/mailinglist.yaml", "../examples/costs/testdata/mailinglist-bounded.yaml"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		def, _, err := manifest.UnmarshalCRD(data)
		if err != nil {
			return
		}
		r, err := Explain(context.Background(), def)
		if err != nil {
			return
		}
		checkFixes(t, def, r)
	})
}

// FuzzRuntime checks that Runtime never panics on any object.
func FuzzRuntime(f *testing.F) {
	data, err := os.ReadFile("../examples/costs/mailinglist.yaml")
	if err != nil {
		f.Fatal(err)
	}
	def, _, err := manifest.UnmarshalCRD(data)
	if err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(`{"apiVersion": "example.com/v1", "kind": "MailingList", "metadata": {"name": "a"}, "spec": {"addresses": ["a@b"]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		obj, err := manifest.UnmarshalObject(data)
		if err != nil {
			return
		}
		rc, err := Runtime(context.Background(), def, "v1", obj)
		if err != nil {
			return // a request the API server refuses
		}
		for _, c := range rc {
			if c.Actual < 0 || c.Evaluations < 0 {
				t.Errorf("%s: negative figures %+v", c.Field, c)
			}
		}
	})
}
