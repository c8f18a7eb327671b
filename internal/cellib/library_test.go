package cellib_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"

	"github.com/crdschema/crdschema/internal/cellib"
)

// newEnv returns an environment with every Kubernetes library, as the API
// server's stored-expressions environment has them.
func newEnv(t testing.TB, extra ...cel.EnvOption) *cel.Env {
	t.Helper()
	opts := append([]cel.EnvOption{
		cel.OptionalTypes(), cel.CrossTypeNumericComparisons(true),
		ext.Strings(ext.StringsVersion(2)), ext.Sets(), ext.Lists(ext.ListsVersion(3)), ext.TwoVarComprehensions(),
		cellib.URLs(), cellib.Regex(), cellib.Lists(1), cellib.Authz(), cellib.AuthzSelectors(),
		cellib.Quantity(), cellib.IP(), cellib.CIDR(), cellib.Format(), cellib.Semver(1),
		cel.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
	}, extra...)
	env, err := cel.NewEnv(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// outcome is what evaluating an expression gave.
type outcome struct {
	val        ref.Val
	err        string // runtime or compile error text ("" if none)
	compileErr bool
	est        checker.CostEstimate
	cost       uint64
}

func run(t testing.TB, env *cel.Env, expr string, vars map[string]any) outcome {
	t.Helper()
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		return outcome{err: iss.Err().Error(), compileErr: true}
	}
	est, err := env.EstimateCost(ast, &cellib.CostEstimator{})
	if err != nil {
		t.Fatalf("%s: estimate: %v", expr, err)
	}
	prg, err := env.Program(ast, cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost),
		cel.CostTracking(&cellib.CostEstimator{}), cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false)))
	if err != nil {
		return outcome{err: err.Error(), est: est}
	}
	if vars == nil {
		vars = map[string]any{}
	}
	val, det, err := prg.Eval(vars)
	o := outcome{val: val, est: est, cost: *det.ActualCost()}
	if err != nil {
		o.err = err.Error()
	}
	return o
}

// libCase is one expression with its expected result (want) or error
// (wantErr, a substring for compile errors and the exact text otherwise),
// and optionally its static estimate and runtime cost.
type libCase struct {
	expr    string
	want    any
	wantErr string
	est     *checker.CostEstimate
	cost    *uint64
}

func est(min, max uint64) *checker.CostEstimate { return &checker.CostEstimate{Min: min, Max: max} }
func cost(c uint64) *uint64                     { return &c }

func runCases(t *testing.T, cases []libCase) {
	t.Helper()
	env := newEnv(t)
	for _, c := range cases {
		t.Run(c.expr, func(t *testing.T) {
			o := run(t, env, c.expr, nil)
			switch {
			case c.wantErr != "" && o.compileErr:
				if !strings.Contains(o.err, c.wantErr) {
					t.Fatalf("compile error %q, want it to contain %q", o.err, c.wantErr)
				}
				return
			case c.wantErr != "":
				if o.err != c.wantErr {
					t.Fatalf("error %q, want %q", o.err, c.wantErr)
				}
			case o.err != "":
				t.Fatalf("unexpected error %q", o.err)
			default:
				want := types.DefaultTypeAdapter.NativeToValue(c.want)
				if o.val.Equal(want) != types.True {
					t.Fatalf("got %v (%T), want %v", o.val, o.val, c.want)
				}
			}
			if c.est != nil && o.est != *c.est {
				t.Errorf("estimate %v, want %v", o.est, *c.est)
			}
			if c.cost != nil && o.cost != *c.cost {
				t.Errorf("runtime cost %d, want %d", o.cost, *c.cost)
			}
		})
	}
}

const quantityRegexErr = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"

func TestQuantityLibrary(t *testing.T) {
	runCases(t, []libCase{
		{expr: `quantity("12Mi") == quantity("12582912")`, want: true},
		{expr: `quantity("10Mo")`, wantErr: quantityRegexErr},
		{expr: `quantity("10Mm")`, wantErr: "unable to parse quantity's suffix"},
		{expr: `isQuantity("20Mi")`, want: true, est: est(1, 1), cost: cost(1)},
		{expr: `isQuantity("10Mm")`, want: false},
		{expr: `isQuantity([1, 2, 3])`, wantErr: "found no matching overload for 'isQuantity' applied to '(list(int))'"},
		{expr: `quantity("200M") == quantity("0.2G") && quantity("0.2G") == quantity("200M")`, want: true, est: est(3, 6), cost: cost(6)},
		{expr: `quantity("200M") == quantity("0.3G")`, want: false},
		{expr: `quantity("50M").isLessThan(quantity("50Mi"))`, want: true, est: est(3, 3), cost: cost(3)},
		{expr: `quantity("50Mi").isGreaterThan(quantity("50M"))`, want: true},
		{expr: `quantity("200M").compareTo(quantity("0.2G"))`, want: 0},
		{expr: `quantity("50M").compareTo(quantity("50Mi"))`, want: -1},
		{expr: `quantity("50k").add(quantity("20")) == quantity("50.02k")`, want: true, est: est(5, 5), cost: cost(5)},
		{expr: `quantity("50k").sub(20) == quantity("49980")`, want: true},
		{expr: `quantity("50k").add(20).sub(quantity("100k")).sub(-50000).asInteger()`, want: 20},
		{expr: `quantity("9999999999999999999999999999999999999G").asInteger()`, wantErr: "cannot convert value to integer"},
		{expr: `quantity("9999999999999999999999999999999999999G").isInteger()`, want: false},
		{expr: `quantity("1000m").isInteger()`, want: false},
		{expr: `quantity("1Pi").isInteger()`, want: false}, // held as a decimal
		{expr: `quantity("50.703k").asApproximateFloat()`, want: 50703.0},
		{expr: `quantity("1Ei").asApproximateFloat()`, want: 1.152921504606847e+18},
		{expr: `sign(quantity("-5m"))`, want: -1},
		{expr: `sign(quantity("0"))`, want: 0},
		{expr: `quantity("1").sign()`, wantErr: "found no matching overload for 'sign' applied to 'kubernetes.Quantity.()'"},
		{expr: `quantity("9223372036854775807").add(1).isInteger()`, want: false},
		{expr: `[quantity("9999999999999999999999999999999999999")].all(x, x.add(quantity("1")).compareTo(x.add(quantity("2"))) == -1)`, want: true},
		// Kubernetes quirks kept on purpose.
		{expr: `quantity("50020") == quantity("50k").add(20)`, wantErr: "no such overload"},
		{expr: `[quantity("1")].all(x, x.isInteger() && x.compareTo(quantity("1Ei")) < 0 && !x.isInteger())`, want: true},
		{expr: `quantity("1e4294967296").asInteger()`, want: 1}, // 32-bit exponent wraps
		{expr: `quantity(".").asInteger()`, want: 0},
	})
}

func TestIPLibrary(t *testing.T) {
	runCases(t, []libCase{
		{expr: `ip("192.168.0.1") == ip("192.168.0.1")`, want: true, est: est(5, 5), cost: cost(5)},
		{expr: `ip("192.168.0.1.0")`, wantErr: `IP Address "192.168.0.1.0" parse error during conversion from string: ParseAddr("192.168.0.1.0"): IPv4 address too long`},
		{expr: `ip("2001:db8:::68")`, wantErr: `IP Address "2001:db8:::68" parse error during conversion from string: ParseAddr("2001:db8:::68"): each colon-separated field must have at least one digit (at ":68")`},
		{expr: `ip("::ffff:1.2.3.4")`, wantErr: `IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed`},
		{expr: `ip("fe80::1%eth0")`, wantErr: `IP address "fe80::1%eth0" with zone value is not allowed`},
		{expr: `ip("01.2.3.4")`, wantErr: `IP Address "01.2.3.4" parse error during conversion from string: ParseAddr("01.2.3.4"): IPv4 field has octet with leading zero`},
		{expr: `string(ip("2001:DB8::0:0:0:ABCD"))`, want: "2001:db8::abcd"},
		{expr: `ip("192.168.0.1").family()`, want: 4, est: est(3, 3), cost: cost(3)},
		{expr: `ip("::1").family()`, want: 6},
		{expr: `ip("0.0.0.0").isUnspecified()`, want: true},
		{expr: `ip("::1").isLoopback()`, want: true},
		{expr: `ip("224.0.0.1").isLinkLocalMulticast()`, want: true},
		{expr: `ip("fe80::1").isLinkLocalUnicast()`, want: true},
		{expr: `ip("255.255.255.255").isGlobalUnicast()`, want: false},
		{expr: `isIP("::ffff:1.2.3.4")`, want: false},
		{expr: `ip.isCanonical("2001:db8::abcd")`, want: true, est: est(3, 3), cost: cost(3)},
		{expr: `ip.isCanonical("2001:DB8::ABCD")`, want: false},
		{expr: `ip.isCanonical("bad")`, wantErr: `IP Address "bad" parse error during conversion from string: ParseAddr("bad"): unable to parse IP`},
		{expr: `isIP(cidr("1.2.3.4/32"))`, wantErr: "found no matching overload for 'isIP' applied to '(net.CIDR)'"},
		{expr: `type(ip("1.2.3.4")) == net.IP`, want: true},
	})
}

func TestCIDRLibrary(t *testing.T) {
	runCases(t, []libCase{
		{expr: `cidr("192.168.0.0/")`, wantErr: `network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("192.168.0.0/"): bad bits after slash: ""`},
		{expr: `cidr("::ffff:1.2.3.4/120")`, wantErr: `network address parse error during conversion from string: IPv4-mapped IPv6 address "::ffff:1.2.3.4/120" is not allowed`},
		{expr: `cidr("192.168.0.0/24").containsIP("192.168.0.1")`, want: true, est: est(5, 8), cost: cost(5)},
		{expr: `cidr("192.168.0.0/24").containsIP(ip("192.168.1.1"))`, want: false},
		{expr: `cidr("192.168.0.0/24").containsIP("bad")`, wantErr: "no such overload"},
		{expr: `cidr("192.168.0.0/24").containsCIDR("192.168.0.0/25")`, want: true, est: est(7, 11), cost: cost(7)},
		{expr: `cidr("192.168.0.0/24").containsCIDR(cidr("192.168.0.0/23"))`, want: false},
		{expr: `cidr("192.168.0.0/24").containsCIDR("bad")`, wantErr: `network address parse error during conversion from string: network address parse error during conversion from string: netip.ParsePrefix("bad"): no '/'`},
		{expr: `cidr("192.168.0.1/24").ip() == ip("192.168.0.1")`, want: true},
		{expr: `cidr("192.168.0.1/24").masked() == cidr("192.168.0.0/24")`, want: true},
		{expr: `cidr("192.168.0.1/24").prefixLength()`, want: 24},
		{expr: `string(cidr("2001:DB8::1/64"))`, want: "2001:db8::1/64"},
		{expr: `isCIDR("192.168.0.0")`, want: false},
		{expr: `cidr("0.0.0.0/0").containsIP("1.2.3.4")`, want: true, est: est(3, 6), cost: cost(2)},
	})
}

const dns1123LabelErr = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"

func TestFormatLibrary(t *testing.T) {
	runCases(t, []libCase{
		{expr: `format.dns1123Label().validate("my-label-name")`, want: types.OptionalNone},
		{expr: `format.dns1123Label().validate("abc-")`, want: types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, []string{dns1123LabelErr})), est: est(33, 33), cost: cost(9)},
		{expr: `format.dns1123LabelPrefix().validate("ab.c-")`, want: types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, []string{"must not contain dots"}))},
		{expr: `format.dns1123LabelPrefix().validate("my-label-prefix-")`, want: types.OptionalNone},
		{expr: `format.dns1123Label().validate("` + strings.Repeat("a", 64) + `")`, want: types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, []string{"must be no more than 63 characters"}))},
		{expr: `format.labelValue().validate("` + strings.Repeat("a", 64) + `")`, want: types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, []string{"must be no more than 63 bytes"}))},
		{expr: `format.qualifiedName().validate("/Name")`, want: types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, []string{"prefix part must be non-empty"}))},
		{expr: `format.uuid().validate("x")`, want: types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, []string{"does not match the UUID format"}))},
		{expr: `format.byte().validate("aGVsbG8")`, want: types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, []string{"invalid base64"}))},
		{expr: `format.date().validate("2020-01-32")`, want: types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, []string{"invalid date"}))},
		{expr: `format.datetime().validate("2020-01-32T00:00:00Z")`, want: types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, []string{"invalid datetime"}))},
		{expr: `format.uri().validate("x")`, want: types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, []string{`parse "x": invalid URI for request`}))},
		{expr: `format.named("unknown").hasValue()`, want: false, est: est(2, 2), cost: cost(2)},
		{expr: `format.named("dns1123Label").value() == format.dns1123Label()`, want: true, est: est(4, 10)},
		{expr: `format.dns1123Label() == format.dns1035Label()`, want: false},
	})
}

func TestSemverLibrary(t *testing.T) {
	runCases(t, []libCase{
		{expr: `semver("1.2.3") == semver("1.2.3+x")`, want: true, est: est(3, 3), cost: cost(3)},
		{expr: `semver("1.2.3") == semver("1.2.3+build")`, want: true, est: est(4, 4)},
		{expr: `semver("v1.0")`, wantErr: "No Major.Minor.Patch elements found"},
		{expr: `semver("v1.2.3")`, wantErr: `Invalid character(s) found in major number "v1"`},
		{expr: `semver("1.2")`, wantErr: "No Major.Minor.Patch elements found"},
		{expr: `semver("v01.01", true) == semver("1.1.0")`, want: true},
		{expr: `semver("1.2-alpha", true)`, wantErr: "short version cannot contain PreRelease/Build meta data"},
		{expr: `isSemver("1.2.3-beta.1+build.1")`, want: true},
		{expr: `isSemver("01.01.01")`, want: false},
		{expr: `isSemver("01.01.01", true)`, want: true},
		{expr: `isSemver([1, 2, 3])`, wantErr: "found no matching overload for 'isSemver' applied to '(list(int))'"},
		{expr: `semver("1.0.0").isLessThan(semver("1.2.3"))`, want: true},
		{expr: `semver("1.2.3").isGreaterThan(semver("1.0.0"))`, want: true},
		{expr: `semver("1.0.0").compareTo(semver("1.2.3"))`, want: -1},
		{expr: `semver("1.2.3").major() + semver("1.2.3").minor() + semver("1.2.3").patch()`, want: 6},
	})
}

func TestURLLibrary(t *testing.T) {
	runCases(t, []libCase{
		{expr: `url("https://user:pass@example.com:80/path?query=val#fragment").getHost()`, want: "example.com:80", est: est(7, 7)},
		{expr: `url("/absolute-path").getScheme()`, want: ""},
		{expr: `url("../relative-path")`, wantErr: `URL parse error during conversion from string: parse "../relative-path": invalid URI for request`},
		{expr: `url("https://[::1]:80/").getHostname()`, want: "::1"},
		{expr: `url("https://example.com:80/").getPort()`, want: "80"},
		{expr: `url("https://example.com/path with spaces/").getEscapedPath()`, want: "/path%20with%20spaces/"},
		{expr: `url("https://example.com/path?k1=a&k2=b&k2=c").getQuery() == {"k1": ["a"], "k2": ["b", "c"]}`, want: true},
		{expr: `url("https://example.com/path").getQuery() == {}`, want: true},
		{expr: `isURL("https://example.com")`, want: true},
		{expr: `isURL("../x")`, want: false},
		{expr: `url("https://example.com") == url("https://example.com")`, want: true},
	})
	// The text after "invalid port" depends on the Go release's net/url.
	o := run(t, newEnv(t), `url("https://a:b:c/")`, nil)
	if !strings.HasPrefix(o.err, `URL parse error during conversion from string: parse "https://a:b:c/": invalid port`) {
		t.Errorf("url with bad port: error %q", o.err)
	}
}

func TestRegexLibrary(t *testing.T) {
	runCases(t, []libCase{
		{expr: `"abc 123".find("[0-9]+")`, want: "123", est: est(2, 2), cost: cost(2)},
		{expr: `"abc 123".find("xyz")`, want: ""},
		{expr: `"123 abc 456".findAll("[0-9]+")`, want: []string{"123", "456"}},
		{expr: `"123 abc 456".findAll("[0-9]+", 1)`, want: []string{"123"}},
		{expr: `"123 abc 456".findAll("xyz")`, want: []string{}},
		// A constant pattern is compiled when the program is planned.
		{expr: `"abc".find("[")`, wantErr: "error parsing regexp: missing closing ]: `[`"},
	})
	// A pattern known only at runtime fails at runtime.
	env := newEnv(t, cel.Variable("re", cel.StringType))
	o := run(t, env, `"abc".find(re)`, map[string]any{"re": "("})
	if want := "Illegal regex: error parsing regexp: missing closing ): `(`"; o.err != want {
		t.Errorf("find with bad runtime pattern: error %q, want %q", o.err, want)
	}
	o = run(t, env, `"a1b22".findAll(re, 5)`, map[string]any{"re": "[0-9]+"})
	if o.err != "" || o.val.Equal(types.NewStringList(types.DefaultTypeAdapter, []string{"1", "22"})) != types.True {
		t.Errorf("findAll with runtime pattern: %v %q", o.val, o.err)
	}
}

func TestListsLibrary(t *testing.T) {
	runCases(t, []libCase{
		{expr: `[1, 2, 3].isSorted()`, want: true, est: est(13, 13), cost: cost(3)},
		{expr: `[2.0, 1.0].isSorted()`, want: false},
		{expr: `[].isSorted()`, want: true},
		{expr: `[1, 3].sum()`, want: 4},
		{expr: `[duration("1m"), duration("1s")].sum() == duration("61s")`, want: true},
		{expr: `[1, 3].min()`, want: 1},
		{expr: `["b", "a"].max()`, want: "b"},
		{expr: `[1, 2, 2, 3].indexOf(2)`, want: 1},
		{expr: `["a", "b", "b", "c"].lastIndexOf("b")`, want: 2},
		{expr: `[1.0].indexOf(1.1)`, want: -1},
		{expr: `[1, 2, 3].includes(2)`, want: true},
		{expr: `"model-a".includes("model-a")`, want: true},
		{expr: `[1, 2].filter(x, x > 5).min()`, wantErr: "min called on empty list"},
		{expr: `[true, false].sum()`, wantErr: "found no matching overload for 'sum' applied to 'list(bool).()'"},
	})
	// includes is a version 1 function.
	env, err := cel.NewEnv(cellib.Lists(0))
	if err != nil {
		t.Fatal(err)
	}
	if _, iss := env.Compile(`[1].includes(1)`); iss.Err() == nil || !strings.Contains(iss.Err().Error(), "undeclared reference to 'includes'") {
		t.Errorf("includes at version 0: %v", iss.Err())
	}
}

func TestSemverVersions(t *testing.T) {
	env, err := cel.NewEnv(cellib.Semver(0))
	if err != nil {
		t.Fatal(err)
	}
	if _, iss := env.Compile(`semver("v1", true)`); iss.Err() == nil {
		t.Error("semver(string, bool) compiled at version 0")
	}
	if _, iss := env.Compile(`semver("1.0.0").major()`); iss.Err() != nil {
		t.Error(iss.Err())
	}
}

// TestAuthzDeclarations checks that the authorization functions change
// overload resolution without an authorizer variable, and their static
// costs when one is declared.
func TestAuthzDeclarations(t *testing.T) {
	runCases(t, []libCase{
		{expr: `"x".path()`, wantErr: "found no matching overload for 'path' applied to 'string.()'"},
		{expr: `1.check("a")`, wantErr: "found no matching overload for 'check' applied to 'int.(string)'"},
		{expr: `authorizer.path("x")`, wantErr: "undeclared reference to 'authorizer'"},
	})
	env := newEnv(t, cel.Variable("authorizer", cellib.AuthorizerType))
	for _, c := range []struct {
		expr string
		est  checker.CostEstimate
	}{
		{`authorizer.path('/healthz').check('get').allowed()`, checker.CostEstimate{Min: 350003, Max: 350003}},
		{`authorizer.group('').resource('endpoints').subresource('status').namespace('default').name('api').check('create').reason()`, checker.CostEstimate{Min: 350007, Max: 350007}},
		{`authorizer.serviceAccount('ns', 'sa').group('').resource('pods').check('get').errored()`, checker.CostEstimate{Min: 350005, Max: 350005}},
		{`authorizer.group('').resource('pods').fieldSelector('foo=bar').labelSelector('key=value').check('list').allowed()`, checker.CostEstimate{Min: 350476, Max: 350476}},
	} {
		ast, iss := env.Compile(c.expr)
		if iss.Err() != nil {
			t.Fatalf("%s: %v", c.expr, iss.Err())
		}
		got, err := env.EstimateCost(ast, &cellib.CostEstimator{})
		if err != nil {
			t.Fatal(err)
		}
		if got != c.est {
			t.Errorf("%s: estimate %v, want %v", c.expr, got, c.est)
		}
	}
}

// TestCallCostDirect checks runtime prices that CEL expressions in CRD
// rules cannot reach.
func TestCallCostDirect(t *testing.T) {
	e := &cellib.CostEstimator{}
	s := types.String(strings.Repeat("x", 11))
	for _, c := range []struct {
		fn, overload string
		args         []ref.Val
		want         uint64
	}{
		{"check", "pathcheck_check", nil, 350000},
		{"allowed", "decision_allowed", nil, 1},
		{"fieldSelector", "authorizer_fieldselector", []ref.Val{types.NullValue, s}, 312},
		{"labelSelector", "authorizer_labelselector", []ref.Val{types.NullValue, types.String("")}, 10},
		{"jsonpatch.escapeKey", "string_jsonpatch_escapekey", []ref.Val{s}, 2},
		{"isSorted", "list_string_is_sorted_bool", []ref.Val{types.NewStringList(types.DefaultTypeAdapter, []string{"abcdefghij", "x"})}, 1},
		{"sum", "list_int_sum_int", []ref.Val{types.NewDynamicList(types.DefaultTypeAdapter, []int64{1, 2, 3})}, 3},
	} {
		got := e.CallCost(c.fn, c.overload, c.args, types.NullValue)
		if got == nil || *got != c.want {
			t.Errorf("%s: cost %v, want %d", c.fn, deref(got), c.want)
		}
	}
	if got := e.CallCost("size", "size_string", []ref.Val{s}, types.Int(11)); got != nil {
		t.Errorf("size: cost %d, want nil (cel-go's own)", *got)
	}
}

// sizes is a SizeEstimator giving every path-carrying node a fixed size.
type sizes struct{ sz checker.SizeEstimate }

func (s sizes) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	if len(n.Path()) == 0 {
		return nil
	}
	return &s.sz
}

func (sizes) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// TestEstimateDelegatesSizes checks that static estimates use the
// SizeEstimator for values of unknown size, and are unbounded without one.
func TestEstimateDelegatesSizes(t *testing.T) {
	env := newEnv(t, cel.Variable("s", cel.StringType), cel.Variable("l", cel.ListType(cel.StringType)))
	for _, c := range []struct {
		expr               string
		bounded, unbounded checker.CostEstimate
	}{
		{`quantity(s).isInteger()`, checker.CostEstimate{Min: 3, Max: 12}, checker.CostEstimate{Min: 2, Max: 1844674407370955266}},
		{`s.find("[a-z]+")`, checker.CostEstimate{Min: 5, Max: 23}, checker.CostEstimate{Min: 3, Max: 3689348814741910529}},
		{`l.isSorted()`, checker.CostEstimate{Min: 21, Max: 1101}, checker.CostEstimate{Min: 1, Max: math.MaxUint64}},
		{`format.dns1123Label().validate(s)`, checker.CostEstimate{Min: 34, Max: 322}, checker.CostEstimate{Min: 2, Max: math.MaxUint64}},
	} {
		ast, iss := env.Compile(c.expr)
		if iss.Err() != nil {
			t.Fatalf("%s: %v", c.expr, iss.Err())
		}
		for _, x := range []struct {
			e    *cellib.CostEstimator
			want checker.CostEstimate
		}{
			{&cellib.CostEstimator{SizeEstimator: sizes{checker.SizeEstimate{Min: 10, Max: 100}}}, c.bounded},
			{&cellib.CostEstimator{}, c.unbounded},
		} {
			got, err := env.EstimateCost(ast, x.e)
			if err != nil {
				t.Fatal(err)
			}
			if got != x.want {
				t.Errorf("%s (sizes %v): estimate %v, want %v", c.expr, x.e.SizeEstimator, got, x.want)
			}
		}
	}
}

func deref(p *uint64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestConcurrentEvaluation evaluates one program from many goroutines,
// including a folded constant quantity that comparisons convert to the
// decimal form (run with -race).
func TestConcurrentEvaluation(t *testing.T) {
	env := newEnv(t, cel.Variable("q", cel.StringType))
	ast, iss := env.Compile(`[quantity("1")].all(x, x.compareTo(quantity("1Ei")) < 0 && x.compareTo(quantity(q)) == 0) && cidr("10.0.0.0/8").containsIP("10.0.0.1")`)
	if iss.Err() != nil {
		t.Fatal(iss.Err())
	}
	prg, err := env.Program(ast, cel.EvalOptions(cel.OptOptimize), cel.CostTracking(&cellib.CostEstimator{}))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	for range 8 {
		go func() {
			for range 200 {
				out, _, err := prg.Eval(map[string]any{"q": "1000m"})
				if err == nil && out != types.True {
					err = fmt.Errorf("got %v", out)
				}
				if err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}
