package celparse

import (
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
)

// TestProbe checks that New makes a parser that always declines for an
// environment whose parser differs in what the package does not
// reproduce, and one that parses for the configurations it does.
func TestProbe(t *testing.T) {
	text := "[1, 2].all(x, x > 0) || a || b"
	for _, c := range []struct {
		name  string
		opts  []cel.EnvOption
		works bool
	}{
		{"default", nil, true},
		{"optional syntax", []cel.EnvOption{cel.OptionalTypes()}, true},
		{"accumulator __result__", []cel.EnvOption{cel.EnableHiddenAccumulatorName(false)}, true},
		{"macro call tracking", []cel.EnvOption{cel.EnableMacroCallTracking()}, false},
		{"recursion limit 50", []cel.EnvOption{cel.ParserRecursionLimit(50)}, false},
		{"size limit 1000", []cel.EnvOption{cel.ParserExpressionSizeLimit(1000)}, false},
		{"no macros", []cel.EnvOption{cel.ClearMacros()}, true},
	} {
		env, err := cel.NewEnv(c.opts...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		p := New(env)
		if p.ok != c.works {
			t.Errorf("%s: the parser works: %v, want %v", c.name, p.ok, c.works)
			continue
		}
		_, ok := p.Parse(text)
		if ok != c.works {
			t.Errorf("%s: parsed %q: %v, want %v", c.name, text, ok, c.works)
		}
		if c.works {
			checkSame(t, testEnv{c.name, env, p}, text)
		}
	}
}

// TestDeclines checks texts the parser leaves to cel-go, whether cel-go
// parses them or not.
func TestDeclines(t *testing.T) {
	te := testEnvs()[4]
	for _, text := range []string{
		strings.Repeat("(", 150) + "x" + strings.Repeat(")", 150), // cel-go parses it
		strings.Repeat("(", 300) + "x" + strings.Repeat(")", 300), // cel-go's recursion limit
		"x" + strings.Repeat(".a", 150),
		strings.Repeat("-", 2) + "x" + strings.Repeat(" ", maxText), // too long for the parser
		"a.`b`", "`a`", "a ☃ b", "'\xff'", "if", "namespace(1)", "a.?b[", "1 +", "has(a)",
		"9223372036854775808", "-9223372036854775809", "18446744073709551616u", "1e400",
		"\"\\ud800\"", "b\"\\u00ff\"", "\"\\q\"", "'a\nb'", "\"a\rb\"", "0X1", "1in [1]", "[,]",
	} {
		if _, ok := te.parser.Parse(text); ok {
			t.Errorf("%.40q: parsed, want declined", text)
		}
	}
}
