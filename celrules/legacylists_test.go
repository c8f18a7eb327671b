package celrules

import (
	"context"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
)

// validateAt is validate at the Kubernetes release rel.
func validateAt(t *testing.T, rel string, s *structural.Schema, o, old any) []string {
	t.Helper()
	c, err := Compile(s, false, WithKubernetesVersion(mustRelease(t, rel)))
	if err != nil {
		t.Fatal(err)
	}
	errs := c.Validate(context.Background(), crdschema.NewPath("spec"), o, old).Errors
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func formatted(typ, format string) *structural.Schema {
	s := str(typ)
	s.ValueValidation = &structural.ValueValidation{Format: format}
	return s
}

// TestListSemanticsBefore137 checks the list semantics of releases before
// 1.37 (legacylists.go) against those of 1.37, on the results upstream
// gives (see the conformance cases celrules/legacy-lists-*).
func TestListSemanticsBefore137(t *testing.T) {
	item := obj(map[string]*structural.Schema{"k": str("string"), "t": formatted("string", "date-time")})
	item4 := obj(map[string]*structural.Schema{"a": str("string"), "b": str("string"), "c": str("string"), "d": str("string"), "v": str("integer")})
	s := obj(map[string]*structural.Schema{
		"ints":   listOf(str("integer"), "set"),
		"nums":   listOf(str("number"), "set"),
		"floats": listOf(str("number"), "set"),
		"times":  listOf(formatted("string", "date-time"), "set"),
		"bytes":  listOf(formatted("string", "byte"), "set"),
		"strs":   listOf(str("string"), "set"),
		"atimes": listOf(formatted("string", "date-time"), ""),
		"abytes": listOf(formatted("string", "byte"), ""),
		"ml":     listOf(item, "map", "k"),
		"mlDup":  listOf(item, "map", "k"),
		"ml4":    listOf(item4, "map", "a", "b", "c", "d"),
	})
	o := map[string]any{
		"ints":   []any{int64(1), int64(2)},
		"nums":   []any{int64(1), int64(2)},
		"floats": []any{1.5},
		"times":  []any{"2020-01-01T00:00:00Z"},
		"bytes":  []any{"Zm9v"},
		"strs":   []any{"a", "b"},
		"atimes": []any{"2020-01-01T00:00:00Z"},
		"abytes": []any{"Zm9v"},
		"ml":     []any{map[string]any{"k": "a"}, map[string]any{"k": "b"}},
		"mlDup":  []any{map[string]any{"k": "a"}, map[string]any{"k": "a"}},
		"ml4": []any{
			map[string]any{"a": "x y", "b": "z", "c": "c", "d": "d", "v": int64(1)},
			map[string]any{"a": "x", "b": "y z", "c": "c", "d": "d", "v": int64(2)},
		},
	}
	const unhashable = "runtime error: hash of unhashable type []uint8"
	tests := []struct {
		rule       string
		now, older string // "" passes, otherwise a part of the error
	}{
		{"self.ints == self.ints", "", ""},
		{"self.nums == self.nums", "", "failed"},
		{"self.floats == self.floats", "", ""},
		{"self.times == self.times", "", "failed"},
		{"self.bytes == self.bytes", "", unhashable},
		{"self.strs == ['a', 'b']", "", ""},
		{"!(self.strs == ['a', 'a'])", "", "failed"},
		{"!(dyn(self.ml) == dyn(self.mlDup))", "", "failed"},
		{"dyn(self.mlDup) != dyn(self.ml)", "", ""},
		{"self.ml4 == self.ml4", "", "failed"},
		{"(self.abytes + self.abytes)[1] == self.abytes[0]", "", "invalid data, expected string, got []uint8"},
		{"(self.atimes + self.atimes)[1] == self.atimes[0]", "", "invalid data, expected string, got time.Time"},
		{"size(self.times + self.times) == 1", "", "failed"},
		{"size(self.bytes + self.bytes) == 1", "", unhashable},
		{"size(self.ints + self.ints) == 2", "", ""},
		// A field is a new value each time it is read.
		{"size(self.strs + ['q']) == 3 && !(self.strs == ['a', 'q'])", "", ""},
		{"size(self.ml + self.ml) == 2 && (self.ml + self.ml)[1].k == 'b'", "", ""},
	}
	for _, tt := range tests {
		r := obj(s.Properties, rule(tt.rule))
		for _, c := range []struct{ rel, want string }{{"1.37", tt.now}, {"1.36", tt.older}, {"1.33", tt.older}} {
			got := strings.Join(validateAt(t, c.rel, r, o, nil), "\n")
			if (got == "") != (c.want == "") || !strings.Contains(got, c.want) {
				t.Errorf("%s at %s: got %q, want %q", tt.rule, c.rel, got, c.want)
			}
		}
	}
}

// TestSetAddPollutes checks that + on a set list before 1.37 adds to the
// set of the left-hand value, which self keeps for the node's next rules.
func TestSetAddPollutes(t *testing.T) {
	s := listOf(str("string"), "set")
	s.XValidations = []crdschema.ValidationRule{rule("size(self + ['q']) == 3"), rule("!(self == ['a', 'q'])")}
	o := []any{"a", "b"}
	for rel, want := range map[string]string{"1.37": "", "1.36": "spec: Invalid value: failed rule: !(self == ['a', 'q'])"} {
		c, err := Compile(s, false, WithKubernetesVersion(mustRelease(t, rel)))
		if err != nil {
			t.Fatal(err)
		}
		errs := c.Validate(context.Background(), crdschema.NewPath("spec"), o, nil).Errors
		if got := errs.ToAggregate(); (got == nil) != (want == "") || got != nil && got.Error() != want {
			t.Errorf("at %s: got %v, want %q", rel, got, want)
		}
	}
}

// TestSetAddKeepsObject checks that + on a list before 1.37 leaves the
// object's array as it is, whatever its capacity.
func TestSetAddKeepsObject(t *testing.T) {
	l := make([]any, 1, 4)
	l[0] = "a"
	s := obj(map[string]*structural.Schema{"l": listOf(str("string"), ""), "s": listOf(str("string"), "set")}, rule("(self.l + ['b'])[1] == 'b' && (self.s + ['c'])[1] == 'c' && (self.l + ['d'])[1] == 'd'"))
	o := map[string]any{"l": l, "s": l}
	if got := validateAt(t, "1.36", s, o, nil); len(got) > 0 {
		t.Fatal(got)
	}
	if l[:2][1] != nil {
		t.Errorf("the object's array was written to: %v", l[:2])
	}
}

// mustRelease parses a Kubernetes release.
func mustRelease(t testing.TB, s string) crdschema.KubernetesVersion {
	t.Helper()
	v, err := crdschema.ParseKubernetesVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
