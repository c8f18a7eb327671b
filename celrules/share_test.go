package celrules

import (
	"archive/tar"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/cel-go/cel"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/readall"
	"github.com/crdschema/crdschema/internal/release"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/structural"
)

// shareCorpus is the shared corpus of real CRDs, beside the repository.
const shareCorpus = "../../../shared/corpus"

// sharedCRDs returns the CRDs of the conformance cases, of crdtest's
// openshift-api archive, of the benchmark corpus and of the shared corpus
// (when it is there), by source.
func sharedCRDs(t *testing.T) map[string][]*crdschema.CustomResourceDefinition {
	out := map[string][]*crdschema.CustomResourceDefinition{}
	// The conformance cases: crd and oldCRD of every case.
	err := filepath.WalkDir("../conformance/testdata/cases", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		objs, err := readall.Objects(b)
		if err != nil || len(objs) != 1 {
			return nil
		}
		for _, k := range []string{"crd", "oldCRD"} {
			v, ok := objs[0][k]
			if !ok {
				continue
			}
			j, err := json.Marshal(v)
			if err != nil {
				return err
			}
			if c, _, err := manifest.UnmarshalCRD(j); err == nil {
				out["conformance"] = append(out["conformance"], c)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// openshift/api's CRD manifests.
	if f, err := os.Open("../crdtest/testdata/openshift-api.tar.gz"); err != nil {
		t.Logf("openshift-api suites not tested: %v", err)
	} else {
		defer f.Close()
		gz, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		tr := tar.NewReader(gz)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if h.Typeflag != tar.TypeReg || !strings.HasSuffix(h.Name, ".yaml") {
				continue
			}
			b, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			if crds, err := readall.CRDs(b); err == nil {
				out["openshift-api"] = append(out["openshift-api"], crds...)
			}
		}
	}
	// The benchmark corpus.
	files, _ := filepath.Glob("../bench/testdata/crds/*.yaml.gz")
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(zr)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if crds, err := readall.CRDs(b); err == nil {
			out["bench corpus"] = append(out["bench corpus"], crds...)
		}
	}
	// The shared corpus.
	if _, err := os.Stat(shareCorpus); err != nil {
		fmt.Printf("the shared corpus is not tested: %v\n", err)
		return out
	}
	err = filepath.WalkDir(shareCorpus, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".json")) {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if crds, err := readall.CRDs(b); err == nil {
			out["shared corpus"] = append(out["shared corpus"], crds...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// ruleNode is a schema node with rules, and its CEL type at a release.
type ruleNode struct {
	s  *structural.Schema
	dt *declType
}

// ruleNodeTypes gives the types of ruleNodes their ids, the same in every
// call.
var ruleNodeTypes typeInterner

// ruleNodes returns the distinct nodes with rules (by rules and full type)
// of the CRDs' schemas at release rel.
func ruleNodes(crds []*crdschema.CustomResourceDefinition, rel release.Minor, seen map[string]bool) []ruleNode {
	var out []ruleNode
	var walk func(s *structural.Schema, root bool, depth int)
	walk = func(s *structural.Schema, root bool, depth int) {
		if s == nil || depth > maxSchemaDepth {
			return
		}
		if len(s.XValidations) > 0 {
			if dt := (*Cache)(nil).declTypeAt(s, root || s.XEmbeddedResource, rel); dt != nil {
				k := rulesKey(s.XValidations, &config{}) + fmt.Sprint(ruleNodeTypes.ids(dt).full)
				if !seen[k] {
					seen[k] = true
					out = append(out, ruleNode{s, dt})
				}
			}
		}
		names := make([]string, 0, len(s.Properties))
		for k := range s.Properties {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			walk(s.Properties[k], false, depth+1)
		}
		walk(s.Items, false, depth+1)
		if s.AdditionalProperties != nil {
			walk(s.AdditionalProperties.Schema, false, depth+1)
		}
	}
	for _, c := range crds {
		for _, v := range c.Spec.Versions {
			if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			s, err := structural.New(v.Schema.OpenAPIV3Schema)
			if err != nil {
				continue
			}
			walk(s, true, 0)
		}
	}
	return out
}

var selfTypeNames = regexp.MustCompile(`selfType[0-9]+`)

// astText renders a checked AST whole: expressions, types, references
// and source information, with the object type names normalised.
func astText(t *testing.T, a *cel.Ast) string {
	if a == nil {
		return "<nil>"
	}
	ce, err := cel.AstToCheckedExpr(a)
	if err != nil {
		t.Fatal(err)
	}
	return selfTypeNames.ReplaceAllString(prototext.Format(ce), "selfType") + "\noutput " + selfTypeNames.ReplaceAllString(a.OutputType().String(), "selfType")
}

// compiledText renders everything compiling a rule gives that does not
// depend on the environment's identity.
func compiledText(t *testing.T, cr *compiledRule) string {
	detail := func(e string) string {
		if e == "" {
			return "-"
		}
		return selfTypeNames.ReplaceAllString(e, "selfType")
	}
	return fmt.Sprintf("err %s\ncompiled %v cost %d unbounded %q oldSelf %v\nast %s\nmessageErr %s\nmessageCompiled %v cost %d unbounded %q\nmessageAST %s\nprogram %v message %v",
		detail(cr.rule.err), cr.rule.compiled, cr.rule.maxCost, cr.rule.unbounded, cr.usesOldSelf, astText(t, cr.rule.ast),
		detail(cr.message.err), cr.message.compiled, cr.message.maxCost, cr.message.unbounded, astText(t, cr.message.ast),
		cr.rule.program != nil, cr.message.program != nil)
}

// TestSharedChecksDifferential compiles every rule and messageExpression
// of the conformance cases, openshift/api's CRDs and the corpora at every
// release, in the environments of new expressions (as CRD validation
// does) and of stored expressions (as a resource does), through a Cache
// that shares checks between them and through one that does not, and
// checks that both give the same checked ASTs, errors, output types and
// cost estimates. It also checks that sharing happens: at 1.37 most
// stored checks are those of new expressions.
func TestSharedChecksDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("the differential test of shared checks compiles every rule of the corpora five times over (not in -short)")
	}
	if raceEnabled {
		t.Skip("-race: the differential test of shared checks runs one goroutine for minutes; it runs without -race (TestSharedChecksConcurrent runs with it)")
	}
	sources := sharedCRDs(t)
	var crds []*crdschema.CustomResourceDefinition
	names := make([]string, 0, len(sources))
	for name := range sources {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Logf("%s: %d CRDs", name, len(sources[name]))
		crds = append(crds, sources[name]...)
	}
	for rel := release.Oldest; rel <= release.Newest; rel++ {
		t.Run(rel.String(), func(t *testing.T) {
			nodes := ruleNodes(crds, rel, map[string]bool{})
			if len(nodes) < 100 {
				t.Fatalf("only %d nodes with rules", len(nodes))
			}
			shared, apart := &Cache{}, &Cache{noShare: true}
			exprs, reused := 0, 0
			for _, n := range nodes {
				// The modes: Check's (new expressions, checkOnly, as CRD
				// validation compiles them first), new expressions
				// compiled fully (Check drops the ASTs to compare), and
				// stored expressions (as a resource compiles them).
				modes := []struct {
					name              string
					stored, checkOnly bool
				}{{"Check", false, true}, {"new", false, false}, {"stored", true, false}}
				var results [2][3][]*compiledRule // [cache][mode]
				for ci, c := range []*Cache{shared, apart} {
					for mi, m := range modes {
						cfg := &config{minor: uint(rel.Compatibility()), release: rel, newExpressions: !m.stored, checkOnly: m.checkOnly, cache: c}
						out, err := compileNode(n.s, n.s.XValidations, n.dt, cfg)
						if err != nil {
							t.Fatalf("%v: %v", n.s.XValidations, err)
						}
						results[ci][mi] = out
					}
				}
				for mi, m := range modes {
					for i := range results[0][mi] {
						got, want := compiledText(t, results[0][mi][i]), compiledText(t, results[1][mi][i])
						if got != want {
							t.Errorf("rule %q (%s): with shared checks\n%s\nwithout\n%s", n.s.XValidations[i].Rule, m.name, got, want)
						}
					}
				}
				results[0][0], results[0][1] = results[0][1], results[0][2] // new, stored
				for i, cr := range results[0][1] {
					if cr.rule.ast != nil {
						exprs++
						if cr.rule.ast == results[0][0][i].rule.ast {
							reused++
						}
					}
				}
			}
			t.Logf("%d nodes, %d rules checked in the stored environment, %d of them shared with new expressions", len(nodes), exprs, reused)
			switch {
			case rel >= 35 && reused < exprs*9/10:
				t.Errorf("%d of %d stored checks shared: want most", reused, exprs)
			case rel < 35 && reused != 0:
				// At 1.33 and 1.34 the environments differ in libraries
				// with types or macros: nothing may be shared.
				t.Errorf("%d of %d stored checks shared: want none", reused, exprs)
			}
		})
	}
}

// TestSharedChecksFlaggedFunctions checks that an expression calling a
// function whose declarations differ between the two environments (at
// 1.37, includes) is checked in each, and compiles or fails as without
// sharing, while expressions calling only functions declared alike (the
// other list functions) are shared.
func TestSharedChecksFlaggedFunctions(t *testing.T) {
	list := listOf(str("string"), "atomic")
	list.ValueValidation = &structural.ValueValidation{MaxItems: i64(10)}
	dt := (*Cache)(nil).declTypeAt(list, false, release.Newest)
	rules := []crdschema.ValidationRule{
		{Rule: "self.includes('a')"},
		{Rule: "self.isSorted()", MessageExpression: "self.includes('b') ? 'b' : 'no b'"},
		{Rule: "self.size() < 5"},
		{Rule: "[self].all(l, l.includes('c'))"},
	}
	for _, c := range []*Cache{{}, {noShare: true}} {
		rel := release.Newest
		newCfg := &config{minor: uint(rel.Compatibility()), release: rel, newExpressions: true, cache: c}
		storedCfg := &config{minor: uint(rel.Compatibility()), release: rel, cache: c}
		fresh, err := compileNode(list, rules, dt, newCfg)
		if err != nil {
			t.Fatal(err)
		}
		stored, err := compileNode(list, rules, dt, storedCfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, i := range []int{0, 3} {
			if fresh[i].rule.err == "" || !strings.Contains(fresh[i].rule.err, "undeclared reference to 'includes'") {
				t.Errorf("noShare %v: %s as a new expression: error %v, want an undeclared reference to includes", c.noShare, rules[i].Rule, fresh[i].rule.err)
			}
			if !stored[i].rule.compiled || stored[i].rule.err != "" {
				t.Errorf("noShare %v: %s as a stored expression: %v, want it compiled", c.noShare, rules[i].Rule, stored[i].rule.err)
			}
		}
		if fresh[1].message.err == "" || !stored[1].message.compiled {
			t.Errorf("noShare %v: messageExpression: new %v, stored %v; want it to fail as new and compile as stored", c.noShare, fresh[1].message.err, stored[1].message.err)
		}
		for _, i := range []int{1, 2} {
			if !fresh[i].rule.compiled || !stored[i].rule.compiled {
				t.Fatalf("noShare %v: %s does not compile: %v %v", c.noShare, rules[i].Rule, fresh[i].rule.err, stored[i].rule.err)
			}
			if shared := fresh[i].rule.ast == stored[i].rule.ast; shared == c.noShare {
				t.Errorf("noShare %v: %s: check shared %v", c.noShare, rules[i].Rule, shared)
			}
		}
	}
	// Check compiles in the environment of stored expressions where it
	// may, and builds the one of new expressions only for the rules that
	// call a flagged function (includes, isSorted).
	c := &Cache{}
	rel := release.Newest
	cfg := &config{minor: uint(rel.Compatibility()), release: rel, newExpressions: true, checkOnly: true, cache: c}
	envs := func() (fresh, stored int) {
		for k := range c.envs {
			if k.stored {
				stored++
			} else {
				fresh++
			}
		}
		return
	}
	if _, err := compileNode(list, rules[2:3], dt, cfg); err != nil {
		t.Fatal(err)
	}
	if f, s := envs(); f != 0 || s != 1 {
		t.Errorf("Check of %q built %d environments of new expressions and %d of stored ones, want 0 and 1", rules[2].Rule, f, s)
	}
	out, err := compileNode(list, rules, dt, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if f, s := envs(); f != 1 || s != 1 {
		t.Errorf("Check of includes and isSorted built %d environments of new expressions and %d of stored ones, want 1 and 1", f, s)
	}
	if out[0].rule.err == "" || out[3].rule.err == "" || out[1].message.err == "" || !out[1].rule.compiled || !out[2].rule.compiled {
		t.Errorf("Check: %+v %+v %+v %+v: want includes refused, the rest compiled", out[0], out[1], out[2], out[3])
	}
	if got := flaggedRefs(mustParse(t, "a.b.includes(1) && x.isSorted() && includes(y) && .includes(z)")); strings.Join(got, ",") != "includes,isSorted" {
		t.Errorf("flaggedRefs = %q, want includes and isSorted", got)
	}
	if got := flaggedRefs(mustParse(t, "self.size() + [1].size() > 0 && self.exists(x, x == 'a')")); len(got) != 0 {
		t.Errorf("flaggedRefs = %q, want none", got)
	}
	// A qualified name is looked up for a call whose receiver is one.
	qualified := &flaggedSet{names: map[string]bool{"a.b.f": true, "g": true}, tails: map[string]bool{"f": true}}
	for text, want := range map[string]bool{
		"a.b.f(1)":             true,
		".a.b.f(1)":            true,
		"[a.b.f(1)][0]":        true,
		"a.c.f(1)":             false,
		"a.b.h(1)":             false,
		"has(a.b) && b.f(1)":   false,
		"{'k': a.b.f(1)}.k":    true,
		"[1].all(x, a.b.f(x))": true,
	} {
		refs, ok := qualified.refs(mustParse(t, text).NativeRep().Expr())
		if !ok {
			t.Fatalf("%s: too deep", text)
		}
		if got := slices.Contains(refs, "a.b.f"); got != want {
			t.Errorf("%s: a.b.f looked up %v, want %v", text, got, want)
		}
	}
}

func mustParse(t *testing.T, text string) *cel.Ast {
	t.Helper()
	e, err := baseEnv(defaultMinor, release.Default, true)
	if err != nil {
		t.Fatal(err)
	}
	a, iss := e.Parse(text)
	if iss.Err() != nil {
		t.Fatal(iss.Err())
	}
	return a
}

// TestFlaggedRowsDeclareFunctionsOnly checks what can be observed of the
// claim share.go rests on: a row of baseTable flagged
// declaresFunctionsOnly adds functions to an environment and changes
// nothing else of it (macros, parser, variables, validators, features),
// and none of the functions the literal validators evaluate.
func TestFlaggedRowsDeclareFunctionsOnly(t *testing.T) {
	flaggedRows := 0
	for i, row := range baseTable {
		if !row.declaresFunctionsOnly {
			continue
		}
		flaggedRows++
		e0, err := cel.NewEnv()
		if err != nil {
			t.Fatal(err)
		}
		e1, err := e0.Extend(cel.Lib(&envLib{env: row.env()}))
		if err != nil {
			t.Fatal(err)
		}
		if parserOf(e0) != parserOf(e1) {
			t.Errorf("row %d changes the parser", i)
		}
		if len(e0.Variables()) != len(e1.Variables()) {
			t.Errorf("row %d declares variables", i)
		}
		if len(e0.Validators()) != len(e1.Validators()) {
			t.Errorf("row %d adds validators", i)
		}
		for f := 0; f < 64; f++ {
			if e0.HasFeature(f) != e1.HasFeature(f) {
				t.Errorf("row %d changes feature %d", i, f)
			}
		}
		if len(e1.Functions()) <= len(e0.Functions()) {
			t.Errorf("row %d declares no function", i)
		}
		if len(row.program) != 0 {
			t.Errorf("row %d has program options", i)
		}
	}
	if flaggedRows == 0 {
		t.Fatal("no row is flagged")
	}
	f := flaggedFunctions()
	for _, name := range []string{"duration", "timestamp", "matches"} {
		if f.names[name] {
			t.Errorf("%s is declared by a flagged row: the literal validators evaluate it", name)
		}
	}
	for _, name := range []string{"includes", "isSorted", "sum", "indexOf"} {
		if !f.names[name] {
			t.Errorf("%s is not among the flagged functions %q", name, f.all)
		}
	}
	// At 1.37 the two base environments differ in includes only.
	fresh, err := baseFor(uint(release.Newest.Compatibility()), release.Newest, false)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := baseFor(0, release.Newest, true)
	if err != nil {
		t.Fatal(err)
	}
	if fresh.profile.config != stored.profile.config {
		t.Errorf("1.37: the configurations differ:\n%s\n%s", fresh.profile.config, stored.profile.config)
	}
	var differ []string
	for _, name := range f.all {
		if fresh.profile.funcs[name] != stored.profile.funcs[name] {
			differ = append(differ, name)
		}
	}
	if strings.Join(differ, ",") != "includes" {
		t.Errorf("1.37: the environments differ in %q, want includes only", differ)
	}
}

// TestOnceWaits checks the Cache's single flight: concurrent requests for
// one value compute it once, and a computation that panics is not cached
// (the next request computes again).
func TestOnceWaits(t *testing.T) {
	var mu sync.Mutex
	var m map[int]*flight[int]
	var calls atomic.Int32
	start := make(chan struct{})
	var wg sync.WaitGroup
	results := make([]int, 8)
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			results[i] = once(&mu, &m, 1, func() int {
				calls.Add(1)
				return 42
			})
		}()
	}
	close(start)
	wg.Wait()
	if calls.Load() != 1 {
		t.Errorf("computed %d times, want once", calls.Load())
	}
	for _, r := range results {
		if r != 42 {
			t.Errorf("result %d, want 42", r)
		}
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the panic was not passed on")
			}
		}()
		once(&mu, &m, 2, func() int { panic("boom") })
	}()
	if got := once(&mu, &m, 2, func() int { return 7 }); got != 7 {
		t.Errorf("after a panic: %d, want 7", got)
	}
}

// TestSharedTypeNames checks that with a Cache the environments of new and
// stored expressions of a node name its object types alike, and that
// another declaration set gets another name.
func TestSharedTypeNames(t *testing.T) {
	c := &Cache{}
	a := obj(map[string]*structural.Schema{"x": str("string")})
	b := obj(map[string]*structural.Schema{"y": str("string")})
	dta := (*Cache)(nil).declTypeAt(a, false, release.Default)
	dtb := (*Cache)(nil).declTypeAt(b, false, release.Default)
	n1 := c.typeName(c.types.ids(dta).decl)
	n2 := c.typeName(c.types.ids((*Cache)(nil).declTypeAt(a, false, release.Default)).decl)
	n3 := c.typeName(c.types.ids(dtb).decl)
	if n1 != n2 || !selfTypeNames.MatchString(n1) || n1 != selfTypeNames.FindString(n1) {
		t.Errorf("names %q and %q for one declaration set, want one selfType<N>", n1, n2)
	}
	if n3 == n1 || !selfTypeNames.MatchString(n3) {
		t.Errorf("name %q for another declaration set", n3)
	}
}

// TestCheckDropsEvaluation checks that the rules Check compiles and the
// Cache keeps hold nothing of evaluation: no program, environment, AST or
// bounds, while their results stay.
func TestCheckDropsEvaluation(t *testing.T) {
	list := listOf(str("string"), "atomic")
	rules := []crdschema.ValidationRule{{Rule: "self.all(x, x.matches('^a+$'))", MessageExpression: "'bad: ' + self[0]"}}
	dt := (*Cache)(nil).declTypeAt(list, false, release.Default)
	cfg := &config{minor: defaultMinor, release: release.Default, newExpressions: true, checkOnly: true, cache: &Cache{}}
	out, err := compileRules(list, rules, dt, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cr := out[0]
	if !cr.rule.compiled || !cr.message.compiled || cr.rule.maxCost == 0 || cr.message.maxCost == 0 {
		t.Fatalf("rule %+v: want it and its message compiled and estimated", cr)
	}
	if cr.rule.program != nil || cr.message.program != nil || cr.rule.env != nil || cr.message.env != nil || cr.rule.ast != nil || cr.message.ast != nil || cr.dt != nil || cr.bounds != nil || cr.tracked != nil {
		t.Errorf("Check keeps what only evaluation uses: %+v", cr)
	}
}

// TestSharedChecksConcurrent runs, under -race, what crdcheck runs at once
// on one Cache: Check (CRD validation) and Compile with evaluation (the
// first objects), on several goroutines, and checks that every result is
// the one a Cache of its own gives.
func TestSharedChecksConcurrent(t *testing.T) {
	item := obj(map[string]*structural.Schema{"k": str("string"), "v": str("integer")})
	s := obj(map[string]*structural.Schema{"ml": listOf(item, "map", "k"), "set": listOf(str("string"), "set")},
		rule("self.ml.all(e, e.v > 0)"), rule("self.set.includes('x')"), rule("self.ml.map(e, e.v).isSorted()"),
		rule("self.set.size() < 3 && self.ml.size() == 1"))
	wantCheck, err := Check(s, crdschema.NewPath("s"))
	if err != nil {
		t.Fatal(err)
	}
	checkText := func(n *NodeCheck) string {
		var b strings.Builder
		for _, r := range n.Rules {
			fmt.Fprintf(&b, "%s: %v %q %d\n", r.Rule.Rule, r.Compiled, r.Err, r.Cost)
		}
		return b.String()
	}
	o := map[string]any{"ml": []any{map[string]any{"k": "a", "v": int64(-1)}}, "set": []any{"x", "y"}}
	validateText := func(c *Compiled) string {
		errs := c.Validate(t.Context(), nil, o, nil).Errors
		return fmt.Sprint(errs)
	}
	own, err := Compile(s, true)
	if err != nil {
		t.Fatal(err)
	}
	wantValidate := validateText(own)
	if !strings.Contains(checkText(wantCheck), "undeclared reference to 'includes'") || !strings.Contains(wantValidate, "self.ml.all") {
		t.Fatalf("Check:\n%s\nValidate: %s\nwant includes refused by Check, the first rule failing", checkText(wantCheck), wantValidate)
	}
	for round := 0; round < 20; round++ {
		cache := &Cache{}
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if g%2 == 0 {
					got, err := Check(s, crdschema.NewPath("s"), WithCache(cache))
					if err != nil {
						t.Error(err)
						return
					}
					if checkText(got) != checkText(wantCheck) {
						t.Errorf("Check with a shared Cache:\n%s\nwant\n%s", checkText(got), checkText(wantCheck))
					}
					return
				}
				c, err := Compile(s, true, WithCache(cache), WithLazyCompile())
				if err != nil {
					t.Error(err)
					return
				}
				if got := validateText(c); got != wantValidate {
					t.Errorf("Validate with a shared Cache: %s, want %s", got, wantValidate)
				}
			}()
		}
		wg.Wait()
	}
}
