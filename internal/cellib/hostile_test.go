package cellib_test

// Hostile arguments for the Kubernetes CEL libraries: 10 MB strings,
// invalid UTF-8, numbers at the edges, long lists. Every call gives a
// value or an error, in bounded time, and never panics.

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"

	"github.com/crdschema/crdschema/internal/hostile"
)

// The harness of the hostile-input tests (package internal/hostile).
const hostileLimit = hostile.Limit

var (
	bounded       = hostile.Run
	skipUnderRace = hostile.SkipUnderRace
)

// TestHostileStrings calls every string-parsing function on huge and
// malformed strings.
func TestHostileStrings(t *testing.T) {
	skipUnderRace(t)
	env := newEnv(t, cel.Variable("s", cel.StringType))
	exprs := []string{
		"isQuantity(s)", "isSemver(s)", "isSemver(s, true)", "isURL(s)", "isIP(s)", "isCIDR(s)", "ip.isCanonical(s)",
		"s.matches('^(a+)+$')", "s.find('(x+x+)+y')", "s.findAll('a', 5).size()", "s.findAll('a+').size()",
		"format.dns1123Subdomain().validate(s)", "format.named('uri').value().validate(s)", "format.named('datetime').value().validate(s)",
		"format.named('labelValue').value().validate(s)", "format.named('qualifiedName').value().validate(s)",
		"isQuantity(s) ? quantity(s).asApproximateFloat() : 0.0", "isURL(s) ? url(s).getHost() : ''",
		"isSemver(s, true) ? semver(s, true).major() : 0", "isIP(s) ? ip(s).family() : 0", "isCIDR(s) ? cidr(s).prefixLength() : 0",
	}
	big := strings.Repeat("a", 10<<20)
	for _, s := range []string{
		// Quantities of many digits parse in time quadratic in their
		// length, in math/big as in the API server (1 MB: about 3 s
		// there): 10 MB would take minutes, so the digit strings are
		// shorter.
		big, strings.Repeat("9", 1<<20), "1" + strings.Repeat("0", 300000) + "Ei", "https://" + big + ".com/" + big,
		"1." + strings.Repeat("0", 1<<20) + ".0", strings.Repeat("1.", 1<<20) + "1", "a\xff\xfeb", "\xff", "1\xffMi", "1.2.3-\xff",
		"::" + strings.Repeat("f", 1<<20), "10.0.0.0/" + strings.Repeat("9", 1<<20), "1e9223372036854775807", "1e-9223372036854775808",
		"9223372036854775808", "-9223372036854775809", "99999999999999999999.0.0", "0.0.0-" + strings.Repeat("a.", 100000) + "a",
	} {
		for _, e := range exprs {
			var o outcome
			bounded(t, hostileLimit, func() { o = run(t, env, e, map[string]any{"s": s}) })
			if o.compileErr {
				t.Fatalf("%s: %s", e, o.err)
			}
			if o.val == nil && o.err == "" {
				t.Errorf("%s on %.20q: no value and no error", e, s)
			}
		}
	}
	// A few exact answers.
	for _, tc := range []struct {
		expr string
		s    string
		want any
	}{
		{"isQuantity(s)", big, false},
		{"isQuantity(s)", strings.Repeat("9", 1<<20), true},
		{"isURL(s)", "a\xff", false},
		{"isSemver(s)", "99999999999999999999.0.0", false},
		{"isIP(s)", "::" + strings.Repeat("f", 1<<20), false},
		{"s.matches('^(a+)+$')", big + "!", false},
	} {
		var o outcome
		bounded(t, hostileLimit, func() { o = run(t, env, tc.expr, map[string]any{"s": tc.s}) })
		if o.err != "" || o.val == nil || o.val.Value() != tc.want {
			t.Errorf("%s on %.20q: %v %s, want %v", tc.expr, tc.s, o.val, o.err, tc.want)
		}
	}
}

// TestHostileNumbers: quantities, semvers and lists at the edges of
// int64 and float64 give values or errors.
func TestHostileNumbers(t *testing.T) {
	env := newEnv(t, cel.Variable("l", cel.ListType(cel.IntType)), cel.Variable("f", cel.ListType(cel.DoubleType)))
	l := []int64{math.MaxInt64, 1}
	f := []float64{math.MaxFloat64, math.MaxFloat64, math.NaN(), math.Inf(-1), 5e-324}
	for _, tc := range []struct {
		expr    string
		want    any
		wantErr string
	}{
		// 19 digits are past the fast integer form: no conversion, as
		// upstream's Quantity.AsInt64.
		{"quantity('9223372036854775807').asInteger()", nil, "cannot convert value to integer"},
		{"quantity('922337203685477580').asInteger()", int64(922337203685477580), ""},
		{"quantity('9223372036854775808').isInteger()", false, ""},
		{"quantity('9223372036854775808').asInteger()", nil, "cannot convert value to integer"},
		{"quantity('9223372036854775807').add(1).isInteger()", false, ""},
		{"quantity('-9223372036854775808').sub(1).isInteger()", false, ""},
		{"quantity('9223372036854775807').add(quantity('9223372036854775807')).compareTo(quantity('18446744073709551614'))", int64(0), ""},
		{"quantity('1e308').isGreaterThan(quantity('1e307'))", true, ""},
		{"quantity('1Ei').asApproximateFloat() > 0.0", true, ""},
		{"quantity('0.000000001').isLessThan(quantity('1n'))", false, ""},
		{"l.sum()", nil, "overflow"},
		{"l.max()", int64(math.MaxInt64), ""},
		{"l.isSorted()", false, ""},
		{"f.sum()", nil, ""},
		{"f.min()", nil, ""},
		{"semver('9223372036854775807.0.0').major()", nil, ""},
		{"semver('1.0.0').compareTo(semver('18446744073709551616.0.0'))", nil, ""},
	} {
		var o outcome
		bounded(t, hostileLimit, func() { o = run(t, env, tc.expr, map[string]any{"l": l, "f": f}) })
		if o.compileErr {
			t.Fatalf("%s: %s", tc.expr, o.err)
		}
		switch {
		case tc.wantErr != "" && !strings.Contains(o.err, tc.wantErr):
			t.Errorf("%s: %v %q, want an error containing %q", tc.expr, o.val, o.err, tc.wantErr)
		case tc.want != nil && (o.err != "" || o.val.Value() != tc.want):
			t.Errorf("%s: %v %q, want %v", tc.expr, o.val, o.err, tc.want)
		case o.val == nil && o.err == "":
			t.Errorf("%s: no value and no error", tc.expr)
		}
	}
}

// TestHostileLists: the list functions on 100,000 elements.
func TestHostileLists(t *testing.T) {
	skipUnderRace(t)
	env := newEnv(t, cel.Variable("l", cel.ListType(cel.IntType)), cel.Variable("s", cel.ListType(cel.StringType)))
	l := make([]int64, 100000)
	s := make([]string, 100000)
	for i := range l {
		l[i] = int64(i)
		s[i] = fmt.Sprint("s", i)
	}
	for _, tc := range []struct {
		expr string
		want any
	}{
		{"l.isSorted()", true}, {"l.sum()", int64(4999950000)}, {"l.max()", int64(99999)}, {"l.min()", int64(0)},
		{"l.indexOf(99999)", int64(99999)}, {"l.lastIndexOf(0)", int64(0)}, {"s.isSorted()", false}, {"s.indexOf('s99999')", int64(99999)},
		{"l.slice(1, 100000).size()", int64(99999)}, {"sets.contains(l, [99999])", true},
	} {
		var o outcome
		bounded(t, hostileLimit, func() { o = run(t, env, tc.expr, map[string]any{"l": l, "s": s}) })
		if o.err != "" || o.val == nil || o.val.Value() != tc.want {
			t.Errorf("%s: %v %s, want %v", tc.expr, o.val, o.err, tc.want)
		}
	}
}
