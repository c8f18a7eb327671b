package jsonpath

import (
	"io"
	"testing"
)

// FuzzJSONPath parses random templates and evaluates the ones that parse on
// a fixed object, with and without missing keys allowed. Neither may panic.
func FuzzJSONPath(f *testing.F) {
	for _, s := range []string{
		"{.metadata.name}", "{.a.b[2].c}", `{.l[?(@.type=="Ready")].status}`, "{range .l[*]}{.type}{end}",
		"{..c}", "{['k.x']}", "{.m[*][0]}", "{.a.b[-1:]}", "{.a.b[::2]}", "{.l[*]['type','status']}",
		"{.s.*}", "{.l[?(@.n>1)]}", "{.l[?(@.x)].n}", `{"text"}{'q'}`, "{range .l[*]}{range .m[*]}{@}{end}{end}",
		"{.a.b[0:1:0]}", "{hello}", "{.a[", "{end}", "{range .e[*]}{[0]}{end}",
	} {
		f.Add(s)
	}
	data := decode(f, `{"metadata":{"name":"x"},"a":{"b":[1,2,{"c":"x","d":null}],"e":"str","f":1.5,"g":true,"h":{}},
		"l":[{"type":"Ready","status":"True","n":1},{"type":"Other","status":"False","n":2.5},{"status":"x"}],
		"s":"hi","n":null,"e":[],"k.x":3,"m":[[],[1,2]]}`)
	f.Fuzz(func(t *testing.T, text string) {
		tmpl, err := Parse("fuzz", text)
		if err != nil {
			if tmpl != nil {
				t.Fatal("a template and an error")
			}
			return
		}
		for _, allow := range []bool{false, true} {
			x := tmpl.AllowMissingKeys(allow)
			if err := x.Execute(io.Discard, data); err == nil {
				// Evaluation is deterministic.
				a, _ := x.ExecuteString(data)
				b, _ := x.ExecuteString(data)
				if a != b {
					t.Fatalf("%q: %q then %q", text, a, b)
				}
			}
			x.Execute(io.Discard, nil)
		}
	})
}
