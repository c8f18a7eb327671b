package celrules

import (
	"context"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/structural"
)

// fuzzSchema has a bit of every kind of node.
func fuzzSchema(rules ...crdschema.ValidationRule) *structural.Schema {
	item := obj(map[string]*structural.Schema{"k": str("string"), "v": str("integer")})
	s := calibrationSchema()
	s.Properties["ml"] = listOf(item, "map", "k")
	s.Properties["set"] = listOf(str("string"), "set")
	s.Properties["ios"] = &structural.Schema{Extensions: structural.Extensions{XIntOrString: true}}
	s.Properties["any"] = &structural.Schema{Extensions: structural.Extensions{XPreserveUnknownFields: true}}
	s.Properties["d"] = &structural.Schema{Generic: structural.Generic{Type: "string"}, ValueValidation: &structural.ValueValidation{Format: "duration"}}
	s.Properties["emb"] = &structural.Schema{Generic: structural.Generic{Type: "object"}, Extensions: structural.Extensions{XEmbeddedResource: true, XPreserveUnknownFields: true}}
	s.XValidations = rules
	return s
}

var fuzzRules = []string{
	"self.a < self.b",
	"self.ls.all(x, x.size() < 5)",
	"self.m.all(k, self.m[k] > 0)",
	"self.ml == oldSelf.ml",
	"self.set + ['x'] == ['x']",
	"quantity('1Gi').isGreaterThan(quantity('1Mi'))",
	"self.?s.orValue('') == ''",
	"has(self.emb.metadata) && self.emb.kind == 'X'",
	"self.d > duration('1s')",
	"self.ios == 1 || self.ios == 'a'",
	"self.any == self.any",
	"self.ls.exists_one(x, x == 'a')",
	"self.s.matches('^[a-z]+$')",
	"isURL(self.s) && url(self.s).getHost() == ''",
	"self.lb.map(x, x + x).size() >= 0",
	"(self.ls + self.lb)[0].size() > 0",
	"self.m.all(k, k.startsWith('k') && k.contains('k'))",
	"'a=' + string(self.a) + self.s == 'a=1x'",
	"self.ml.filter(x, x.k == 'a').map(x, x.v).all(v, v == 1)",
	"cel.bind(x, self.s + self.s, x.size() == 2 && x == 'xx')",
	"self.ls.exists(x, x in self.lb)",
	"self.ls.sort() == self.ls && self.ls.indexOf('a') == 0",
	"self.emb == oldSelf.emb",
	"self.ml[0] == oldSelf.ml[0]",
	"self.set == oldSelf.set && self.ml + oldSelf.ml == self.ml",
	"size(self.set + self.set) == size(self.set) && (self.ls + self.ls).size() >= 0",
}

func FuzzCompile(f *testing.F) {
	for _, r := range fuzzRules {
		f.Add(r, "", "")
	}
	f.Add("self.", "'", ".a")
	f.Add("oldSelf.a", "self.s", "['a']")
	f.Fuzz(func(t *testing.T, rule, msgExpr, fieldPath string) {
		opt := len(rule)%2 == 0
		s := fuzzSchema(crdschema.ValidationRule{Rule: rule, MessageExpression: msgExpr, FieldPath: fieldPath, OptionalOldSelf: &opt})
		c, err := Compile(s, true)
		if err != nil {
			t.Fatal(err)
		}
		o := map[string]any{"a": int64(1), "b": int64(2), "s": "x", "ls": []any{"a"}, "m": map[string]any{"k": int64(1)}}
		vr1 := c.Validate(context.Background(), nil, o, o)
		errs, left := vr1.Errors, vr1.Remaining
		if left > RuntimeBudget {
			t.Fatalf("budget grew: %d", left)
		}
		for _, e := range errs {
			_ = e.Error()
		}
		// Without cost tracking where the bounds allow it: the same
		// errors, and bounds not below the cost spent (random rules probe
		// the cost estimates the bounds rest on).
		checkBounded(t, "bounded", c, o, o, RuntimeBudget)
		checkBounded(t, "bounded, create", c, o, nil, RuntimeBudget)
		lazy, err := Compile(s, true, LazyCompile())
		if err != nil {
			t.Fatal(err)
		}
		vr2 := lazy.Validate(context.Background(), nil, o, o)
		lazyErrs, lazyLeft := vr2.Errors, vr2.Remaining
		if want, got := errorTexts(errs), errorTexts(lazyErrs); lazyLeft != left || !equalStrings(want, got) {
			t.Fatalf("lazy compilation: %q, %d left; eager %q, %d left", got, lazyLeft, want, left)
		}
		// CheckSchema skips the programs it can: the outcome must be the
		// same as with every program created.
		for _, stored := range []bool{false, true} {
			dt := newDeclType(s, true)
			full, ferr := compileRules(s, s.XValidations, dt, &config{minor: defaultMinor, newExpressions: !stored, eagerPrograms: true, cache: new(Cache)})
			check, cerr := compileRules(s, s.XValidations, dt, &config{minor: defaultMinor, newExpressions: !stored, checkOnly: true, cache: new(Cache)})
			if (ferr == nil) != (cerr == nil) {
				t.Fatalf("node errors %v and %v", ferr, cerr)
			}
			for i := range full {
				f, c := full[i], check[i]
				if errorDetail(f.rule.err) != errorDetail(c.rule.err) || errorDetail(f.message.err) != errorDetail(c.message.err) ||
					f.rule.compiled != c.rule.compiled || f.message.compiled != c.message.compiled || f.rule.maxCost != c.rule.maxCost {
					t.Fatalf("stored %v: check-only compilation %+v differs from %+v", stored, c, f)
				}
			}
		}
		if _, _, err := CheckSchema(s, crdschema.NewPath("s")); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzValidate(f *testing.F) {
	f.Add([]byte(`{"a":1,"b":2,"s":"abc","ls":["a","b"],"lb":["x"],"m":{"k":1},"ml":[{"k":"a","v":1}],"set":["x"],"ios":"a","d":"1h","emb":{"kind":"X","metadata":{"name":"n"}}}`),
		[]byte(`{"a":2,"ml":[{"k":"a","v":2}]}`))
	f.Add([]byte(`{"a":"x","ls":[1,null],"m":[],"ml":[{"k":1},{"v":2},3],"set":[[1]],"ios":1.5,"d":"nope","emb":5}`), []byte(`null`))
	f.Add([]byte(`{"ls":null,"m":null,"ml":null,"any":{"x":[1,{"y":null}]}}`), []byte(`{"any":{"x":[1]}}`))
	var rules []crdschema.ValidationRule
	for _, r := range fuzzRules {
		rules = append(rules, crdschema.ValidationRule{Rule: r, MessageExpression: "'bad: ' + string(self.a)"})
	}
	c, err := Compile(fuzzSchema(rules...), true)
	if err != nil {
		f.Fatal(err)
	}
	// Before 1.37 lists work on their raw elements (legacylists.go).
	v136, err := crdschema.ParseKubernetesVersion("1.36")
	if err != nil {
		f.Fatal(err)
	}
	c136, err := Compile(fuzzSchema(rules...), true, WithKubernetesVersion(v136))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, cur, old []byte) {
		o, err := jsonscan.Decode(cur)
		if err != nil {
			return
		}
		prev, err := jsonscan.Decode(old)
		if err != nil {
			prev = nil
		}
		vr3 := c.Validate(context.Background(), crdschema.NewPath("x"), o, prev)
		errs, left := vr3.Errors, vr3.Remaining
		if left > RuntimeBudget {
			t.Fatalf("budget grew: %d", left)
		}
		for _, e := range errs {
			_ = e.Error()
		}
		// Without cost tracking where the bounds allow it: the same errors,
		// and bounds not below the cost spent.
		checkBounded(t, "bounded", c, o, prev, RuntimeBudget)
		checkBounded(t, "bounded, small budget", c, o, prev, 50)
		if left := c136.Validate(context.Background(), crdschema.NewPath("x"), o, prev).Remaining; left > RuntimeBudget {
			t.Fatalf("budget grew at 1.36: %d", left)
		}
		checkBounded(t, "bounded at 1.36", c136, o, prev, RuntimeBudget)
	})
}

// errorDetail is a compile error's text without the generated type names.
func errorDetail(e string) string {
	return selfTypeName.ReplaceAllString(e, "selfType")
}
