package difffuzz

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"k8s.io/client-go/util/jsonpath"

	ours "github.com/crdschema/crdschema/printer/jsonpath"
)

// FuzzJSONPath compares printer/jsonpath with client-go's JSONPath, the one
// the API server's printer columns use, on arbitrary templates over a fixed
// object: parse errors, evaluation errors (same texts) and results. Results
// are compared group by group as multisets of printed values, because
// client-go visits map elements in Go's random order and crdschema in
// sorted key order (the documented difference). For the same reason an
// evaluation error may name another element than client-go's did in one
// run, and in a range client-go fails in some orders only: an error must be
// one client-go gives in some run, and results are compared with a run
// without error (clientGoRun).
func FuzzJSONPath(f *testing.F) {
	for _, s := range []string{
		"{.metadata.name}", "{.a.b[2].c}", `{.l[?(@.type=="Ready")].status}`, "{range .l[*]}{.type}{end}",
		"{..c}", "{['k.x']}", "{.m[*][0]}", "{.a.b[-1:]}", "{.a.b[::2]}", "{.l[*]['type','status']}",
		"{.s.*}", "{.l[?(@.n>1)]}", "{.l[?(@.x)].n}", `{"text"}{'q'}`, "{.a.b[0:1:0]}", "{hello}", "{.a[", "{end}",
		"{.a.f}", "{.a.g}", "{.a.h}", "{.n}", "{.e}", "{.a.b[5]}", "{.l[?(@.n<=2.5)].type}", "{.l[-4]}", "{.a.*}",
	} {
		f.Add(s, false)
	}
	var data any
	dec := json.NewDecoder(bytes.NewReader([]byte(`{"metadata":{"name":"x"},"a":{"b":[1,2,{"c":"x","d":null}],"e":"str","f":1.5,"g":true,"h":{}},
		"l":[{"type":"Ready","status":"True","n":1},{"type":"Other","status":"False","n":2.5},{"status":"x"}],
		"s":"hi","n":null,"e":[],"k.x":3,"m":[[],[1,2]],"i":9007199254740993}`)))
	dec.UseNumber()
	if err := dec.Decode(&data); err != nil {
		f.Fatal(err)
	}
	data = preserveInts(data)
	f.Fuzz(func(t *testing.T, text string, allowMissing bool) {
		up := jsonpath.New("fuzz").AllowMissingKeys(allowMissing)
		uerr := up.Parse(text)
		tmpl, err := ours.Parse("fuzz", text)
		if (err == nil) != (uerr == nil) {
			t.Fatalf("Parse(%q): crdschema error %v, client-go error %v", text, err, uerr)
		}
		if err != nil {
			if err.Error() != uerr.Error() {
				t.Fatalf("Parse(%q): crdschema error %q, client-go error %q", text, err, uerr)
			}
			return
		}
		tmpl = tmpl.AllowMissingKeys(allowMissing)
		want, uerr := up.FindResults(data)
		got, err := tmpl.FindResults(data)
		if err != nil {
			if (uerr == nil || err.Error() != uerr.Error()) && clientGoRun(text, allowMissing, data, err.Error()) == nil {
				t.Fatalf("FindResults(%q): crdschema error %v, client-go error %v", text, err, uerr)
			}
			return
		}
		if uerr != nil {
			// client-go fails in some map orders only (see clientGoRun):
			// compare with a run that does not.
			r := clientGoRun(text, allowMissing, data, "")
			if r == nil {
				t.Fatalf("FindResults(%q): crdschema no error, client-go error %v", text, uerr)
			}
			want = r.results
		}
		if len(got) != len(want) {
			t.Fatalf("FindResults(%q): %d groups, client-go %d", text, len(got), len(want))
		}
		for i := range got {
			var g, w []string
			for _, v := range got[i] {
				var b bytes.Buffer
				if err := ours.PrintResults(&b, []any{v}); err != nil {
					b.WriteString("error: " + err.Error())
				}
				g = append(g, b.String())
			}
			for _, v := range want[i] {
				var b bytes.Buffer
				if err := up.PrintResults(&b, []reflect.Value{v}); err != nil {
					b.WriteString("error: " + err.Error())
				}
				w = append(w, b.String())
			}
			slices.Sort(g)
			slices.Sort(w)
			if !slices.Equal(g, w) {
				t.Fatalf("FindResults(%q) group %d:\n got %q\nwant %q", text, i, g, w)
			}
		}
	})
}

// clientGoRun runs client-go's template text up to 200 more times, each
// with a template of its own (one that failed inside a range keeps state
// that changes its next run), and returns the first run whose error text
// is msg ("": no error), or nil. Which element of a map a wildcard meets
// first is Go's random map order in client-go, and that decides which
// element an error names, and in a range even whether there is an error;
// crdschema meets them in sorted key order. A small map's range starts at
// a random one of its eight slots, so 200 runs miss a possible order
// about once in 4·10¹¹.
func clientGoRun(text string, allowMissing bool, data any, msg string) *clientGoResult {
	for range 200 {
		up := jsonpath.New("fuzz").AllowMissingKeys(allowMissing)
		if up.Parse(text) != nil {
			return nil
		}
		results, err := up.FindResults(data)
		if (msg == "" && err == nil) || (err != nil && err.Error() == msg) {
			return &clientGoResult{results}
		}
	}
	return nil
}

// clientGoResult is the outcome of one run of clientGoRun.
type clientGoResult struct{ results [][]reflect.Value }

// preserveInts turns the json.Numbers of a decoded value into int64 or
// float64, as the API server's decoder does.
func preserveInts(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = preserveInts(x)
		}
	case []any:
		for i, x := range v {
			v[i] = preserveInts(x)
		}
	case json.Number:
		if n, err := v.Int64(); err == nil {
			return n
		}
		x, _ := v.Float64()
		return x
	}
	return v
}
