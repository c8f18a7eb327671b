package jsonvalue

import (
	"math"
	"strconv"
)

// EncodedLenOver reports whether v, encoded as compact JSON the way
// encoding/json writes it, is longer than limit bytes. It walks v once
// with a lower and an upper bound of the length and computes the exact
// length only when the limit lies between them.
func EncodedLenOver(v any, limit int64) bool {
	lo, hi := bounds(v, 0)
	if hi <= limit {
		return false
	}
	if lo > limit {
		return true
	}
	return exactLen(v, 0, nil) > limit
}

// maxSizeDepth bounds the recursion of the walks, far beyond the depth
// decoding gives (10,000 levels); deeper values are too large.
const maxSizeDepth = 100000

func bounds(v any, depth int) (lo, hi int64) {
	if depth > maxSizeDepth {
		return 0, math.MaxInt64 / 4
	}
	switch x := v.(type) {
	case map[string]any:
		lo = 2
		for k, e := range x {
			l, h := bounds(e, depth+1)
			lo += int64(len(k)) + 4 + l // "k": and a comma
			hi += 6*int64(len(k)) + 4 + h
		}
		return lo, hi + 2
	case []any:
		lo = 2
		for _, e := range x {
			l, h := bounds(e, depth+1)
			lo += l + 1
			hi += h + 1
		}
		return lo, hi + 2
	case string:
		return int64(len(x)) + 2, 6*int64(len(x)) + 2
	case bool:
		return 4, 5
	case nil:
		return 4, 4
	case int64, float64:
		return 1, 25
	}
	return 1, 64
}

func exactLen(v any, depth int, buf []byte) int64 {
	if depth > maxSizeDepth {
		return math.MaxInt64 / 4
	}
	switch x := v.(type) {
	case map[string]any:
		n := int64(2)
		if len(x) > 0 {
			n += int64(len(x)) - 1
		}
		for k, e := range x {
			buf = AppendString(buf[:0], k)
			n += int64(len(buf)) + 1 + exactLen(e, depth+1, buf)
		}
		return n
	case []any:
		n := int64(2)
		if len(x) > 0 {
			n += int64(len(x)) - 1
		}
		for _, e := range x {
			n += exactLen(e, depth+1, buf)
		}
		return n
	case string:
		return int64(len(AppendString(buf[:0], x)))
	case bool:
		if x {
			return 4
		}
		return 5
	case nil:
		return 4
	case int64:
		return int64(len(strconv.AppendInt(buf[:0], x, 10)))
	case float64:
		return int64(len(AppendFloat(buf[:0], x)))
	}
	return 1
}

// AppendFloat appends a finite f as encoding/json writes a float64: the
// shortest representation, in exponent form (with at least one digit of
// exponent) below 1e-6 and from 1e21 on.
func AppendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}
