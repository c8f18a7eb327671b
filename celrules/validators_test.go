package celrules

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
)

// validatorTexts are expressions for each of the wrapped validators to
// find fault with, or not, and the rules of the conformance cases.
func validatorTexts(t testing.TB) []string {
	texts := []string{
		`duration('1x') == duration('1s')`,
		`self.d > duration('1h') && self.d < duration('-5')`,
		`timestamp('2020-13-01T00:00:00Z') < timestamp('2020-01-01T00:00:00Z')`,
		`'abc'.matches('[') || 'x'.matches('(a')`,
		`matches('abc', '[a-')`,
		`self.s.matches(self.p)`,
		`[1, 'a', 2.0] == []`,
		`[?optional.of(1), 2].size() == 2`,
		`{'a': 1, 'b': 'c', 1: 2}.size() > 0`,
		`{?'a': optional.of(1), 'b': 2}.size() > 0`,
		`'%s %d'.format(['a', 1]) == ''`,
		`self.all(x, [x, 1].size() == 2)`,
		`self.map(x, {'k': x}).size() > 0`,
		`[[1], ['a']].size() == 2`,
		`self.exists(x, duration(x) > duration('1z'))`,
		`has(self.a) ? [1, 'b'] : [2]`,
		`self.l.exists_one(x, x.matches('*'))`,
		`string(timestamp('bad')) + string(duration('2h'))`,
	}
	// The rules of the conformance cases.
	rule := regexp.MustCompile(`(?m)^\s*-?\s*(?:rule|messageExpression):\s*(.+)$`)
	filepath.WalkDir("../conformance/testdata/cases", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		for _, m := range rule.FindAllSubmatch(b, -1) {
			s := strings.TrimSpace(string(m[1]))
			if u, err := strconv.Unquote(s); err == nil {
				s = u
			} else if len(s) > 1 && s[0] == '\'' && s[len(s)-1] == '\'' {
				s = strings.ReplaceAll(s[1:len(s)-1], "''", "'")
			}
			texts = append(texts, s)
		}
		return nil
	})
	if len(texts) < 100 {
		t.Fatalf("only %d expressions to test", len(texts))
	}
	return texts
}

// TestSparseValidators checks that each wrapped validator reports exactly
// what cel-go's own does, on every AST.
func TestSparseValidators(t *testing.T) {
	base, err := baseEnv(defaultMinor, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	env, err := base.Extend(cel.Variable("self", cel.DynType))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := cel.NewEnv(cel.Variable("self", cel.DynType), cel.OptionalTypes(), cel.CrossTypeNumericComparisons(true))
	if err != nil {
		t.Fatal(err)
	}
	checked, reported := 0, 0
	for _, text := range validatorTexts(t) {
		ok, n := compareValidators(t, plain, env, text)
		if ok {
			checked++
			reported += n
		}
	}
	t.Logf("%d expressions checked, %d validator reports", checked, reported)
	if checked < 100 || reported < 8 {
		t.Errorf("only %d expressions checked, %d reports: the test lost its inputs", checked, reported)
	}
}

// validatorPairs are the wrapped validators with cel-go's own.
func validatorPairs() []struct{ wrapped, inner cel.ASTValidator } {
	pairs := []struct{ wrapped, inner cel.ASTValidator }{
		{homogeneousLiterals(), cel.ValidateHomogeneousAggregateLiterals()},
	}
	for _, o := range []struct {
		v  func() cel.ASTValidator
		fn string
	}{
		{cel.ValidateDurationLiterals, "duration"},
		{cel.ValidateTimestampLiterals, "timestamp"},
		{cel.ValidateRegexLiterals, "matches"},
	} {
		pairs = append(pairs, struct{ wrapped, inner cel.ASTValidator }{literalArgValidator(o.v(), o.fn), o.v()})
	}
	return pairs
}

// compareValidators type-checks text in plain, an environment without
// validators (or, for the functions of the Kubernetes libraries, in env,
// whose validators ran already), and runs each validator on the checked
// AST, wrapped and not: they must report the same. It reports whether
// text type-checked, and how many validators reported an issue.
func compareValidators(t *testing.T, plain, env *cel.Env, text string) (bool, int) {
	t.Helper()
	a, iss := plain.Compile(text)
	if iss.Err() != nil {
		if a, iss = env.Compile(text); iss.Err() != nil {
			return false, 0
		}
	}
	reported := 0
	for _, p := range validatorPairs() {
		if p.wrapped.Name() != p.inner.Name() {
			t.Fatalf("wrapped validator named %q, cel-go's %q", p.wrapped.Name(), p.inner.Name())
		}
		want := runValidator(env, p.inner, a)
		got := runValidator(env, p.wrapped, a)
		if got != want {
			t.Errorf("%s on %q: wrapped reports %q, cel-go's %q", p.inner.Name(), text, got, want)
		}
		if want != "" {
			reported++
		}
	}
	return true, reported
}

// FuzzSparseValidators compares the wrapped validators with cel-go's own
// on arbitrary expressions.
func FuzzSparseValidators(f *testing.F) {
	for _, text := range validatorTexts(f) {
		f.Add(text)
	}
	base, err := baseEnv(defaultMinor, 0, false)
	if err != nil {
		f.Fatal(err)
	}
	env, err := base.Extend(cel.Variable("self", cel.DynType))
	if err != nil {
		f.Fatal(err)
	}
	plain, err := cel.NewEnv(cel.Variable("self", cel.DynType), cel.OptionalTypes(), cel.CrossTypeNumericComparisons(true))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 2000 {
			return
		}
		compareValidators(t, plain, env, text)
	})
}

func runValidator(env *cel.Env, v cel.ASTValidator, a *cel.Ast) string {
	iss := cel.NewIssues(common.NewErrors(a.Source()))
	v.Validate(env, emptyValidatorConfig{}, a.NativeRep(), iss)
	if err := iss.Err(); err != nil {
		return err.Error()
	}
	return ""
}

type emptyValidatorConfig struct{}

func (emptyValidatorConfig) GetOrDefault(_ string, v any) any { return v }

// TestSparseValidatorsInEnv checks that the environment reports the
// validators' issues through the wrappers.
func TestSparseValidatorsInEnv(t *testing.T) {
	base, err := baseEnv(defaultMinor, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{
		`duration('1x') == duration('1s')`: "invalid duration argument",
		`'a'.matches('[')`:                 "invalid matches argument",
		`[1, 'a'].size() == 2`:             "expected type 'int' but found 'string'",
		`timestamp('x') == timestamp('y')`: "invalid timestamp argument",
	} {
		_, iss := base.Compile(text)
		if iss.Err() == nil || !strings.Contains(iss.Err().Error(), want) {
			t.Errorf("%q: got %v, want an issue %q", text, iss.Err(), want)
		}
	}
}
