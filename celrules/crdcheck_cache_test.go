package celrules

import (
	"context"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
)

// TestCheckSchemaRepeatedNodes checks that nodes with the same rules share
// compile results only when their types are equal: every node gets the
// cost figures and errors it gets when checked alone.
func TestCheckSchemaRepeatedNodes(t *testing.T) {
	list := func(maxItems int64, required bool) *structural.Schema {
		item := obj(map[string]*structural.Schema{"k": str("string"), "v": str("integer")})
		if required {
			item.ValueValidation = &structural.ValueValidation{Required: []string{"k"}}
		}
		l := listOf(item, "atomic")
		l.ValueValidation = &structural.ValueValidation{MaxItems: i64(maxItems)}
		l.XValidations = []crdschema.ValidationRule{
			{Rule: "self.all(x, x.k.size() > 0)"},
			{Rule: "self.all(x, x.v + 'a' == 1)"},
		}
		return l
	}
	props := map[string]*structural.Schema{
		"a": list(10, false), "b": list(10, false), "c": list(100, false), "d": list(10, true),
	}
	whole := obj(props)
	errs, costs, err := CheckSchema(whole, crdschema.NewPath("s"))
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range props {
		aloneErrs, aloneCosts, err := CheckSchema(obj(map[string]*structural.Schema{name: p}), crdschema.NewPath("s"))
		if err != nil {
			t.Fatal(err)
		}
		var got []Cost
		for _, c := range costs {
			if strings.HasPrefix(c.Field, "s.properties["+name+"]") {
				got = append(got, c)
			}
		}
		if len(got) != 1 || len(aloneCosts) != 1 || got[0].Cost != aloneCosts[0].Cost || got[0].Cardinality != aloneCosts[0].Cardinality {
			t.Errorf("%s: costs %+v in the whole schema, %+v alone", name, got, aloneCosts)
		}
		var gotErrs []string
		for _, e := range errs {
			if strings.HasPrefix(e.Field, "s.properties["+name+"]") {
				gotErrs = append(gotErrs, selfTypeName.ReplaceAllString(e.Error(), "selfType"))
			}
		}
		want := errorTexts(aloneErrs)
		if !equalStrings(gotErrs, want) || len(want) != 1 {
			t.Errorf("%s: errors %q in the whole schema, %q alone", name, gotErrs, want)
		}
	}
	// The bounds matter: c's rule costs more than a's.
	if costs[0].Cost == costs[2].Cost {
		t.Errorf("costs %+v: a and c should differ", costs)
	}
}

// TestTypeIDs checks the identities the Cache keys compilations and
// environments by: equal types share them; a bound or a required field
// changes the full id only (the environment does not see them); the
// int-or-string marker, a field name, a type or the resource-root
// properties change both.
func TestTypeIDs(t *testing.T) {
	str := func(maxLen int64) *structural.Schema {
		return &structural.Schema{Generic: structural.Generic{Type: "string"},
			ValueValidation: &structural.ValueValidation{MaxLength: i64(maxLen)}}
	}
	s := func(name string, p *structural.Schema, required bool) *structural.Schema {
		o := obj(map[string]*structural.Schema{name: p})
		if required {
			o.ValueValidation = &structural.ValueValidation{Required: []string{name}}
		}
		return o
	}
	ios := &structural.Schema{Extensions: structural.Extensions{XIntOrString: true}, ValueValidation: &structural.ValueValidation{MaxLength: i64(5)}}
	list := func(items *structural.Schema, maxItems int64) *structural.Schema {
		return &structural.Schema{Generic: structural.Generic{Type: "array"}, Items: items,
			ValueValidation: &structural.ValueValidation{MaxItems: i64(maxItems)}}
	}
	var in typeInterner
	base := in.ids(newDeclType(s("x", list(str(5), 2), false), false))
	if got := in.ids(newDeclType(s("x", list(str(5), 2), false), false)); got != base {
		t.Error("equal types have different ids")
	}
	// A type shared between interners (the scalars' are) gets its ids in
	// each, every time.
	boolean := &structural.Schema{Generic: structural.Generic{Type: "boolean"}}
	var other typeInterner
	for range 2 {
		for _, in := range []*typeInterner{&in, &other} {
			a, b := newDeclType(s("b", boolean, false), false), newDeclType(s("b", boolean, false), false)
			if in.ids(a) != in.ids(b) ||
				in.ids(boolDecl) != in.ids(newDeclType(boolean, false)) || in.ids(boolDecl) == in.ids(intDecl) {
				t.Error("a type shared between interners has wrong ids")
			}
		}
	}
	// Types that hold another interner's ids are interned once (not once
	// per path to them, which would take 2^40 steps here).
	deep := func() *declType {
		dt := boolDecl
		for range 40 {
			dt = newObjectType("object", map[string]*declType{"a": dt, "b": dt})
		}
		return dt
	}
	dt := deep()
	if in.ids(dt) != in.ids(deep()) || other.ids(dt) != other.ids(deep()) {
		t.Error("deep type: equal types have different ids")
	}
	for _, c := range []struct {
		name       string
		s          *structural.Schema
		root       bool
		sameDecl   bool
		sameAsBase bool
	}{
		{"maxLength", s("x", list(str(6), 2), false), false, true, false},
		{"maxItems", s("x", list(str(5), 3), false), false, true, false},
		{"required", s("x", list(str(5), 2), true), false, true, false},
		{"int-or-string", s("x", list(ios, 2), false), false, false, false},
		{"field name", s("y", list(str(5), 2), false), false, false, false},
		{"field type", s("x", list(&structural.Schema{Generic: structural.Generic{Type: "integer"}}, 2), false), false, false, false},
		{"resource root", s("x", list(str(5), 2), false), true, false, false},
	} {
		d := in.ids(newDeclType(c.s, c.root))
		if (d.full == base.full) != c.sameAsBase {
			t.Errorf("%s: same full id = %t, want %t", c.name, d.full == base.full, c.sameAsBase)
		}
		if (d.decl == base.decl) != c.sameDecl {
			t.Errorf("%s: same declaration id = %t, want %t", c.name, d.decl == base.decl, c.sameDecl)
		}
	}
}

// TestCacheSharesNodes checks what the Cache shares: nodes with the same
// rules and equal types compile once, also across calls; a bound makes
// another compilation but not another environment; Compile (which
// creates every program) does not take Check's results.
func TestCacheSharesNodes(t *testing.T) {
	rule := crdschema.ValidationRule{Rule: "self.x.size() < 5"}
	node := func(maxLen int64) *structural.Schema {
		x := str("string")
		x.ValueValidation = &structural.ValueValidation{MaxLength: i64(maxLen)}
		return obj(map[string]*structural.Schema{"x": x}, rule)
	}
	schema := func() *structural.Schema {
		return obj(map[string]*structural.Schema{"a": node(5), "b": node(5), "c": node(6)})
	}
	c := new(Cache)
	counts := func() (nodes, envs int) {
		c.mu.Lock()
		defer c.mu.Unlock()
		return len(c.nodes), len(c.envs)
	}
	if _, err := Check(schema(), crdschema.NewPath("s"), WithCache(c)); err != nil {
		t.Fatal(err)
	}
	if n, e := counts(); n != 2 || e != 1 {
		t.Errorf("after one Check: %d compilations, %d environments; want 2 (a and b share one), 1", n, e)
	}
	if _, err := Check(schema(), crdschema.NewPath("s"), WithCache(c)); err != nil {
		t.Fatal(err)
	}
	if n, e := counts(); n != 2 || e != 1 {
		t.Errorf("after a second Check: %d compilations, %d environments; want no new ones", n, e)
	}
	// Compile creates programs: compilations of its own, in the
	// environment of stored expressions, where Check compiled its new
	// expressions too (they call no function the two environments
	// declare differently: share.go).
	compiled, err := Compile(schema(), false, WithCache(c))
	if err != nil {
		t.Fatal(err)
	}
	if n, e := counts(); n != 4 || e != 1 {
		t.Errorf("after Compile: %d compilations, %d environments; want 4, 1", n, e)
	}
	for _, name := range []string{"a", "b", "c"} {
		n := compiled.root.props[name]
		if n == nil || len(n.rules) != 1 || !n.rules[0].rule.compiled {
			t.Fatalf("%s: not compiled", name)
		}
		if p, err := n.rules[0].trackedProgram(false); p == nil || err != nil {
			t.Fatalf("%s: no program: %v", name, err)
		}
	}
	errs := compiled.Validate(context.Background(), nil, map[string]any{"a": map[string]any{"x": "abcdef"}}, nil).Errors
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "failed rule: self.x.size() < 5") {
		t.Errorf("Validate: %v", errs)
	}
}
