package pattern

import (
	"regexp"
	"testing"
)

// benchCases are Kubernetes patterns with typical strings.
var benchCases = []struct {
	name, expr, input string
}{
	{"HeaderName", "^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$", "X-Request-Id"},
	{"DNSSubdomain", `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`, "checkout-backend.shop-prod.svc.cluster.local"},
	{"Duration", `^([0-9]{1,5}(h|m|s|ms)){1,4}$`, "1h30m15s500ms"},
	{"Label", `^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$`, "http-metrics"},
	{"Path", `^/[A-Za-z0-9\/\-._~%!$&'()*+,;=:]*$`, "/api/v1/orders/list"},
	{"Unanchored", `[a-z]+`, "12345-ok"},
	{"Mismatch", `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`, "checkout-backend.shop-prod.svc.cluster.local-"},
}

func BenchmarkMatch(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) {
			b.Run("dfa", func(b *testing.B) {
				m := eager(b, c.expr)
				if !m.usesDFA() {
					b.Fatalf("%q declined", c.expr)
				}
				want := regexp.MustCompile(c.expr).MatchString(c.input)
				b.ReportAllocs()
				for b.Loop() {
					if m.MatchString(c.input) != want {
						b.Fatal("wrong answer")
					}
				}
			})
			b.Run("regexp", func(b *testing.B) {
				re := regexp.MustCompile(c.expr)
				want := re.MatchString(c.input)
				b.ReportAllocs()
				for b.Loop() {
					if re.MatchString(c.input) != want {
						b.Fatal("wrong answer")
					}
				}
			})
		})
	}
}

// BenchmarkBuild measures building the automaton, which a Matcher does
// once, after buildAfter matches.
func BenchmarkBuild(b *testing.B) {
	for _, c := range benchCases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if compileDFA(c.expr) == nil {
					b.Fatal("declined")
				}
			}
		})
	}
}

// BenchmarkCompile measures compiling the patterns of the conformance
// cases (one op = all of them), as a Validator does for a schema: Compile
// against regexp.Compile.
func BenchmarkCompile(b *testing.B) {
	var ps []string
	for _, p := range yamlPatterns(b, "../../conformance/testdata/cases") {
		if _, err := regexp.Compile(p); err == nil {
			ps = append(ps, p)
		}
	}
	b.Run("pattern", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, p := range ps {
				if _, err := Compile(p); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("regexp", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, p := range ps {
				if _, err := regexp.Compile(p); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
