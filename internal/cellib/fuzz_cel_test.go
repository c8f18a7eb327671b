package cellib_test

import (
	"testing"

	"github.com/google/cel-go/cel"
)

// FuzzLibraryFunctions evaluates every function that parses or inspects a
// string on arbitrary input: none may panic, and every result is a value
// or an error.
func FuzzLibraryFunctions(f *testing.F) {
	for _, s := range []string{"", "12Mi", "-1.5e3", "192.168.0.1", "::1", "10.0.0.0/8", "2001:db8::/32",
		"https://example.com:80/p?q=1#f", "/abs", "1.2.3-beta+b", "v1.2", "my-name", "example.com/Name", "[a-z]+", "("} {
		f.Add(s)
	}
	env := newEnv(f, cel.Variable("s", cel.StringType))
	exprs := []string{
		`isQuantity(s) ? [sign(quantity(s)), quantity(s).compareTo(quantity("1")), quantity(s).add(1).sub(quantity(s)).asInteger()] : []`,
		`isQuantity(s) && quantity(s).isInteger() ? quantity(s).asInteger() : 0`,
		`isQuantity(s) ? quantity(s).asApproximateFloat() : 0.0`,
		`isIP(s) ? [string(ip(s)), ip(s).family(), ip(s).isLoopback(), ip(s).isGlobalUnicast(), ip.isCanonical(s)] : []`,
		`isCIDR(s) ? [string(cidr(s).masked()), cidr(s).prefixLength(), cidr(s).containsIP(cidr(s).ip()), cidr(s).containsCIDR(s)] : []`,
		`cidr("10.0.0.0/8").containsIP(s)`,
		`isURL(s) ? [url(s).getScheme(), url(s).getHost(), url(s).getHostname(), url(s).getPort(), url(s).getEscapedPath(), url(s).getQuery()] : []`,
		`isSemver(s, true) ? [semver(s, true).major(), semver(s, true).compareTo(semver("1.0.0"))] : []`,
		`["dns1123Label", "dns1123Subdomain", "dns1035Label", "qualifiedName", "dns1123LabelPrefix", "dns1123SubdomainPrefix",
		  "dns1035LabelPrefix", "labelValue", "uri", "uuid", "byte", "date", "datetime"].map(n, format.named(n).value().validate(s))`,
		`"abc 123".find(s)`,
		`s.findAll("[0-9]+", 3)`,
	}
	var prgs []cel.Program
	for _, e := range exprs {
		ast, iss := env.Compile(e)
		if iss.Err() != nil {
			f.Fatalf("%s: %v", e, iss.Err())
		}
		prg, err := env.Program(ast, cel.EvalOptions(cel.OptOptimize), cel.CostLimit(1000000))
		if err != nil {
			f.Fatalf("%s: %v", e, err)
		}
		prgs = append(prgs, prg)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i, prg := range prgs {
			val, _, err := prg.Eval(map[string]any{"s": s})
			if err == nil && val == nil {
				t.Fatalf("%s: no value and no error", exprs[i])
			}
		}
	})
}
