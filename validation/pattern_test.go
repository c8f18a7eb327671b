package validation_test

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// TestPatternMatches validates many strings against schemas with the
// usual Kubernetes patterns, through one Validator, so that its patterns
// go from regexp to their automata, and checks every answer against
// regexp.MatchString and the failure's text against the API server's.
func TestPatternMatches(t *testing.T) {
	patterns := []string{
		"^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$",
		`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`,
		`^([0-9]{1,5}(h|m|s|ms)){1,4}$`,
		`^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$`,
		`\bword\b`, // not for an automaton: regexp answers
		`^.*é$`,
	}
	props := map[string]any{}
	for i, p := range patterns {
		props[string(rune('a'+i))] = map[string]any{"type": "string", "pattern": p}
	}
	raw, err := json.Marshal(map[string]any{"type": "object", "properties": props})
	if err != nil {
		t.Fatal(err)
	}
	var jp crdschema.JSONSchemaProps
	if err := json.Unmarshal(raw, &jp); err != nil {
		t.Fatal(err)
	}
	schema, err := structural.New(&jp)
	if err != nil {
		t.Fatal(err)
	}
	v, err := validation.New(schema)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	alphabet := []string{"a", "z", "A", "0", "9", "-", ".", "h", "m", "s", "!", " ", "é", "\xff", "word", "_", "`", "ms"}
	for range 300 {
		var sb strings.Builder
		for range rng.IntN(10) {
			sb.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		s := sb.String()
		obj := map[string]any{}
		for i := range patterns {
			obj[string(rune('a'+i))] = s
		}
		errs := v.Validate(nil, obj)
		for i, p := range patterns {
			field := string(rune('a' + i))
			want := ""
			if !regexp.MustCompile(p).MatchString(s) {
				want = field + " in body should match '" + p + "'"
			}
			got := ""
			for _, e := range errs {
				if e.Field == field {
					got = e.Detail
				}
			}
			if got != want {
				t.Errorf("pattern %q, value %q: error %q, want %q", p, s, got, want)
			}
		}
	}
}
