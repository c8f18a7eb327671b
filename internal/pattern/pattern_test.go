package pattern

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/crdschema/crdschema/internal/readall"
)

// eager compiles expr and builds its automaton at once.
func eager(tb testing.TB, expr string) *Matcher {
	tb.Helper()
	m, err := Compile(expr)
	if err != nil {
		tb.Fatalf("Compile(%q): %v", expr, err)
	}
	m.build()
	return m
}

// usesDFA reports whether m has an automaton.
func (m *Matcher) usesDFA() bool {
	d := m.dfa.Load()
	return d != nil && d.next != nil
}

// kubernetesPatterns are patterns of the Gateway API and of Kubernetes
// that must take the automaton.
var kubernetesPatterns = []string{
	"^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$",
	`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`,
	`^([0-9]{1,5}(h|m|s|ms)){1,4}$`,
	`^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$`,
	`^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`,
	`^/[A-Za-z0-9\/\-._~%!$&'()*+,;=:]*$`,
	`^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`,
	`^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?$|[a-zA-Z0-9]+(\.[a-zA-Z0-9]+)*`,
	`^(?:[0-9]{1,3}\.){3}[0-9]{1,3}$`,
	`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`,
	`[a-z]+`,
	``,
	`^`,
	`$`,
	`a*`,
	`\Aabc\z`,
	`(|^)x$`,
	`$^`,
	`x*$`,
	`(?s)^.*$`,
	`^.+$`,
	`^[^/]+$`,
	`(?i)k`,
	`(?i)^s+$`,
	`\pL`,
	`^é+$`,
	`[\x{80}-\x{10FFFF}]`,
	`\x{FFFD}`,
	`[^a]`,
}

// repoRoot is the repository's root, seen from this package.
const repoRoot = "../.."

// corpusDir finds the shared corpus of real CRDs, which lies beside the
// repository (or beside the folder holding its worktrees); "" when absent.
func corpusDir() string {
	dir, err := filepath.Abs(repoRoot)
	if err != nil {
		return ""
	}
	for range 4 {
		dir = filepath.Dir(dir)
		c := filepath.Join(dir, "shared", "corpus")
		if fi, err := os.Stat(c); err == nil && fi.IsDir() {
			return c
		}
	}
	return ""
}

// yamlPatterns returns the pattern keywords of the YAML files under root.
func yamlPatterns(tb testing.TB, root string) []string {
	tb.Helper()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json")) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !strings.Contains(string(data), "pattern") {
			return nil
		}
		docs, err := readall.Objects(data)
		if err != nil {
			return nil // not every file is one this test reads
		}
		for _, doc := range docs {
			collectPatterns(doc, seen)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return sortedKeys(seen)
}

func collectPatterns(v any, seen map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "pattern" {
				seen[s] = true
				continue
			}
			collectPatterns(x, seen)
		}
	case []any:
		for _, x := range v {
			collectPatterns(x, seen)
		}
	}
}

// formatPatterns returns the expressions package validation compiles for
// its formats, read from its source.
func formatPatterns(tb testing.TB) []string {
	tb.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(repoRoot, "validation", "formats.go"), nil, 0)
	if err != nil {
		tb.Fatal(err)
	}
	seen := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || (sel.Sel.Name != "MustCompile" && sel.Sel.Name != "Compile") {
			return true
		}
		if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				seen[s] = true
			}
		}
		return true
	})
	if len(seen) == 0 {
		tb.Fatal("no expressions found in validation/formats.go")
	}
	return sortedKeys(seen)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// inputs returns strings to try on expr: strings generated from its
// syntax (which mostly match), mutations of them, random strings of its
// alphabet, and edge cases.
func inputs(expr string, rng *rand.Rand, n int) []string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	alpha := alphabet(re)
	out := []string{"", "\xff", "\x80", "é", "\n", " ", "\xc3", "\xe2\x82", strings.Repeat("a", 5000)}
	for range n {
		var sb strings.Builder
		generate(re, rng, &sb, 0)
		s := sb.String()
		out = append(out, s, mutate(s, alpha, rng), mutate(mutate(s, alpha, rng), alpha, rng))
		if rng.IntN(8) == 0 {
			out = append(out, s+s, s+"\n", "\n"+s, strings.Repeat(s, 50+rng.IntN(200)))
		}
		var r strings.Builder
		for range rng.IntN(12) {
			r.WriteRune(alpha[rng.IntN(len(alpha))])
		}
		out = append(out, r.String())
	}
	return out
}

// special are runes and bytes every alphabet gets: non-ASCII, invalid
// UTF-8 (as the runes of single bytes written raw by mutate), controls.
var special = []rune{'\n', ' ', 0, 0x7f, 'é', 'K', 'k', 0x212A, 0x17F, 's', 'S', utf8Invalid}

// utf8Invalid stands for the invalid byte 0xff in alphabets.
const utf8Invalid = -1

func alphabet(re *syntax.Regexp) []rune {
	set := map[rune]bool{}
	var walk func(*syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		switch re.Op {
		case syntax.OpLiteral:
			for _, r := range re.Rune {
				set[r] = true
				set[unicode.SimpleFold(r)] = true
			}
		case syntax.OpCharClass:
			for i := 0; i+1 < len(re.Rune); i += 2 {
				lo, hi := re.Rune[i], re.Rune[i+1]
				set[lo], set[hi] = true, true
				if lo > 0 {
					set[lo-1] = true
				}
				if hi < unicode.MaxRune {
					set[hi+1] = true
				}
				set[lo+(hi-lo)/2] = true
			}
		}
		for _, s := range re.Sub {
			walk(s)
		}
	}
	walk(re)
	for _, r := range special {
		set[r] = true
	}
	out := make([]rune, 0, len(set))
	for r := range set {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

func writeRune(sb *strings.Builder, r rune) {
	if r == utf8Invalid {
		sb.WriteByte(0xff)
		return
	}
	sb.WriteRune(r)
}

func generate(re *syntax.Regexp, rng *rand.Rand, sb *strings.Builder, depth int) {
	if depth > 50 || sb.Len() > 2000 {
		return
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 && rng.IntN(2) == 0 {
				r = unicode.SimpleFold(r)
			}
			sb.WriteRune(r)
		}
	case syntax.OpCharClass:
		if len(re.Rune) >= 2 {
			i := rng.IntN(len(re.Rune)/2) * 2
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi-lo > 200 {
				hi = lo + 200
			}
			sb.WriteRune(lo + rng.Int32N(hi-lo+1))
		}
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		if rng.IntN(10) == 0 {
			sb.WriteRune('ü')
		} else {
			sb.WriteByte(byte(' ' + rng.IntN(95)))
		}
	case syntax.OpCapture:
		generate(re.Sub[0], rng, sb, depth+1)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			generate(s, rng, sb, depth+1)
		}
	case syntax.OpAlternate:
		generate(re.Sub[rng.IntN(len(re.Sub))], rng, sb, depth+1)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, 3
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 || hi > lo+3 {
				hi = lo + 3
			}
		}
		if rng.IntN(10) == 0 {
			hi += 2 // sometimes too many
		}
		for range lo + rng.IntN(hi-lo+1) {
			generate(re.Sub[0], rng, sb, depth+1)
		}
	}
}

// mutate inserts, deletes or replaces a byte of s, or replaces it by a
// rune of the alphabet.
func mutate(s string, alpha []rune, rng *rand.Rand) string {
	b := []byte(s)
	i := 0
	if len(b) > 0 {
		i = rng.IntN(len(b) + 1)
	}
	var sb strings.Builder
	writeRune(&sb, alpha[rng.IntN(len(alpha))])
	ins := sb.String()
	if rng.IntN(6) == 0 {
		ins = string([]byte{byte(rng.IntN(256))})
	}
	switch op := rng.IntN(3); {
	case op == 0 || len(b) == 0 || i == len(b):
		return string(b[:i]) + ins + string(b[i:])
	case op == 1:
		return string(b[:i]) + string(b[i+1:])
	default:
		return string(b[:i]) + ins + string(b[i+1:])
	}
}

// differential compares m (automaton built) with regexp on strings made
// for expr and reports whether it took the automaton.
func differential(t *testing.T, expr string, n int) bool {
	t.Helper()
	re, err := regexp.Compile(expr)
	if err != nil {
		if _, err2 := Compile(expr); err2 == nil || err2.Error() != err.Error() {
			t.Errorf("Compile(%q) = %v, regexp.Compile = %v", expr, err2, err)
		}
		return false
	}
	m := eager(t, expr)
	rng := rand.New(rand.NewPCG(uint64(len(expr)), 7))
	fails := 0
	for _, s := range inputs(expr, rng, n) {
		if got, want := m.MatchString(s), re.MatchString(s); got != want {
			t.Errorf("pattern %q, input %q: Matcher %v, regexp %v (automaton: %v)", expr, s, got, want, m.usesDFA())
			if fails++; fails > 5 {
				break
			}
		}
	}
	return m.usesDFA()
}

func TestKubernetesPatterns(t *testing.T) {
	mustDFA := map[string]bool{}
	for _, p := range kubernetesPatterns[:10] {
		mustDFA[p] = true
	}
	for _, p := range kubernetesPatterns {
		if dfa := differential(t, p, 300); mustDFA[p] && !dfa {
			t.Errorf("pattern %q declined, want an automaton", p)
		}
	}
}

func TestFormatPatterns(t *testing.T) {
	n := 0
	ps := formatPatterns(t)
	for _, p := range ps {
		if differential(t, p, 200) {
			n++
		}
	}
	t.Logf("validation/formats.go: %d of %d expressions take the automaton", n, len(ps))
}

func TestConformancePatterns(t *testing.T) {
	ps := yamlPatterns(t, filepath.Join(repoRoot, "conformance", "testdata", "cases"))
	if len(ps) < 10 {
		t.Fatalf("found %d patterns in the conformance cases, want many", len(ps))
	}
	n := 0
	var declined []string
	for _, p := range ps {
		if differential(t, p, 100) {
			n++
		} else {
			declined = append(declined, p)
		}
	}
	t.Logf("conformance cases: %d of %d patterns take the automaton; declined (or invalid): %q", n, len(ps), declined)
}

func TestCorpusPatterns(t *testing.T) {
	dir := corpusDir()
	if dir == "" {
		t.Skip("the shared corpus (shared/corpus beside the repository) is absent")
	}
	ps := yamlPatterns(t, dir)
	if len(ps) < 10 {
		t.Fatalf("found %d patterns in %s, want many", len(ps), dir)
	}
	n := 0
	var declined []string
	for _, p := range ps {
		if differential(t, p, 100) {
			n++
		} else {
			declined = append(declined, p)
		}
	}
	t.Logf("corpus %s: %d of %d patterns take the automaton; declined: %q", dir, n, len(ps), declined)
}

// TestDecline checks that expressions outside the subset, or with too
// many states, fall back to regexp and still answer as it does.
func TestDecline(t *testing.T) {
	for _, p := range []string{
		`\bfoo\b`,
		`\Bx`,
		`(?m)^a$`,
		`(?m)a$`,
		`(a|b)*a(a|b){20}`,          // 2^20 states
		`[a-q][^u-z]{13}x`,          // unanchored: a subset per window
		`^(?:[a-z]{1,63}\.){1,20}$`, // too large a table
	} {
		if differential(t, p, 100) {
			t.Errorf("pattern %q took an automaton, want regexp", p)
		}
	}
}

// TestLazy checks that a Matcher builds its automaton after buildAfter
// matches, answering as regexp before and after, also when goroutines
// race to build it.
func TestLazy(t *testing.T) {
	p := kubernetesPatterns[1]
	m, err := Compile(p)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(p)
	in := inputs(p, rand.New(rand.NewPCG(1, 2)), 40)
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i, s := range in {
				if (i+g)%3 == 0 {
					continue
				}
				if got, want := m.MatchString(s), re.MatchString(s); got != want {
					t.Errorf("input %q: %v, want %v", s, got, want)
				}
			}
		})
	}
	wg.Wait()
	if !m.usesDFA() {
		t.Errorf("no automaton after %d matches", 4*len(in))
	}
	if m.String() != p {
		t.Errorf("String() = %q, want %q", m.String(), p)
	}
}

// invalidPatterns are expressions regexp.Compile refuses.
var invalidPatterns = []string{`(`, `[z-a]`, `a**`, `\8`, `(?P<n>`, `x{1001}`, `((((((((((x{2}){2}){2}){2}){2}){2}){2}){2}){2}){2})`, "\xff(", `[[:foo:]]`, `\pX`}

func TestCompileError(t *testing.T) {
	for _, p := range invalidPatterns {
		_, want := regexp.Compile(p)
		_, got := Compile(p)
		if want == nil || got == nil || got.Error() != want.Error() {
			t.Errorf("Compile(%q) error %v, want %v", p, got, want)
		}
	}
}

func FuzzMatch(f *testing.F) {
	rng := rand.New(rand.NewPCG(3, 4))
	seeds := append([]string{}, kubernetesPatterns...)
	seeds = append(seeds, formatPatterns(f)...)
	seeds = append(seeds, yamlPatterns(f, filepath.Join(repoRoot, "conformance", "testdata", "cases"))...)
	for _, p := range seeds {
		// a generated string and two mutations of it (the edge cases
		// before them are the fuzzer's to find; few seeds keep its
		// baseline short)
		in := inputs(p, rng, 1) // nil for an invalid pattern
		if len(in) < 12 {
			f.Add(p, "a")
			continue
		}
		for _, s := range in[9:12] {
			if len(s) <= 256 {
				f.Add(p, s)
			}
		}
	}
	for _, p := range invalidPatterns {
		f.Add(p, "a")
	}
	f.Fuzz(func(t *testing.T, expr, s string) {
		re, err := regexp.Compile(expr)
		m, err2 := Compile(expr)
		if err != nil {
			if err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("Compile(%q): error %v, regexp.Compile's is %v", expr, err2, err)
			}
			return
		}
		if err2 != nil {
			t.Fatalf("Compile(%q): %v, regexp accepts it", expr, err2)
		}
		m.build()
		if got, want := m.MatchString(s), re.MatchString(s); got != want {
			t.Fatalf("pattern %q, input %q: Matcher %v, regexp %v (automaton: %v)", expr, s, got, want, m.usesDFA())
		}
	})
}

// TestMustCompile checks that MustCompile compiles on first use: an
// invalid expression panics then, with regexp.MustCompile's message, and a
// valid one answers as regexp from the first match on.
func TestMustCompile(t *testing.T) {
	m := MustCompile(`^[a-z`) // no panic yet
	func() {
		defer func() {
			r := recover()
			if r == nil || !strings.Contains(fmt.Sprint(r), "missing closing ]") {
				t.Errorf("first match of an invalid expression: recovered %v, want regexp's panic", r)
			}
		}()
		m.MatchString("a")
	}()
	p := kubernetesPatterns[2]
	m = MustCompile(p)
	re := regexp.MustCompile(p)
	for _, s := range inputs(p, rand.New(rand.NewPCG(5, 6)), 30) {
		if got, want := m.MatchString(s), re.MatchString(s); got != want {
			t.Errorf("input %q: %v, want %v", s, got, want)
		}
	}
	if !m.usesDFA() {
		t.Error("no automaton after many matches")
	}
}
