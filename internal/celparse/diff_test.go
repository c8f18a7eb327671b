package celparse

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"google.golang.org/protobuf/proto"
)

// edgeCases are texts written for the corners of the grammar: signs,
// numbers, strings and escapes, optional syntax, message construction,
// macros, errors.
var edgeCases = []string{
	"-1", "--1", "---1", "- 1", "-(1)", "-1u", "-0x1", "-0x8000000000000000", "-9223372036854775808",
	"9223372036854775808", "9223372036854775807", "0x7fffffffffffffff", "0xffffffffffffffff", "0x10000000000000000",
	"18446744073709551615u", "18446744073709551616u", "0xffffffffffffffffu", "1U", "0x1u",
	"-1.5", "--1.5", ".5", "-.5", "1e3", "1E-3", "1.5e+3", "1e400", "-1e400", "1e-400", "1.", "1.e3", "1..5", "1.5.a", "1.0.size()", "0X1", "1.5u", "1in [1]", "1.5.?b", "-2.5.?b",
	"-1.y", "-1[0]", "-1 .y", "!-1", "!!-1", "!--1", "!!x", "!!!x", "1 - -1", "1--1", "1-1", "-x.y", "--x", "-!x",
	"a ? b : c ? d : e", "a ? b ? c : d : e", "a || b || c || d || e", "a && b && c && d", "a || b && c",
	"a < b < c", "a in b in c", "a + b * c - d / e % f", "(a + b) * c", "((((x))))",
	`"a"`, `'a'`, `"""a"b"""`, `'''a'b'''`, `r"\n"`, `R'\x'`, `b"abc"`, `B'\xff\377'`, `br"\n"`, `b"\u00ff"`,
	`"\u00ff\U0001F600\x41\101\a\b\f\n\r\t\v\\\'\"\?\` + "`" + `"`, `"\ud800"`, `"\400"`, `"\8"`, `"é"`, `"日本"`,
	"\"\"\"a\nb\"\"\"", "'a\nb'", "\"a\r\nb\"", "r'''x\ny'''",
	"a.?b", "a[?b]", "[?a, b]", "{?a: b}", "A{?a: b}", "a.?b.c", "a.?b(c)", "x.optMap(y, y + 1)", "x.optFlatMap(y, y)",
	"a.b{c: 1}", ".a.b{c: 1, d: 2,}", "a{}", "a{,}", "[,]", "{,}", "[1,]", "{1: 2,}", "f(a,)", "f()", ".f(a)", ".a.b",
	"a.b.c(d, e)", "a.if", "if", "a.in", "in", "x.namespace", "namespace", "namespace(1)", "A{if: 1}",
	"has(a.b)", "has(a)", "has(a.b.c)", "[1].all(x, x > 0)", "[1].all(1, x)", "[1].exists_one(x, x)", "[1].map(x, x)",
	"[1].map(x, x > 0, x)", "[1].filter(x, x)", "{1: 2}.all(k, v, k < v)", "[1].existsOne(i, v, v > 0)",
	"[1].transformList(i, v, v)", "[1].transformList(i, v, v > 0, v)", "{1:2}.transformMap(k, v, v)",
	"{1:2}.transformMapEntry(k, v, {k: v})", "[3, 1].sortBy(x, -x)", "cel.bind(a, 1, a)", "x.all(y, y.all(z, z))",
	"[[1]].map(x, x.map(y, y))", "x.map(y, {y: y}).exists(z, z.filter(w, w))",
	"a // comment\n+ b", "a\n\t+\r\n b\f", "a\v+b", "`a`", "a.`b`", "a ☃ b", "日本", "a = b", "a & b", "a | b", "a ! b",
	"", " ", "()", "(a", "a)", "a[", "a[]", "a.", ".", "..a", "a..b", "{a: 1: 2}", "{a ? b : c : d}", "{a.?b : c}",
	"// é日本\n a + \"日本\" + b // ☃\n + c", "\"é\" + x + \"\"\"日\n本\"\"\" + y", "a.b.c{d: 1}.e", ".a{}", "a.b(c){}", "1 ? 2 : 3", "x ? {a: b} : [c]", "if{}", "a.if{}", ".if(1)", "x.if(1)", "in{}", "true.a", "a.true", "a[1:2]", "{a: b, a: c}", "self.a.b.c[0].d.e['f'].g()", "self.size() > 0 && self.all(x, x.matches('^a$'))",
}

// loadTexts reads a JSON list of texts from testdata.
func loadTexts(t testing.TB, name string) []string {
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	if err := json.Unmarshal(b, &texts); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return texts
}

// allTexts returns every input of the differential tests.
func allTexts(t testing.TB) []string {
	texts := append([]string{}, edgeCases...)
	texts = append(texts, loadTexts(t, "celgo_parser_inputs.json")...)
	return append(texts, loadTexts(t, "rules.json")...)
}

// checkSame asserts what the parser promises for text in env: if it
// parses text, cel-go parses it too, to the same AST; if cel-go fails, the
// parser declined. It returns whether the parser parsed the text and
// whether cel-go did.
func checkSame(t testing.TB, te testEnv, text string) (fast, celgo bool) {
	t.Helper()
	got, ok := te.parser.Parse(text)
	want, iss := te.env.Parse(text)
	celgo = iss.Err() == nil
	if !ok {
		return false, celgo
	}
	if !celgo {
		t.Errorf("%s: %q: parsed, but cel-go fails: %v", te.name, text, iss.Err())
		return true, false
	}
	if got.Source().Content() != want.Source().Content() || got.Source().Description() != want.Source().Description() ||
		!equalInts(got.Source().LineOffsets(), want.Source().LineOffsets()) {
		t.Errorf("%s: %q: sources differ", te.name, text)
	}
	pg, err1 := cel.AstToParsedExpr(got)
	pw, err2 := cel.AstToParsedExpr(want)
	if err1 != nil || err2 != nil {
		t.Fatalf("%s: %q: to proto: %v, %v", te.name, text, err1, err2)
	}
	if !proto.Equal(pg, pw) {
		t.Errorf("%s: %q: ASTs differ:\n got %v\nwant %v", te.name, text, pg, pw)
	} else if !equalAST(got.NativeRep(), want.NativeRep()) {
		t.Errorf("%s: %q: offset ranges differ:\n got %v\nwant %v", te.name, text,
			got.NativeRep().SourceInfo().OffsetRanges(), want.NativeRep().SourceInfo().OffsetRanges())
	}
	return true, true
}

func equalInts(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestDifferential compares the parser with cel-go's on every input in
// every test environment, and reports how many of the corpus rules cel-go
// parses fall back: it fails beyond 1%.
func TestDifferential(t *testing.T) {
	inputs := append(append([]string{}, edgeCases...), loadTexts(t, "celgo_parser_inputs.json")...)
	rules := loadTexts(t, "rules.json")
	for _, te := range testEnvs() {
		if !te.parser.ok {
			t.Fatalf("%s: the parser's probe failed: it would always decline", te.name)
		}
		parsed, inputsCelgo := 0, 0
		for _, text := range inputs {
			f, c := checkSame(t, te, text)
			if f {
				parsed++
			}
			if c {
				inputsCelgo++
			}
		}
		celgo, fast := 0, 0
		var declined []string
		for _, text := range rules {
			f, c := checkSame(t, te, text)
			if c {
				celgo++
			}
			if f {
				fast++
			} else if c {
				declined = append(declined, text)
			}
		}
		t.Logf("%s: edge cases and cel-go's parser test inputs: cel-go parses %d of %d, the parser %d; corpus rules: cel-go parses %d of %d, the parser %d (%d fall back)",
			te.name, inputsCelgo, len(inputs), parsed, celgo, len(rules), fast, len(declined))
		for i, d := range declined {
			if i == 10 {
				break
			}
			t.Logf("  falls back: %q", d)
		}
		if len(declined)*100 > celgo {
			t.Errorf("%s: the parser falls back on %d of the %d corpus rules cel-go parses, more than 1%%", te.name, len(declined), celgo)
		}
	}
}

// TestCheckSame type-checks the parser's ASTs and cel-go's: the checked
// ASTs and the issues' texts must be the same. It runs in one
// environment of each parser configuration (parserEnvs).
func TestCheckSame(t *testing.T) {
	texts := allTexts(t)
	for _, te := range parserEnvs() {
		for _, text := range texts {
			got, ok := te.parser.Parse(text)
			if !ok {
				continue
			}
			want, iss := te.env.Parse(text)
			if iss.Err() != nil {
				continue // TestDifferential reports it
			}
			cg, ig := te.env.Check(got)
			cw, iw := te.env.Check(want)
			if ig.String() != iw.String() {
				t.Errorf("%s: %q: issues differ:\n got %s\nwant %s", te.name, text, ig, iw)
				continue
			}
			if (cg == nil) != (cw == nil) {
				t.Errorf("%s: %q: checked %v, cel-go's %v", te.name, text, cg != nil, cw != nil)
				continue
			}
			if cg == nil {
				continue
			}
			pg, err1 := ast.ToProto(cg.NativeRep())
			pw, err2 := ast.ToProto(cw.NativeRep())
			if err1 != nil || err2 != nil {
				t.Fatalf("%s: %q: to proto: %v, %v", te.name, text, err1, err2)
			}
			if !proto.Equal(pg, pw) {
				t.Errorf("%s: %q: checked ASTs differ", te.name, text)
			}
		}
	}
}

// FuzzParse checks the parser against cel-go's on any text, in one
// environment of each parser configuration (parserEnvs): never a panic,
// and a text it parses is one cel-go parses to the same AST.
func FuzzParse(f *testing.F) {
	for _, s := range allTexts(f) {
		f.Add(s)
	}
	envs := parserEnvs()
	f.Fuzz(func(t *testing.T, text string) {
		for _, te := range envs {
			checkSame(t, te, text)
		}
	})
}
