package celrules

import (
	"github.com/crdschema/crdschema/internal/release"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"

	"github.com/crdschema/crdschema"
)

// planRules mixes expressions whose programs can be skipped by CheckSchema
// with ones whose program creation fails or might fail.
var planRules = []struct {
	rule string
	safe bool
	// failDetail, when set, is the start of the compile error the rule
	// gets because its program cannot be created.
	failDetail string
}{
	{rule: "self.a < self.b", safe: true},
	{rule: "has(self.s) && self.s.startsWith('x') || !has(self.s)", safe: true},
	{rule: "self.ls.all(x, x.size() < 5 && x.contains('a'))", safe: true},
	{rule: "self.ls.exists_one(x, x == 'a')", safe: true},
	{rule: "self.m.all(k, k.endsWith('b'))", safe: true},
	{rule: "'a' in self.ls || self.a in [1, 2, 3]", safe: true},
	{rule: "size(self.lb) == 0 ? true : self.a % 2 == -self.b", safe: true},
	{rule: "{'a': 1}.size() + self.a * 2 - self.b / 3 > 0", safe: true},
	{rule: "self.ml == oldSelf.ml", safe: true},
	{rule: "self.ios == 1 || self.ios == 'a'", safe: true},
	{rule: "self.ios == oldSelf.ios && self.ls.map(x, x + x).size() >= 0", safe: true},
	// Conversions of values that are not constants, and regular
	// expressions whose pattern is not a constant or compiles.
	{rule: "int(self.s) > 0 && string(self.a) != '' && dyn(self.b) == 1", safe: true},
	{rule: "self.s.matches('^[a-z]+$') && matches(self.s, 'a|b')", safe: true},
	{rule: "self.s.matches(self.s) && self.s.find(self.s + 'x') == ''", safe: true},
	{rule: "self.s.find('[a-z]+') == '' && self.s.findAll('a', 2) == []", safe: true},
	// Not recognized as safe: conversions and patterns that the planner
	// may fold, indexing, optionals, type names, Kubernetes library
	// functions.
	{rule: "self.d > duration('1s')"},
	{rule: "int(string(self.a)) > 0"},
	{rule: "self.s.find(string('a')) == ''"},
	{rule: "self.s.matches(['a'][0])"},
	{rule: "self.m['x'] > 0"},
	{rule: "self.?s.orValue('') == ''"},
	{rule: "type(self.a) == int"},
	{rule: "quantity('1Gi').isGreaterThan(quantity('1Mi'))"},
	{rule: "isURL(self.s)"},
	{rule: "self.s.find('[') == ''", failDetail: "program instantiation failed: "},
	{rule: "self.s.findAll('(') == []", failDetail: "program instantiation failed: "},
	{rule: "int('x') == 1", failDetail: "program instantiation failed: "},
	{rule: "uint('-1') == 1u", failDetail: "program instantiation failed: "},
}

// TestPlansSafely checks that CheckSchema skips a program only where
// creating it succeeds, and that the compile results are otherwise those
// of a compilation that creates every program.
func TestPlansSafely(t *testing.T) {
	for _, stored := range []bool{false, true} {
		for _, tt := range planRules {
			s := fuzzSchema(crdschema.ValidationRule{Rule: tt.rule, MessageExpression: "'bad value: ' + string(self.a) + string(duration('1s'))"})
			dt := newDeclType(s, true)
			full := &config{minor: defaultMinor, newExpressions: !stored, eagerPrograms: true, cache: new(Cache)}
			check := &config{minor: defaultMinor, newExpressions: !stored, checkOnly: true, cache: new(Cache)}
			want, err := compileNode(s, s.XValidations, dt, full)
			if err != nil {
				t.Fatal(err)
			}
			got, err := compileNode(s, s.XValidations, dt, check)
			if err != nil {
				t.Fatal(err)
			}
			w, g := want[0], got[0]
			if tt.failDetail != "" {
				if w.rule.err == "" || !strings.HasPrefix(w.rule.err, tt.failDetail) {
					t.Errorf("%q (stored %v): error %v, want one starting with %q", tt.rule, stored, w.rule.err, tt.failDetail)
				}
			} else if w.rule.err != "" {
				t.Errorf("%q (stored %v): unexpected error %v", tt.rule, stored, w.rule.err)
			}
			if w.rule.err != g.rule.err {
				t.Errorf("%q (stored %v): check-only error %v, want %v", tt.rule, stored, g.rule.err, w.rule.err)
			}
			if w.rule.compiled != g.rule.compiled || w.rule.maxCost != g.rule.maxCost || w.usesOldSelf != g.usesOldSelf ||
				strings.Join(w.rule.unbounded, ",") != strings.Join(g.rule.unbounded, ",") {
				t.Errorf("%q (stored %v): check-only result %+v, want %+v", tt.rule, stored, g, w)
			}
			if w.rule.compiled && w.rule.program == nil {
				t.Errorf("%q (stored %v): full compilation made no program", tt.rule, stored)
			}
			if skipped := g.rule.compiled && g.rule.program == nil; skipped != tt.safe {
				t.Errorf("%q (stored %v): program skipped = %v, want %v", tt.rule, stored, skipped, tt.safe)
			}
			// The messageExpression converts a constant: its program is always
			// made.
			if w.message.compiled != g.message.compiled || w.message.maxCost != g.message.maxCost ||
				(g.message.compiled && (w.message.program == nil || g.message.program == nil)) {
				t.Errorf("%q (stored %v): messageExpression compiled %v/%v, programs %v/%v", tt.rule, stored, g.message.compiled, w.message.compiled, g.message.program, w.message.program)
			}
			if g.rule.compiled != g.message.compiled {
				t.Errorf("%q (stored %v): messageExpression compiled %v, rule compiled %v", tt.rule, stored, g.message.compiled, g.rule.compiled)
			}
		}
	}
}

// TestCheckSchemaProgramFailure checks that a rule whose program cannot be
// created is still reported by CheckSchema.
func TestCheckSchemaProgramFailure(t *testing.T) {
	s := fuzzSchema(crdschema.ValidationRule{Rule: "self.s.find('[') == ''"}, crdschema.ValidationRule{Rule: "self.a < self.b"})
	errs, costs, err := CheckSchema(s, crdschema.NewPath("openAPIV3Schema"))
	if err != nil {
		t.Fatal(err)
	}
	if len(errs) != 1 || errs[0].Field != "openAPIV3Schema.x-kubernetes-validations[0].rule" ||
		!strings.HasPrefix(errs[0].Detail, "program instantiation failed: ") {
		t.Fatalf("errors %v, want one program instantiation failure at rule 0", errs)
	}
	if len(costs) != 1 || costs[0].Rule != "self.a < self.b" {
		t.Errorf("costs %+v, want the cost of rule 1 only", costs)
	}
}

// TestPlansSafelyCorpus checks plansSafely on the expressions of the
// library corpus (real CRD rules and library cases): wherever it answers
// true, creating the program succeeds, and it answers false for the
// expressions whose program creation fails in the API server.
func TestPlansSafelyCorpus(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "internal", "cellib", "testdata", "upstream.tsv"))
	if err != nil {
		t.Skip(err)
	}
	for _, stored := range []bool{false, true} {
		base, err := baseEnv(defaultMinor, release.Default, stored)
		if err != nil {
			t.Fatal(err)
		}
		env, err := base.Extend(
			cel.Variable("s", cel.StringType), cel.Variable("l", cel.ListType(cel.StringType)),
			cel.Variable("li", cel.ListType(cel.IntType)), cel.Variable("m", cel.MapType(cel.StringType, cel.IntType)),
			cel.Variable("b", cel.BytesType), cel.Variable("d", cel.DynType),
			cel.Variable("self", cel.DynType), cel.Variable("oldSelf", cel.DynType))
		if err != nil {
			t.Fatal(err)
		}
		safe, progErrs := 0, 0
		for _, line := range strings.Split(string(data), "\n") {
			fields := strings.Split(line, "\t")
			if strings.HasPrefix(line, "#") || len(fields) < 2 {
				continue
			}
			a, iss := env.Compile(fields[0])
			if iss.Err() != nil {
				continue
			}
			_, perr := env.Program(a, cel.CostLimit(PerCallLimit), cel.InterruptCheckFrequency(checkFrequency))
			if fields[1] == "PROGERR" {
				progErrs++
				if perr == nil {
					t.Errorf("%s: program creation succeeded, want a failure", fields[0])
				}
			}
			if plansSafely(a) {
				safe++
				if perr != nil {
					t.Errorf("%s (stored %v): plansSafely, but program creation failed: %v", fields[0], stored, perr)
				}
			}
		}
		if safe < 10 || progErrs == 0 {
			t.Errorf("stored %v: %d expressions planned safely, %d program failures: corpus not exercised", stored, safe, progErrs)
		}
	}
}
