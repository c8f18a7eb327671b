package jsonscan

import kjson "sigs.k8s.io/json"

// Decode decodes JSON bytes the way the API server decodes request bodies:
// object keys are case-sensitive, integers that fit into int64 become int64
// and every other number float64 (so 1.0 is float64(1)). Errors are those
// of sigs.k8s.io/json.
//
// Decode copies data once; the keys and strings of the result share that
// copy, except those with escapes, which share arenas of their own. data
// itself is neither modified nor retained.
func Decode(data []byte) (any, error) {
	if v, _, ok := Scan(data); ok {
		return v, nil
	}
	var v any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}
