package jsonpath

import (
	"encoding/json"
	"strings"
	"testing"
)

// decode turns JSON text into the data model of encoding/json, with
// integers kept as int64 as Kubernetes decoders keep them.
func decode(t testing.TB, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("bad test JSON: %v", err)
	}
	return ints(v)
}

func ints(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = ints(e)
		}
	case []any:
		for i, e := range x {
			x[i] = ints(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

const storeJSON = `{
  "name": "jsonpath",
  "book": [
    {"category": "reference", "author": "Nigel Rees", "title": "Sayings of the Century", "price": 8.95},
    {"category": "fiction", "author": "Evelyn Waugh", "title": "Sword of Honour", "price": 12.99},
    {"category": "fiction", "author": "Herman Melville", "title": "Moby Dick", "price": 8.99}
  ],
  "bicycle": [
    {"color": "red", "price": 19.95, "isNew": true},
    {"color": "green", "price": 20.01, "isNew": false}
  ],
  "labels": {"engineer": 10, "web/html": 15, "k8s-app": 20},
  "employees": {"jason": "manager", "dan": "clerk"}
}`

const nodesJSON = `{
  "kind": "List",
  "items": [
    {"kind": "None",
     "metadata": {"name": "127.0.0.1", "labels": {"kubernetes.io/hostname": "127.0.0.1"}},
     "status": {"capacity": {"cpu": "4"}, "ready": true,
                "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.1"}]}},
    {"kind": "None",
     "metadata": {"name": "127.0.0.2", "labels": {"kubernetes.io/hostname": "127.0.0.2"}},
     "status": {"capacity": {"cpu": "8"}, "ready": false,
                "addresses": [{"type": "LegacyHostIP", "address": "127.0.0.2"},
                              {"type": "another", "address": "127.0.0.3"}]}}
  ],
  "users": [
    {"name": "myself", "user": {}},
    {"name": "e2e", "user": {"username": "admin", "password": "secret"}}
  ]
}`

const typesJSON = `{
  "bools": [true, false, true, false],
  "integers": [1, 2, 3, 4],
  "floats": [1.0, 2.2, 3.3, 4.0],
  "strings": ["one", "two", "three", "four"],
  "mixed": [true, "one", 1, 1.1],
  "maps": [{"name": "one", "value": 1}, {"name": "two", "value": 2.02},
           {"name": "three", "value": 3.03}, {"name": "four", "value": 4.04}],
  "points": [
    {"id": "i1", "x": 4, "y": -5},
    {"id": "i2", "x": -2, "y": -5, "z": 1},
    {"id": "i3", "x": 8, "y": 3},
    {"id": "i4", "x": -6, "y": -1},
    {"id": "i5", "x": 0, "y": 2, "z": 1},
    {"id": "i6", "x": 1, "y": 4},
    {"id": "i7", "x": null, "y": 4}
  ],
  "empty": [],
  "s": "ab",
  "html": "<a&b>",
  "nested": {"m": {"<k>": "v&"}, "n": null}
}`

type execCase struct {
	template string
	data     string // JSON
	want     string
	wantErr  string // exact error text; "" means success
}

func runExec(t *testing.T, cases []execCase, allowMissing bool) {
	t.Helper()
	for _, c := range cases {
		tmpl, err := Parse("test", c.template)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.template, err)
			continue
		}
		tmpl = tmpl.AllowMissingKeys(allowMissing)
		var data any
		if c.data != "" {
			data = decode(t, c.data)
		}
		got, err := tmpl.ExecuteString(data)
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("%q: error %v, want %q", c.template, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: unexpected error %v", c.template, err)
			continue
		}
		if got != c.want {
			t.Errorf("%q: got %q, want %q", c.template, got, c.want)
		}
	}
}

func TestSlicesAndTypes(t *testing.T) {
	runExec(t, []execCase{
		{`{ .bools }`, typesJSON, `[true,false,true,false]`, ""},
		{`{ .bools[0] }`, typesJSON, `true`, ""},
		{`{ .bools[-1] }`, typesJSON, `false`, ""},
		{`{ .bools[0:2] }`, typesJSON, `true false`, ""},
		{`{ .bools[:2] }`, typesJSON, `true false`, ""},
		{`{ .bools[:4:2] }`, typesJSON, `true true`, ""},
		{`{ .integers }`, typesJSON, `[1,2,3,4]`, ""},
		{`{ .integers[-2] }`, typesJSON, `3`, ""},
		{`{ .integers[:4:2] }`, typesJSON, `1 3`, ""},
		{`{ .floats }`, typesJSON, `[1,2.2,3.3,4]`, ""},
		{`{ .floats[0] }`, typesJSON, `1`, ""},
		{`{ .floats[-2] }`, typesJSON, `3.3`, ""},
		{`{ .strings[0:2] }`, typesJSON, `one two`, ""},
		{`{ .strings[:4:2] }`, typesJSON, `one three`, ""},
		{`{ .mixed }`, typesJSON, `[true,"one",1,1.1]`, ""},
		{`{ .mixed[:4:2] }`, typesJSON, `true 1`, ""},
		{`{ .maps[0] }`, typesJSON, `{"name":"one","value":1}`, ""},
		{`{ .maps[::2] }`, typesJSON, `{"name":"one","value":1} {"name":"three","value":3.03}`, ""},
		{`{ .maps[1::2] }`, typesJSON, `{"name":"two","value":2.02} {"name":"four","value":4.04}`, ""},
		{`{ .maps[*].name }`, typesJSON, `one two three four`, ""},
		{`{.html}`, typesJSON, `<a&b>`, ""},
		{`{.nested.m}`, typesJSON, `{"\u003ck\u003e":"v\u0026"}`, ""},
		{`{.nested.n}`, typesJSON, `null`, ""},
		{`{.s.*}`, typesJSON, `97 98`, ""},
		{`{.points[-1]['x']}`, typesJSON, `null`, ""},
		{`{.points[0]['id']}`, typesJSON, `i1`, ""},
	}, false)
}

func TestStore(t *testing.T) {
	runExec(t, []execCase{
		{"hello jsonpath", storeJSON, "hello jsonpath", ""},
		{"{..}", `[1,2,3]`, "[1,2,3]", ""},
		{"{[?(@<5)]}", `[2,6,3,7]`, "2 3", ""},
		{`{"{"}`, "", "{", ""},
		{"{[1,3,4]}", `[0,1,2,3,4]`, "1 3 4", ""},
		{"{[0:2]}", `["Monday","Tuesday"]`, "Monday Tuesday", ""},
		{"hello {.name}", storeJSON, "hello jsonpath", ""},
		{"{$.labels.web/html}", storeJSON, "15", ""},
		{"{$.employees.jason}", storeJSON, "manager", ""},
		{"{.labels.k8s-app}", storeJSON, "20", ""},
		{"{.bicycle[*].color}", storeJSON, "red green", ""},
		{"{.book[*].author}", storeJSON, "Nigel Rees Evelyn Waugh Herman Melville", ""},
		{`{range .bicycle[*]}{ "{" }{ @.* }{ "} " }{end}`, storeJSON, "{red true 19.95} {green false 20.01} ", ""},
		{"{..price}", storeJSON, "19.95 20.01 8.95 12.99 8.99", ""},
		{"{...price}", storeJSON, "19.95 20.01 8.95 12.99 8.99", ""},
		{"{.book[-1:]}", storeJSON, `{"author":"Herman Melville","category":"fiction","price":8.99,"title":"Moby Dick"}`, ""},
		{"{..book[2].title}", storeJSON, `Moby Dick`, ""},
		{"{.bicycle[?(@.isNew==true)].color}", storeJSON, `red`, ""},
		{"{.bicycle[?(@.price>20.0)].color}", storeJSON, `green`, ""},
		{"{.bicycle[?(@.price<=19.95)].color}", storeJSON, `red`, ""},
		{"{.bicycle[?(@.price>=19.95)].color}", storeJSON, `red green`, ""},
		{"{.bicycle[?(@.color!='red')].color}", storeJSON, `green`, ""},
		{"{.book[?(@.price<10.0)].title}", storeJSON, `Sayings of the Century Moby Dick`, ""},
		// Errors during evaluation.
		{"{hello}", storeJSON, "", "unrecognized identifier hello"},
		{"{.hello}", storeJSON, "", "hello is not found"},
		{"{.labels[0]}", storeJSON, "", "map[string]interface {} is not array or slice"},
		{"{.book[?(@.price<>10)]}", storeJSON, "", "unrecognized filter operator <>"},
		{"{range .labels.*}{@}{end}{end}", storeJSON, "", "not in range, nothing to end"},
		{"{.name[?(@.x)]}", storeJSON, "", "jsonpath is not array or slice and cannot be filtered"},
		{"{.book[?(@.price==8)]}", storeJSON, "", "incompatible types for comparison"},
		{"{.book[?(@.price==true)]}", storeJSON, "", "incompatible types for comparison"},
		{"{.bicycle[?(@.isNew<true)]}", storeJSON, "", "invalid type for comparison"},
		{"{.book[?(@.nothing==1)]}", storeJSON, "", "nothing is not found"},
		{"{.book[?(@.*==1)]}", storeJSON, "", "can only compare one element at a time"},
		{"{.book[9]}", storeJSON, "", "array index out of bounds: index 9, length 3"},
		{"{.book[0:9]}", storeJSON, "", "array index out of bounds: index 8, length 3"},
		{"{.book[2:1]}", storeJSON, "", "starting index 2 is greater than ending index 1"},
		{"{.book[0:3:0]}", storeJSON, "", "step must be > 0"},
		{"{.book[0:3:-1]}", storeJSON, "", "step must be > 0"},
	}, false)
}

func TestMissingKeysAllowed(t *testing.T) {
	runExec(t, []execCase{
		{"{.hello}", storeJSON, "", ""},
		{"before-{.hello}after", storeJSON, "before-after", ""},
		{`{.items[?(@.metadata.annotations.color=="blue")].metadata.name}`,
			`{"items":[{"metadata":{"name":"pod1","annotations":{"color":"blue"}}},{"metadata":{"name":"pod2"}},
			  {"metadata":{"name":"pod3","annotations":{"color":"green"}}},{"metadata":{"name":"pod4","annotations":{"color":"blue"}}}]}`,
			"pod1 pod4", ""},
		{`{range .items[*]}{.metadata.name}{end}`, `{"items":[]}`, "", ""},
		{`{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}`, `{"items":[]}`, "", ""},
		{`{range .items[?(.status.phase=="Running")]}{.metadata.name}{" is Running\n"}{end}`,
			`{"items":[{"metadata":{"name":"pod1"},"status":{"phase":"Running"}},{"metadata":{"name":"pod2"},"status":{"phase":"Pending"}},{"resourceVersion":""}]}`,
			"pod1 is Running\n", ""},
	}, true)
	// Without AllowMissingKeys, the filter fails on the object without
	// annotations, and an empty range still walks its body once.
	runExec(t, []execCase{
		{`{.items[?(@.metadata.annotations.color=="blue")].metadata.name}`,
			`{"items":[{"metadata":{"name":"pod1","annotations":{"color":"blue"}}},{"metadata":{"name":"pod2"}}]}`,
			"", "annotations is not found"},
		{`{range .items[*]}{.metadata.name}{end}`, `{"items":[]}`, "", "metadata is not found"},
	}, false)
}

func TestKubernetesList(t *testing.T) {
	runExec(t, []execCase{
		{`{range .items[*]}{.metadata.name}, {end}{.kind}`, nodesJSON, "127.0.0.1, 127.0.0.2, List", ""},
		{`{range .items[*]}{.metadata.name}{"\t"}{end}`, nodesJSON, "127.0.0.1\t127.0.0.2\t", ""},
		{`{.items[*].status.addresses[*].address}`, nodesJSON, "127.0.0.1 127.0.0.2 127.0.0.3", ""},
		{`{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}`, nodesJSON, "127.0.0.1, 127.0.0.2, 127.0.0.3, ", ""},
		{`{.items[*]['metadata.name', 'status.capacity']}`, nodesJSON, `127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}`, ""},
		{`{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}`, nodesJSON, `[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] `, ""},
		{`{.users[?(@.name=="e2e")].user.password}`, nodesJSON, "secret", ""},
		{`{.items[0].metadata.labels.kubernetes\.io/hostname}`, nodesJSON, "127.0.0.1", ""},
		{`{.items[?(@.metadata.labels.kubernetes\.io/hostname=="127.0.0.1")].kind}`, nodesJSON, "None", ""},
		{`{.items[?(@..ready==true)].metadata.name}`, nodesJSON, "127.0.0.1", ""},
		{`{..name}`, nodesJSON, "127.0.0.1 127.0.0.2 myself e2e", ""},
		{`{.items[*].status.addresses[?(@.type=="another")].address}`, nodesJSON, "127.0.0.3", ""},
		// A range without {end} runs its body per value, then once more on the
		// data itself.
		{`{range .users[*]}{.name} `, nodesJSON, "", "name is not found"},
	}, false)
}

func TestRangeQuirks(t *testing.T) {
	runExec(t, []execCase{
		{`{range .users[*]}{.name} {end}`, nodesJSON, "myself e2e ", ""},
		{`{range .users[*]}<{.name}>`, nodesJSON, "<myself><e2e><>", ""},
		{`{range .xs[*]}{@}{end}`, `{"xs":[1,null,"a"]}`, "1<no value>a", ""},
		{`{@}`, "", "<no value>", ""},
	}, true)
}

func TestNestedRanges(t *testing.T) {
	data := `{"items": [
	  {"metadata": {"name": "pod1"}, "spec": {"containers": [
	    {"name": "foo", "another": [{"name": "value1"}, {"name": "value2"}]},
	    {"name": "bar", "another": [{"name": "value1"}, {"name": "value2"}]}]}},
	  {"metadata": {"name": "pod2"}, "spec": {"containers": [
	    {"name": "baz", "another": [{"name": "value1"}, {"name": "value2"}]}]}}]}`
	runExec(t, []execCase{
		{`{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}`,
			data, "pod1:foo,bar,+pod2:baz,+", ""},
		{`{range .items[*]}{.metadata.name}{"~"}{range @.spec.containers[*]}{.name}{":"}{range @.another[*]}{.name}{","}{end}{"+"}{end}{"#"}{end}`,
			data, "pod1~foo:value1,value2,+bar:value1,value2,+#pod2~baz:value1,value2,+#", ""},
		{`{range .items[*]}{.metadata.name}{"\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\n"}{end}`,
			data, "pod1\tfoo bar \tfoo bar \npod2\tbaz \tbaz \n", ""},
	}, false)
}

func TestIndexesAndSteps(t *testing.T) {
	data := `{"c":[{"name":"f0"},{"name":"f1"},{"name":"f2"},{"name":"f3"},{"name":"f4"},{"name":"f5"}], "e": [], "l": [[], [1]]}`
	runExec(t, []execCase{
		{`{.c[0].name}`, data, "f0", ""},
		{`{.c[0:0].name}`, data, "", ""},
		{`{.c[0:-1].name}`, data, "f0 f1 f2 f3 f4", ""},
		{`{.c[-1:0].name}`, data, "", "starting index 5 is greater than ending index 0"},
		{`{.c[-1].name}`, data, "f5", ""},
		{`{.c[-1:].name}`, data, "f5", ""},
		{`{.c[-6].name}`, data, "f0", ""},
		{`{.c[-7].name}`, data, "", "array index out of bounds: index -1, length 6"},
		{`{.c[7:7].name}`, data, "", ""},
		{`{.c[-7:-7].name}`, data, "", ""},
		{`{.c[3:1].name}`, data, "", "starting index 3 is greater than ending index 1"},
		{`{.c[0:].name}`, data, "f0 f1 f2 f3 f4 f5", ""},
		{`{.c[0:6:].name}`, data, "f0 f1 f2 f3 f4 f5", ""},
		{`{.c[1:4:2].name}`, data, "f1 f3", ""},
		{`{.c[1:4:4].name}`, data, "f1", ""},
		{`{.c[0:6:5].name}`, data, "f0 f5", ""},
		{`{.c[*].name}`, data, "f0 f1 f2 f3 f4 f5", ""},
		{`{.c[]}`, data, `{"name":"f0"}`, ""},
		{`{.e[0]}`, data, "", "array index out of bounds: index 0, length 0"},
		{`{.e[*]}`, data, "", ""},
		// An empty selection stops the step for the remaining inputs.
		{`{.l[*][*]}`, data, "", ""},
		{`{.c[0,2].name}`, data, "f0 f2", ""},
		{`{.c[0, -1].name}`, data, "f0 f5", ""},
		{`{.c[0:2,4:].name}`, data, "f0 f1 f4 f5", ""},
	}, false)
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ template, want string }{
		{"{", "unclosed action"},
		{"{.a", "unclosed action"},
		{"{.a\n}", "unclosed action"},
		{"{.a[0}", "unterminated array"},
		{"{.a[0\n]}", "unterminated array"},
		{"{.a[x]}", "invalid array index x"},
		{"{.a[1:2:3:4]}", "invalid array index 1:2:3:4"},
		{"{.a[-]}", "array index - is not a number"},
		{"{.a[99999999999999999999]}", "array index 99999999999999999999 is not a number"},
		{"{.a[?(@.b==1}", "unterminated filter"},
		{"{.a[?(@.b==1)}", "unclosed array expect ]"},
		{`{"abc}`, "unterminated quoted string"},
		{`{'a\qb'}`, `unquote string 'a\qb' error invalid syntax`},
		{"{....a}", "invalid multiple recursive descent"},
		{"{#}", "unrecognized character in action: U+0023 '#'"},
		{"{.a\t}", "unrecognized character in action: U+0009"},
		{"{1.2.3}", "cannot parse number 1.2.3"},
		{"{+}", "cannot parse number +"},
		{"{.a[1,x]}", "invalid array index x"},
		{"{.a[?(@.b[x]==1)]}", "invalid array index x"},
		{"{['{']}", "unrecognized character in action: U+007B '{'"},
	}
	for _, c := range cases {
		_, err := Parse("test", c.template)
		if err == nil || err.Error() != c.want {
			t.Errorf("Parse(%q) error = %v, want %q", c.template, err, c.want)
		}
	}
}

func TestParseAccepts(t *testing.T) {
	for _, s := range []string{
		"", "plain", "{}", "{ }", "{.}", "{$}", "{@}", "{.a.b}", "{.a[*]}", "{.a['b']}",
		"{..a}", "{.a[?(@.b)]}", `{.a[?(@.b=="x)")]}`, "{range .a[*]}{.b}{end}", "{true}", "{-1.5}", "{['']}",
		"{['}']}", "{.a}}", "}{.a}",
	} {
		if _, err := Parse("test", s); err != nil {
			t.Errorf("Parse(%q): %v", s, err)
		}
	}
}

func TestLongTemplates(t *testing.T) {
	// Tokens are scanned in a loop, not by recursion, so long templates
	// parse and evaluate.
	long := "{" + strings.Repeat(".a", 100000) + "}"
	tmpl, err := Parse("long", long)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := tmpl.AllowMissingKeys(true).ExecuteString(decode(t, `{"a":{"a":"x"}}`)); err != nil || got != "" {
		t.Fatalf("got %q, %v", got, err)
	}
	// Nested filters cannot close, whatever their depth.
	deep := "{.a" + strings.Repeat("[?(@.a", 200) + strings.Repeat(")]", 200) + "}"
	if _, err := Parse("deep", deep); err == nil || err.Error() != "unterminated filter" {
		t.Fatalf("nested filters: %v", err)
	}
	// Recursive descent into deeply nested data is bounded.
	var v any = "leaf"
	for i := 0; i < maxDepth+10; i++ {
		v = []any{v}
	}
	if _, err := MustParse("r", "{..x}").FindResults(v); err == nil {
		t.Fatal("no error for data nested deeper than maxDepth")
	}
}

func TestTemplateReusable(t *testing.T) {
	tmpl := MustParse("r", `{range .users[*]}{.name},{end}`)
	data := decode(t, nodesJSON)
	for i := 0; i < 3; i++ {
		got, err := tmpl.ExecuteString(data)
		if err != nil || got != "myself,e2e," {
			t.Fatalf("run %d: %q, %v", i, got, err)
		}
	}
}

func TestFindResults(t *testing.T) {
	tmpl := MustParse("f", "x{.a[*]}{.b}").AllowMissingKeys(true)
	res, err := tmpl.FindResults(decode(t, `{"a":[1,"s"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 || len(res[0]) != 1 || res[0][0] != "x" || len(res[1]) != 2 || res[1][0] != int64(1) || len(res[2]) != 0 {
		t.Fatalf("FindResults = %#v", res)
	}
}

func TestValueBudget(t *testing.T) {
	zeros := strings.TrimSuffix(strings.Repeat("0,", 1500), ",")
	tmpl := MustParse("big", "{["+zeros+"]["+zeros+"]}")
	_, err := tmpl.FindResults(decode(t, `[[1]]`))
	if err == nil || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("error = %v, want the value budget error", err)
	}
}
