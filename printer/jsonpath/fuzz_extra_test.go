package jsonpath_test

import (
	"fmt"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/printer/jsonpath"
)

// FuzzExecuteData evaluates fixed templates (those of printer columns,
// selectable fields and kubectl) on random data: no panic, deterministic,
// data left alone.
func FuzzExecuteData(f *testing.F) {
	for _, s := range []string{
		`{"metadata":{"name":"a","creationTimestamp":"2000-01-01T00:00:00Z"},"spec":{"replicas":3,"l":[1,2.5,"x",null,{"a":[]}]}}`,
		`{"status":{"conditions":[{"type":"Ready","status":"True"},{"type":"Other"}]},"items":[{"name":"n"},null]}`,
		`{"spec":{"replicas":9223372036854775807,"f":1e308,"g":5e-324,"big":18446744073709551616}}`,
		`[]`, `null`, `"x"`, `{"a":{"a":{"a":{"a":{"x":1}}}}}`,
	} {
		f.Add(s)
	}
	var tmpls []*jsonpath.Template
	for _, text := range []string{
		"{.metadata.name}", "{.spec.replicas}", `{.status.conditions[?(@.type=="Ready")].status}`, "{.spec.l[*]}",
		"{range .items[*]}{.name}{\"\\n\"}{end}", "{..x}", "{.spec.l[-1:]}", "{.spec.l[?(@ > 1)]}", "{.spec['big','f']}",
		"{.spec.*}", "{.a.a.a.a}", "{@}",
	} {
		tmpls = append(tmpls, jsonpath.MustParse("fuzz", text))
	}
	f.Fuzz(func(t *testing.T, data string) {
		v, err := jsonscan.Decode([]byte(data))
		if err != nil {
			return
		}
		before := fmt.Sprint(v)
		for _, tmpl := range tmpls {
			for _, x := range []*jsonpath.Template{tmpl, tmpl.AllowMissingKeys(true)} {
				a, aerr := x.ExecuteString(v)
				b, berr := x.ExecuteString(v)
				if a != b || fmt.Sprint(aerr) != fmt.Sprint(berr) {
					t.Fatalf("%s: not deterministic", x.Name())
				}
				x.First(v)
			}
		}
		if fmt.Sprint(v) != before {
			t.Fatal("the data was modified")
		}
	})
}
