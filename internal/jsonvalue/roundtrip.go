package jsonvalue

import "math"

// RoundTrip returns v after a round trip through JSON as the API server
// makes it when it stores a CRD and reads it back (a whole-number float
// is written "13" and read as the integer 13), and whether that changed
// it; an unchanged v is returned as it is, a changed one is a copy that
// shares v's unchanged parts.
func RoundTrip(v any) (any, bool) {
	switch x := v.(type) {
	case float64:
		if i, ok := jsonInteger(x); ok {
			return i, true
		}
	case map[string]any:
		var out map[string]any
		for k, e := range x {
			if n, changed := RoundTrip(e); changed {
				if out == nil {
					out = make(map[string]any, len(x))
					for k2, e2 := range x {
						out[k2] = e2
					}
				}
				out[k] = n
			}
		}
		if out != nil {
			return out, true
		}
	case []any:
		var out []any
		for i, e := range x {
			if n, changed := RoundTrip(e); changed {
				if out == nil {
					out = append([]any(nil), x...)
				}
				out[i] = n
			}
		}
		if out != nil {
			return out, true
		}
	}
	return v, false
}

// jsonInteger says whether encoding/json writes f without a fraction or an
// exponent (whole numbers of magnitude below 1e21) and whether the result
// then decodes as an int64, which it does when it fits one.
func jsonInteger(f float64) (int64, bool) {
	if f != math.Trunc(f) || math.Abs(f) >= 1e21 || f < math.MinInt64 || f >= math.MaxInt64 {
		return 0, false
	}
	return int64(f), true
}
