package celrules

import (
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

func TestEqualDeclTypes(t *testing.T) {
	s := func(maxLen int64) *structural.Schema {
		return obj(map[string]*structural.Schema{"x": {Generic: structural.Generic{Type: "string"},
			ValueValidation: &structural.ValueValidation{MaxLength: i64(maxLen)}}})
	}
	a, b, c := newDeclType(s(5), false), newDeclType(s(5), false), newDeclType(s(6), false)
	eq := func(x, y *declType, budget int) bool { return equalDeclTypes(x, y, &budget) }
	if !eq(a, b, 10) {
		t.Error("equal types reported different")
	}
	if eq(a, b, 1) {
		t.Error("comparison went beyond its budget")
	}
	if eq(a, c, 10) {
		t.Error("types with different maxLength reported equal")
	}
	if eq(a, newDeclType(s(5), true), 10) {
		t.Error("resource root and plain object reported equal")
	}
}
