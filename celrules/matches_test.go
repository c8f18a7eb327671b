package celrules

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
)

// TestMatchesConstants checks that rules calling matches with a constant
// pattern, in both forms, run on internal/pattern's Matcher and answer as
// regexp does, tracked and within bounds, patterns of every kind and
// strings that reach the automaton (more than its first matches).
func TestMatchesConstants(t *testing.T) {
	var compiled []string
	matchesHook = func(expr string) { compiled = append(compiled, expr) }
	defer func() { matchesHook = nil }()
	patterns := []string{
		`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`,
		`^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$`,
		`[0-9]+`,
		`\bword\b`, // declines to regexp
		`^.$`,      // non-ASCII input goes to regexp
		``,
	}
	inputs := []string{"", "a", "abc.def", "-abc", "a..b", "/p%2Fq", "%zz", "x12y", "a word b", "é", "\xff", "UPPER"}
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		for _, form := range []string{"self.s.matches(%q)", "matches(self.s, %q)"} {
			rule := fmt.Sprintf(form, p)
			s := obj(map[string]*structural.Schema{"s": str("string")}, crdschema.ValidationRule{Rule: rule})
			s.Properties["s"].ValueValidation = &structural.ValueValidation{MaxLength: i64(64)}
			for _, lazy := range []bool{false, true} {
				var opts []Option
				if lazy {
					opts = append(opts, LazyCompile())
				}
				c, err := Compile(s, false, opts...)
				if err != nil {
					t.Fatal(err)
				}
				for round := 0; round < 3; round++ { // past the automaton's first matches
					for _, in := range inputs {
						for _, vopts := range [][]ValidateOption{nil, {WithBoundedCost()}} {
							errs := c.Validate(context.Background(), nil, map[string]any{"s": in}, nil, vopts...).Errors
							if got, want := len(errs) == 0, re.MatchString(in); got != want {
								t.Fatalf("%s on %q (lazy %v, bounded %v): passes %v, regexp %v: %v", rule, in, lazy, len(vopts) > 0, got, want, errs)
							}
						}
					}
				}
			}
		}
	}
	if n := len(compiled); n == 0 || !strings.Contains(strings.Join(compiled, "\n"), patterns[0]) {
		t.Errorf("the patterns of matches were not compiled by matchesCall: %q", compiled)
	}
}
