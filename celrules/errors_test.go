package celrules

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// TestCompiledErrors: the rules that do not compile are reported by
// Errors at compile time, lazily compiled or not, with their place in the
// schema, and by Validate on every value, as before.
func TestCompiledErrors(t *testing.T) {
	s := mustSchema(t, json.RawMessage(`{"type":"object","properties":{
		"spec":{"type":"object","properties":{
			"replicas":{"type":"string"},
			"items":{"type":"array","items":{"type":"object","properties":{"n":{"type":"integer"}},
				"x-kubernetes-validations":[{"rule":"self.n > 0","messageExpression":"1"},{"rule":"self.nope"}]}}},
		"x-kubernetes-validations":[{"rule":"self.replicas <= 10"}]}}}`))
	for _, lazy := range []bool{false, true} {
		var opts []Option
		if lazy {
			opts = append(opts, WithLazyCompile())
		}
		c, err := Compile(s, false, opts...)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range c.Errors() {
			got = append(got, e.Field+": "+strings.SplitN(e.Detail, "\n", 2)[0])
		}
		want := []string{
			"properties[spec].x-kubernetes-validations[0].rule: compilation failed: ERROR: <input>:1:15: found no matching overload for '_<=_' applied to '(string, int)'",
			"properties[spec].properties[items].items.x-kubernetes-validations[0].messageExpression: messageExpression must evaluate to a string",
			"properties[spec].properties[items].items.x-kubernetes-validations[1].rule: compilation failed: ERROR: <input>:1:5: undefined field 'nope'",
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("lazy %t: Errors\n%s\nwant\n%s", lazy, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		errs := c.Validate(context.Background(), nil, map[string]any{"spec": map[string]any{"replicas": "x"}}, nil).Errors
		if len(errs) != 1 || !strings.Contains(errs[0].Detail, "compile error") {
			t.Errorf("lazy %t: Validate: %v", lazy, errs)
		}
	}
	ok, err := Compile(mustSchema(t, json.RawMessage(`{"type":"object","x-kubernetes-validations":[{"rule":"true"}]}`)), false)
	if err != nil || ok.Errors() != nil {
		t.Errorf("rules that compile: %v %v", err, ok.Errors())
	}
}
