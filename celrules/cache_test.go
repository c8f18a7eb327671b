package celrules

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/google/cel-go/cel"
	"google.golang.org/protobuf/proto"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/release"
	"github.com/crdschema/crdschema/structural"
)

// parserProbes exercise every part of the parser an environment can
// configure: the standard and extension macros, optional syntax, and
// syntax errors.
var parserProbes = []string{
	`self.a == 1 && has(self.b)`,
	`self.items.all(x, x > 0) || self.items.exists(x, x == 2) || self.items.exists_one(x, x == 3)`,
	`self.items.map(x, x + 1).filter(x, x > 2).size() > 0`,
	`self.items.map(x, x > 1, x * 2) == []`,
	`self.m.all(k, v, v > 0) && self.m.exists(k, v, k == 'a') && self.m.existsOne(k, v, true)`,
	`self.items.transformList(i, v, v * i) == [] && self.m.transformMap(k, v, v) == {}`,
	`self.items.sortBy(x, -x) == []`,
	`self.?a.orValue(1) == 1 && [?self.?b] == [] && {?'k': self.?c} == {}`,
	`self.a ==`,
	`self.items.all(x)`,
	`self.?a`,
	"self.a\x00",
}

// TestParserOf checks the claim Cache relies on: base environments
// with the same parserOf description parse every text alike.
func TestParserOf(t *testing.T) {
	type env struct {
		name   string
		env    *cel.Env
		parser string
	}
	var envs []env
	for minor := uint(0); minor <= 40; minor++ {
		l, err := baseFor(minor, release.Default, false)
		if err != nil {
			t.Fatal(err)
		}
		envs = append(envs, env{fmt.Sprintf("1.%d", minor), l.env, l.parser})
	}
	l, err := baseFor(0, release.Default, true)
	if err != nil {
		t.Fatal(err)
	}
	envs = append(envs, env{"stored", l.env, l.parser})

	groups := map[string][]env{}
	for _, e := range envs {
		groups[e.parser] = append(groups[e.parser], e)
	}
	if len(groups) < 2 || len(groups[envs[36].parser]) < 2 {
		t.Fatalf("%d parser groups; want several, and 1.36 sharing one with another environment", len(groups))
	}
	if envs[36].parser != envs[len(envs)-1].parser {
		t.Errorf("1.36 and stored expressions have different parsers; new and stored expressions of a CRD no longer share parses")
	}
	for _, g := range groups {
		for _, text := range parserProbes {
			first, firstIss := g[0].env.Parse(text)
			for _, e := range g[1:] {
				got, iss := e.env.Parse(text)
				if firstIss.String() != iss.String() {
					t.Errorf("%q: %s and %s report\n%s\nand\n%s", text, g[0].name, e.name, firstIss, iss)
					continue
				}
				if (first == nil) != (got == nil) {
					t.Errorf("%q: only one of %s and %s parses it", text, g[0].name, e.name)
					continue
				}
				if first == nil {
					continue
				}
				a, err1 := cel.AstToParsedExpr(first)
				b, err2 := cel.AstToParsedExpr(got)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				if !proto.Equal(a, b) {
					t.Errorf("%q: %s and %s parse it differently", text, g[0].name, e.name)
				}
			}
		}
	}
	// Environments that differ in their parsers must differ in the
	// description.
	for _, probe := range []struct{ text, without, with string }{
		{`self.?a == self.?a`, "1.27", "1.28"},
		{`self.m.all(k, v, v > 0)`, "1.31", "1.32"},
	} {
		var without, with env
		for _, e := range envs {
			if e.name == probe.without {
				without = e
			}
			if e.name == probe.with {
				with = e
			}
		}
		if without.parser == with.parser {
			t.Errorf("%s and %s have the same description", probe.without, probe.with)
		}
		a, iss1 := without.env.Parse(probe.text)
		b, iss2 := with.env.Parse(probe.text)
		if iss2.Err() != nil {
			t.Errorf("%q: %s: %v", probe.text, probe.with, iss2)
			continue
		}
		if iss1.Err() != nil {
			continue // parses in one only
		}
		pa, _ := cel.AstToParsedExpr(a)
		pb, _ := cel.AstToParsedExpr(b)
		if proto.Equal(pa, pb) {
			t.Errorf("%q: %s and %s parse it alike; the probe does not tell their parsers apart", probe.text, probe.without, probe.with)
		}
	}
}

// TestUseCache checks that a shared Cache parses each text once per
// parser, builds one environment per scalar type, and changes no result,
// also when used concurrently.
func TestUseCache(t *testing.T) {
	rule := func(r string) crdschema.ValidationRule { return crdschema.ValidationRule{Rule: r} }
	n, two := int64(3), int64(2)
	item := func(typ string) *structural.Schema {
		return &structural.Schema{
			Generic:         structural.Generic{Type: typ},
			ValueValidation: &structural.ValueValidation{MaxLength: &n},
			XValidations:    []crdschema.ValidationRule{rule(`self == self`), rule(`self.size() < 3`)},
		}
	}
	s := &structural.Schema{
		Generic: structural.Generic{Type: "object"},
		Properties: map[string]*structural.Schema{
			"s": item("string"),
			"l": {Generic: structural.Generic{Type: "array"}, Items: item("string"), ValueValidation: &structural.ValueValidation{MaxItems: &n},
				XValidations: []crdschema.ValidationRule{rule(`self.all(x, x == x)`), rule(`self.size() < 3`)}},
			"l2": {Generic: structural.Generic{Type: "array"}, Items: &structural.Schema{Generic: structural.Generic{Type: "string"}}, ValueValidation: &structural.ValueValidation{MaxItems: &two},
				XValidations: []crdschema.ValidationRule{rule(`self.size() < 3`)}},
			"m": {Generic: structural.Generic{Type: "object"}, ValueValidation: &structural.ValueValidation{MaxProperties: &n}, AdditionalProperties: &structural.SchemaOrBool{Schema: item("string")},
				XValidations: []crdschema.ValidationRule{rule(`self.size() < 3`), {Rule: `self.nope()`, MessageExpression: `'bad: ' + string(self.size())`}}},
		},
	}
	want, wantCosts, err := CheckSchema(s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) != 1 {
		t.Fatalf("want one compile error, got %v", want)
	}
	var c Cache
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got, gotCosts, err := CheckSchema(s, nil, UseCache(&c))
			if err != nil {
				t.Error(err)
				return
			}
			if fmt.Sprint(toGolden(got)) != fmt.Sprint(toGolden(want)) || fmt.Sprint(gotCosts) != fmt.Sprint(wantCosts) {
				t.Errorf("with a Cache:\n%v %v\nwithout:\n%v %v", got, gotCosts, want, wantCosts)
			}
		}()
	}
	wg.Wait()
	// CheckSchema compiles new expressions at 1.36, Compile stored ones:
	// their parsers are the same, so both share the cache's entries.
	compiled, err := Compile(s, true, UseCache(&c))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.parses) != 4 {
		// The messageExpression of a rule that does not compile is not
		// compiled.
		t.Errorf("the cache holds %d parses, want 4 (one per distinct rule)", len(c.parses))
	}
	// The string nodes share one environment; so do the two lists of
	// strings, whatever their bounds, and the map. CheckSchema compiles
	// its new expressions in the environment of stored ones, which
	// Compile uses: at 1.37 they differ only in includes, which no rule
	// calls (share.go).
	if len(c.envs) != 3 {
		t.Errorf("the cache holds %d environments, want 3: %v", len(c.envs), c.envs)
	}
	for k := range c.envs {
		if !k.stored {
			t.Errorf("an environment of new expressions was built: %+v", k)
		}
	}
	obj := map[string]any{"s": "abcd", "l": []any{"a"}, "m": map[string]any{"a": "b"}}
	errs := compiled.Validate(t.Context(), nil, obj, nil).Errors
	sort.Slice(errs, func(i, j int) bool { return errs[i].Field < errs[j].Field })
	if len(errs) != 2 || errs[0].Field != "m" || !strings.Contains(errs[0].Detail, "undeclared reference to 'nope'") ||
		errs[1].Field != "s" || errs[1].Detail != "failed rule: self.size() < 3" {
		t.Errorf("validation with shared parses: %v; want the compile error at m and the failed rule at s", errs)
	}
}
