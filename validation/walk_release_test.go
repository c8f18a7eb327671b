package validation

import "testing"

// TestIsJSONIntegerReleases checks the two ways the API server's validator
// decides that a float is whole (see the conformance case
// validation/release-multipleof-float for the API server's answers).
func TestIsJSONIntegerReleases(t *testing.T) {
	// Variables, so that the quotients are float64 arithmetic (Go's
	// constant arithmetic is exact).
	a, b, c, d, e, f := 13.2, 1.1, 0.01, -1.13, -9.000000000000002, 3.0
	for _, tc := range []struct {
		f             float64
		now, before37 bool
	}{
		{a / b, true, false},     // 11.999999999999998
		{1 / c * d, true, false}, // -112.99999999999999
		{e / f, true, false},
		{12.000000000000002, true, true},
		{-113, true, true},
		{3, true, true},
		{0, true, true},
		{2.5, false, false},
		{-0.5, false, false},
		{1e-320, false, false},
		{float64(1 << 53), false, false},
	} {
		if got := isJSONInteger(tc.f); got != tc.now {
			t.Errorf("isJSONInteger(%v) = %t, want %t", tc.f, got, tc.now)
		}
		if got := isJSONIntegerBefore137(tc.f); got != tc.before37 {
			t.Errorf("isJSONIntegerBefore137(%v) = %t, want %t", tc.f, got, tc.before37)
		}
	}
}
