package difffuzz

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apiserver/pkg/cel/library"

	"github.com/crdschema/crdschema/internal/cellib"
)

// celSide is one side of the CEL comparison: an environment with the
// variables s (a string) and l (a list of integers), the options its
// programs are built with, and its cost estimator.
type celSide struct {
	env  *cel.Env
	prg  []cel.ProgramOption
	cost checker.CostEstimator
}

// celVars declares the variables of the fuzzed expressions.
var celVars = []cel.EnvOption{cel.Variable("s", cel.StringType), cel.Variable("l", cel.ListType(cel.IntType))}

// upstreamCEL is the API server's base environment for new expressions at
// a compatibility version, as CRD validation rules get it.
func upstreamCEL(tb testing.TB, minor uint) celSide {
	set, err := environment.MustBaseEnvSet(version.MajorMinor(1, minor)).Extend(environment.VersionedOptions{
		IntroducedVersion: version.MajorMinor(1, 0), EnvOptions: celVars,
	})
	if err != nil {
		tb.Fatal(err)
	}
	env, err := set.Env(environment.NewExpressions)
	if err != nil {
		tb.Fatal(err)
	}
	return celSide{env: env, cost: &library.CostEstimator{}}
}

// oursCEL is the same environment built from internal/cellib, with the
// options of the API server's base environment (environment/base.go of
// k8s.io/apiserver v0.37.2) at that compatibility version.
func oursCEL(tb testing.TB, minor uint) celSide {
	listsVersion := uint32(0)
	if minor >= 37 {
		listsVersion = 1
	}
	opts := []cel.EnvOption{
		cel.HomogeneousAggregateLiterals(), cel.EagerlyValidateDeclarations(true), cel.DefaultUTCTimeZone(true),
		cellib.URLs(), cellib.Regex(), cel.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
		cellib.Lists(listsVersion), cellib.Authz(),
		cel.CrossTypeNumericComparisons(true), cel.OptionalTypes(), cellib.Quantity(),
		cel.ASTValidators(cel.ValidateDurationLiterals(), cel.ValidateTimestampLiterals(),
			cel.ValidateRegexLiterals(), cel.ValidateHomogeneousAggregateLiterals()),
		ext.Strings(ext.StringsVersion(2)), ext.Sets(), cellib.IP(), cellib.CIDR(), cellib.Format(),
		cellib.AuthzSelectors(), ext.TwoVarComprehensions(), cellib.Semver(1), ext.Lists(ext.ListsVersion(3)),
	}
	env, err := cel.NewEnv(append(opts, celVars...)...)
	if err != nil {
		tb.Fatal(err)
	}
	est := &cellib.CostEstimator{}
	return celSide{env: env, cost: est, prg: []cel.ProgramOption{
		cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost), cel.CostLimit(celconfig.PerCallLimit),
		cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false)), cel.CostTracking(est),
	}}
}

// celOutcome is everything observable about one expression on one side.
type celOutcome struct {
	compileErr string
	estMin     uint64
	estMax     uint64
	estErr     string
	value      string
	evalErr    string
	cost       uint64
}

func (o celOutcome) String() string {
	if o.compileErr != "" {
		return "compile error: " + o.compileErr
	}
	return fmt.Sprintf("estimate [%d, %d] %s; value %s; error %q; cost %d", o.estMin, o.estMax, o.estErr, o.value, o.evalErr, o.cost)
}

func (c celSide) run(expr string, vars map[string]any) celOutcome {
	ast, iss := c.env.Compile(expr)
	if iss.Err() != nil {
		return celOutcome{compileErr: iss.Err().Error()}
	}
	var o celOutcome
	if est, err := c.env.EstimateCost(ast, c.cost); err != nil {
		o.estErr = err.Error()
	} else {
		o.estMin, o.estMax = est.Min, est.Max
	}
	prg, err := c.env.Program(ast, c.prg...)
	if err != nil {
		o.evalErr = "program: " + err.Error()
		return o
	}
	val, det, err := prg.Eval(vars)
	if err != nil {
		o.evalErr = err.Error()
	} else {
		o.value = renderCEL(val)
	}
	if det != nil && det.ActualCost() != nil {
		o.cost = *det.ActualCost()
	}
	return o
}

// renderCEL writes a CEL value so that equal values of the two sides read
// the same: the library's own types (quantity, IP, URL, ...) are different
// Go types on each side and are written by type name and their string
// conversion where CEL has one.
func renderCEL(v ref.Val) string {
	switch x := v.(type) {
	case traits.Lister:
		var b strings.Builder
		b.WriteString("[")
		it := x.Iterator()
		for i := 0; it.HasNext() == types.True; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(renderCEL(x.Get(it.Next())))
		}
		return b.String() + "]"
	case traits.Mapper:
		var parts []string
		it := x.Iterator()
		for it.HasNext() == types.True {
			k := it.Next()
			parts = append(parts, renderCEL(k)+": "+renderCEL(x.Get(k)))
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ", ") + "}"
	}
	switch v.Type() {
	case types.BoolType, types.IntType, types.UintType, types.DoubleType, types.StringType, types.BytesType,
		types.NullType, types.DurationType, types.TimestampType, types.TypeType:
		return fmt.Sprintf("%s(%v)", v.Type().TypeName(), v.Value())
	}
	s := v.Type().TypeName()
	if str := v.ConvertToType(types.StringType); str.Type() == types.StringType {
		s += fmt.Sprintf("(%q)", str.Value())
	}
	return s
}

// celExpressions exercise every function of the libraries on s.
var celExpressions = []string{
	`isQuantity(s) ? [sign(quantity(s)), quantity(s).compareTo(quantity("1")), quantity(s).add(1).sub(quantity(s)).asInteger()] : []`,
	`isQuantity(s) && quantity(s).isInteger() ? quantity(s).asInteger() : 0`,
	`isQuantity(s) ? [quantity(s).asApproximateFloat(), quantity(s).isGreaterThan(quantity("1k")), quantity(s).add(quantity("1Mi")).isLessThan(quantity(s))] : []`,
	`quantity(s)`,
	`isIP(s) ? [string(ip(s)), ip(s).family(), ip(s).isLoopback(), ip(s).isGlobalUnicast(), ip(s).isUnspecified(), ip(s).isLinkLocalMulticast(), ip.isCanonical(s)] : []`,
	`ip(s)`,
	`isCIDR(s) ? [string(cidr(s).masked()), cidr(s).prefixLength(), cidr(s).containsIP(cidr(s).ip()), cidr(s).containsCIDR(s), string(cidr(s).ip())] : []`,
	`cidr(s)`,
	`cidr("10.0.0.0/8").containsIP(s)`,
	`cidr("2001:db8::/32").containsCIDR(s)`,
	`isURL(s) ? [url(s).getScheme(), url(s).getHost(), url(s).getHostname(), url(s).getPort(), url(s).getEscapedPath(), url(s).getQuery()] : []`,
	`url(s)`,
	`isSemver(s) ? [semver(s).major(), semver(s).minor(), semver(s).patch(), semver(s).compareTo(semver("1.0.0")), semver(s).isLessThan(semver("1.2.3"))] : []`,
	`isSemver(s, true) ? [semver(s, true).major(), semver(s, true).compareTo(semver("1.0.0"))] : []`,
	`semver(s)`,
	`["dns1123Label", "dns1123Subdomain", "dns1035Label", "qualifiedName", "dns1123LabelPrefix", "dns1123SubdomainPrefix",
	  "dns1035LabelPrefix", "labelValue", "uri", "uuid", "byte", "date", "datetime"].map(n, format.named(n).value().validate(s))`,
	`format.named(s).hasValue()`,
	`"abc 123 x".find(s)`,
	`"abc 123 x".findAll(s)`,
	`s.findAll("[0-9]+", 3)`,
	`s.matches("^[a-z]+$")`,
	`l.isSorted() && l.sum() >= l.min() && l.max() >= 0 && l.indexOf(2) == l.lastIndexOf(2)`,
	`[s, s + "x"].isSorted()`,
	`[s].indexOf("a")`,
	`s.split(",").sortBy(x, x).distinct()`,
	`s.lowerAscii() + s.upperAscii() + s.trim() + s.replace("a", "b", 2) + s.substring(0, size(s) > 2 ? 2 : 0)`,
	`s.indexOf("a") + s.lastIndexOf("b")`,
	`lists.range(size(s) % 5).map(i, i * 2)`,
	`sets.contains(l, [1]) && sets.intersects(l, [3])`,
	`s.format([1, 2.5, "x", true, [1], {"a": 1}])`,
	`"%s %d %f %e %x %o %b".format([s, size(s), 1.5, 1.5, size(s), 8, 5])`,
	`strings.quote(s)`,
	`s.reverse() == s`,
	`optional.of(s).orValue("x")`,
	`l.all(i, v, v > i)`,
	`{"a": s}.transformMap(k, v, v + k)`,
	`authorizer.path("/x").check("get").allowed()`,
}

// FuzzCELLibrary compares internal/cellib with the API server's CEL
// libraries on arbitrary strings: each of celExpressions is compiled and
// evaluated on both sides, at the compatibility versions of Kubernetes
// 1.37 (1.36) and 1.38 (1.37), and must give the same compile errors, cost
// estimates, values, runtime errors and actual costs.
func FuzzCELLibrary(f *testing.F) {
	for _, s := range []string{"", "12Mi", "-1.5e3", "1e3", "0.1", "192.168.0.1", "::1", "::ffff:1.2.3.4", "10.0.0.0/8",
		"2001:db8::/32", "https://example.com:80/p?q=1#f", "/abs", "1.2.3-beta+b", "v1.2", "01.2.3", "my-name",
		"example.com/Name", "[a-z]+", "(", "a,b,a", "%s", "%d"} {
		f.Add(s)
	}
	sides := newCELSides(f)
	f.Fuzz(func(t *testing.T, s string) {
		vars := map[string]any{"s": s, "l": []int64{1, 2, 3}}
		for _, expr := range celExpressions {
			compareCEL(t, sides, expr, vars)
		}
	})
}

// FuzzCELExpression compares the two sides on arbitrary expressions over
// s = "a,b" and l = [1, 2, 3].
func FuzzCELExpression(f *testing.F) {
	for _, e := range celExpressions {
		f.Add(e)
	}
	for _, e := range []string{`quantity("1.5Gi").asInteger()`, `ip("1.2.3.4") == ip("1.2.3.4")`, `url("x").getHost()`,
		`[1, 2].sum() + [1.5].sum()`, `["b", "a"].min()`, `semver("1.2.3") == semver("1.2.3")`, `cidr("::/0").ip().family()`,
		`quantity("1") == quantity("1000m")`, `duration("1h") < duration("2h")`, `timestamp("2020-01-01T00:00:00Z").getFullYear()`} {
		f.Add(e)
	}
	sides := newCELSides(f)
	vars := map[string]any{"s": "a,b", "l": []int64{1, 2, 3}}
	f.Fuzz(func(t *testing.T, expr string) {
		if len(expr) > 1000 {
			return
		}
		compareCEL(t, sides, expr, vars)
	})
}

// celPair is the two sides at one compatibility version.
type celPair struct {
	minor            uint
	upstream, crdlib celSide
}

func newCELSides(tb testing.TB) []celPair {
	var out []celPair
	for _, minor := range []uint{36, 37} {
		out = append(out, celPair{minor: minor, upstream: upstreamCEL(tb, minor), crdlib: oursCEL(tb, minor)})
	}
	return out
}

func compareCEL(t *testing.T, sides []celPair, expr string, vars map[string]any) {
	t.Helper()
	for _, p := range sides {
		want := p.upstream.run(expr, vars)
		got := p.crdlib.run(expr, vars)
		if got != want {
			t.Errorf("compatibility version 1.%d, %s with s=%q:\ncrdschema %v\nupstream  %v", p.minor, expr, vars["s"], got, want)
		}
	}
}
