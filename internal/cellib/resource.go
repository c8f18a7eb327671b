package cellib

import (
	"cmp"
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// This file models Kubernetes' resource.Quantity: a number held either as
// an int64 scaled by a power of ten (the fast path) or as an
// arbitrary-precision decimal, plus the format (suffix family) it was
// written in. The choice of representation is observable: an integer
// conversion fails for the decimal form even when the value is integral.

// quantityFormat is the suffix family of a quantity.
type quantityFormat uint8

const (
	decimalExponent quantityFormat = iota // 12e6
	binarySI                              // 12Mi
	decimalSI                             // 12M
)

const quantityPattern = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$"

// The parse errors of resource.Quantity, word for word.
var (
	errQuantityFormat  = errors.New("quantities must match the regular expression '" + quantityPattern + "'")
	errQuantityNumeric = errors.New("unable to parse numeric part of quantity")
	errQuantitySuffix  = errors.New("unable to parse quantity's suffix")
)

// maxQuantityExponent bounds the decimal exponent of a parsed non-zero
// quantity. Kubernetes accepts any int32 exponent, but numbers such as
// 1e2000000000 make it compute with gigabyte-sized integers (it hangs);
// this library rejects exponents above this bound as non-numeric instead.
// No real quantity comes near it.
const maxQuantityExponent = 1 << 12

// nanoScale is the finest scale a quantity keeps (10^-9).
const nanoScale = -9

// scaledInt is value × 10^scale.
type scaledInt struct {
	value int64
	scale int32
}

// quantity is an immutable resource quantity.
type quantity struct {
	i   scaledInt
	d   *decimal // the value, when it is held as a decimal
	fmt quantityFormat
	s   string // the text it was parsed from, when that is already canonical
}

// splitQuantity breaks str into sign, the numeric text, its integer and
// fraction digits (leading zeros dropped) and the suffix.
func splitQuantity(str string) (positive bool, value, num, denom, suffix string, err error) {
	positive = true
	pos, end := 0, len(str)
	if pos < end {
		switch str[0] {
		case '-':
			positive = false
			pos++
		case '+':
			pos++
		}
	}
	for pos < end && str[pos] == '0' {
		pos++
	}
	if pos >= end {
		return positive, "0", "0", "", "", nil
	}
	start := pos
	for pos < end && isDigit(str[pos]) {
		pos++
	}
	num = str[start:pos]
	if pos >= end {
		return positive, str, num, "", "", nil
	}
	num = cmp.Or(num, "0")
	if str[pos] == '.' {
		pos++
		start = pos
		for pos < end && isDigit(str[pos]) {
			pos++
		}
		denom = str[start:pos]
		if pos >= end {
			return positive, str, num, denom, "", nil
		}
	}
	value = str[:pos]
	suffixStart := pos
	for pos < end && strings.IndexByte("eEinumkKMGTP", str[pos]) >= 0 {
		pos++
	}
	if pos < end && (str[pos] == '-' || str[pos] == '+') {
		pos++
	}
	for pos < end && isDigit(str[pos]) {
		pos++
	}
	if pos < end {
		return positive, value, num, denom, "", errQuantityFormat
	}
	return positive, value, num, denom, str[suffixStart:], nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// siPrefixes are the one-letter suffixes of decimalSI, from n (10^-9) to E
// (10^18), each exponent 3 above the one before; the space stands for the
// bare number (10^0). binaryPrefixes are the letters of binarySI's Ki
// (2^10) to Ei (2^60).
const (
	siPrefixes     = "num kMGTPE"
	binaryPrefixes = "KMGTPE"
)

// interpretSuffix returns the base, exponent and format of a suffix.
func interpretSuffix(s string) (base, exp int32, f quantityFormat, ok bool) {
	switch {
	case s == "":
		return 10, 0, decimalSI, true
	case len(s) == 1 && s != " ":
		if i := strings.IndexByte(siPrefixes, s[0]); i >= 0 {
			return 10, int32(3*i - 9), decimalSI, true
		}
	case len(s) == 2 && s[1] == 'i':
		if i := strings.IndexByte(binaryPrefixes, s[0]); i >= 0 {
			return 2, int32(10 * (i + 1)), binarySI, true
		}
	}
	if len(s) > 1 && (s[0] == 'e' || s[0] == 'E') {
		n, err := strconv.ParseInt(s[1:], 10, 64)
		if err != nil {
			return 0, 0, decimalExponent, false
		}
		// Kubernetes truncates the exponent to 32 bits.
		return 10, int32(n), decimalExponent, true
	}
	return 0, 0, decimalExponent, false
}

// suffixFor returns the suffix of a canonical base/exponent pair, or ""
// for none: exponent 0, or one the format has no suffix for (Kubernetes
// then prints the bare mantissa).
func suffixFor(base, exp int32, f quantityFormat) string {
	switch f {
	case decimalSI:
		if (base == 10 || base == 2 && exp == 0) && exp != 0 && exp%3 == 0 && exp >= -9 && exp <= 18 {
			i := exp/3 + 3
			return siPrefixes[i : i+1]
		}
	case binarySI:
		if base == 2 && exp >= 10 && exp <= 60 && exp%10 == 0 {
			i := exp/10 - 1
			return binaryPrefixes[i:i+1] + "i"
		}
	case decimalExponent:
		if base == 10 && exp != 0 {
			return "e" + strconv.FormatInt(int64(exp), 10)
		}
	}
	return ""
}

// parseQuantity parses str exactly as resource.ParseQuantity does.
func parseQuantity(str string) (quantity, error) {
	if str == "" {
		return quantity{}, errQuantityFormat
	}
	if str == "0" {
		return quantity{fmt: decimalSI, s: str}, nil
	}
	positive, value, num, denom, suf, err := splitQuantity(str)
	if err != nil {
		return quantity{}, err
	}
	base, exp, format, ok := interpretSuffix(suf)
	if !ok {
		return quantity{}, errQuantitySuffix
	}
	if exp > maxQuantityExponent && strings.Trim(num+denom, "0") != "" {
		return quantity{}, errQuantityNumeric
	}

	// Fast path: the digits fit an int64 at a scale no finer than nano.
	var precision, scale int32
	mantissa := int64(1)
	switch format {
	case decimalExponent, decimalSI:
		scale = exp
		precision = 18 - int32(len(num)+len(denom))
	case binarySI:
		if exp >= 0 && denom == "" {
			mantissa <<= uint(exp)
			precision = 15 - int32(len(num)) - int32(float32(exp)*3/10) - 1
		} else {
			precision = -1
		}
	}
	if precision >= 0 {
		scale -= int32(len(denom))
		if scale >= nanoScale {
			shifted := num + denom
			v, err := strconv.ParseInt(shifted, 10, 64)
			if err != nil {
				return quantity{}, errQuantityNumeric
			}
			if r, ok := mulInt64(v, mantissa); ok {
				if !positive {
					r = -r
				}
				q := quantity{i: scaledInt{r, scale}, fmt: format}
				// Keep the original text when it is already the canonical form.
				switch format {
				case binarySI:
					if exp%10 == 0 && v&0x07 != 0 {
						q.s = str
					}
				default:
					if scale%3 == 0 && !strings.HasSuffix(shifted, "000") && shifted[0] != '0' {
						q.s = str
					}
				}
				return q, nil
			}
		}
	}

	// Slow path: an arbitrary-precision decimal rounded up to nano scale.
	amount, ok := parseDecimal(value)
	if !ok {
		return quantity{}, errQuantityNumeric
	}
	if base == 10 {
		amount.scale -= exp
	} else {
		amount.unscaled.Lsh(&amount.unscaled, uint(exp))
	}
	sign := amount.sign()
	if sign < 0 {
		amount.unscaled.Neg(&amount.unscaled)
	}
	if !amount.unscaled.IsInt64() || amount.unscaled.Int64() != 0 {
		amount = amount.roundUp(-nanoScale)
	} else if amount.scale > maxQuantityExponent {
		// A zero keeps its scale, which later sums inherit. Beyond this
		// bound the scale changes no observable result (floats of such sums
		// are NaN either way) but would make sums compute with huge powers
		// of ten, so it is clamped.
		amount.scale = maxQuantityExponent
	}
	if format == binarySI {
		if amount.cmp(maxInt64Decimal) > 0 {
			amount = maxInt64Decimal.clone()
		}
		if amount.sign() > 0 && amount.cmp(oneDecimal) < 0 {
			format = decimalSI
		}
	}
	if sign < 0 {
		amount.unscaled.Neg(&amount.unscaled)
	}
	return quantity{d: amount, fmt: format}, nil
}

var (
	maxInt64Decimal = newDecimal(math.MaxInt64, 0)
	oneDecimal      = newDecimal(1, 0)
)

// asDecimal returns the value as a decimal, which the caller must not
// modify.
func (q *quantity) asDecimal() *decimal {
	if q.d != nil {
		return q.d
	}
	return q.i.asDecimal()
}

func (a scaledInt) asDecimal() *decimal { return newDecimal(a.value, -a.scale) }

func (q *quantity) isZero() bool {
	if q.d != nil {
		return q.d.sign() == 0
	}
	return q.i.value == 0
}

func (q *quantity) sign() int {
	if q.d != nil {
		return q.d.sign()
	}
	return cmp.Compare(q.i.value, 0)
}

// asInt64 returns the value as an int64 when it is held as an integral
// int64 that does not overflow; the decimal form always fails.
func (q *quantity) asInt64() (int64, bool) {
	if q.d != nil {
		return 0, false
	}
	return q.i.asInt64()
}

func (a scaledInt) asInt64() (int64, bool) {
	switch {
	case a.scale == 0:
		return a.value, true
	case a.scale < 0:
		return 0, false
	}
	return scaleUpInt64(a.value, a.scale)
}

// approxFloat64 returns mantissa × 10^exponent in float64 arithmetic.
func (q *quantity) approxFloat64() float64 {
	var base float64
	var exp int
	if q.d != nil {
		base, _ = new(big.Float).SetInt(&q.d.unscaled).Float64()
		exp = int(-q.d.scale)
	} else {
		base = float64(q.i.value)
		exp = int(q.i.scale)
	}
	if exp == 0 {
		return base
	}
	return base * math.Pow10(exp)
}

// cmp compares q and y; when either is a decimal both are compared as
// decimals.
func (q *quantity) cmp(y *quantity) int {
	if q.d == nil && y.d == nil {
		return q.i.cmp(y.i)
	}
	return q.asDecimal().cmp(y.asDecimal())
}

// plus returns q + y (q - y when neg) with Kubernetes' format rules.
func (q quantity) plus(y *quantity, neg bool) quantity {
	q.s = ""
	if neg {
		if q.isZero() {
			q.fmt = y.fmt
		}
		if q.d == nil && y.d == nil {
			if r, ok := q.i.add(scaledInt{-y.i.value, y.i.scale}); ok {
				q.i = r
				return q
			}
		}
	} else {
		if q.d == nil && y.d == nil {
			if q.i.value == 0 {
				q.fmt = y.fmt
			}
			if r, ok := q.i.add(y.i); ok {
				q.i = r
				return q
			}
		} else if q.isZero() {
			q.fmt = y.fmt
		}
	}
	x := q.asDecimal()
	q.i = scaledInt{}
	q.d = x.add(y.asDecimal(), neg)
	return q
}

// cmp compares two scaled ints, exactly when their scales are close and
// as decimals otherwise.
func (a scaledInt) cmp(b scaledInt) int {
	switch {
	case a.scale == b.scale:
	case a.scale > b.scale:
		r, rem, exact := divPow10(b.value, a.scale-b.scale)
		if !exact {
			return a.asDecimal().cmp(b.asDecimal())
		}
		if r == a.value {
			return cmp.Compare(0, rem) // b's remainder decides
		}
		b.value = r
	default:
		return -b.cmp(a)
	}
	return cmp.Compare(a.value, b.value)
}

// add returns a + b at the smaller scale; ok is false on overflow.
func (a scaledInt) add(b scaledInt) (scaledInt, bool) {
	switch {
	case b.value == 0:
		return a, true
	case a.value == 0:
		return b, true
	case a.scale == b.scale:
		c, ok := addInt64(a.value, b.value)
		return scaledInt{c, a.scale}, ok
	case a.scale > b.scale:
		c, ok := scaleUpInt64(a.value, a.scale-b.scale)
		if !ok {
			return a, false
		}
		c, ok = addInt64(c, b.value)
		return scaledInt{c, b.scale}, ok
	default:
		return b.add(a)
	}
}

// atScale returns a at a scale no finer than scale, rounding away from
// zero; exact reports whether no digits were lost.
func (a scaledInt) atScale(scale int32) (scaledInt, bool) {
	if a.scale >= scale {
		return a, true
	}
	r, exact := scaleDownInt64(a.value, scale-a.scale)
	return scaledInt{r, scale}, exact
}

func addInt64(a, b int64) (int64, bool) {
	c := a + b
	switch {
	case a > 0 && b > 0:
		return c, c >= 0
	case a < 0 && b < 0:
		if a == math.MinInt64 && b == math.MinInt64 {
			return 0, false
		}
		return c, c <= 0
	}
	return c, true
}

func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 || a == 1 || b == 1 {
		return a * b, true
	}
	if a == math.MinInt64 || b == math.MinInt64 {
		return 0, false
	}
	c := a * b
	return c, c/b == a
}

// scaleUpInt64 returns base × 10^scale for scale >= 0.
func scaleUpInt64(base int64, scale int32) (int64, bool) {
	switch {
	case base == 0 || scale == 0:
		return base, true
	case scale == 1, scale == 2, scale == 3, scale == 6, scale == 9:
		return mulInt64(base, pow10Int64(scale))
	}
	v := base
	for i := int32(0); i < scale; i++ {
		var ok bool
		if v, ok = mulInt64(v, 10); !ok {
			return 0, false
		}
	}
	return v, true
}

// scaleDownInt64 returns base / 10^scale rounded away from zero, and
// whether the division was exact.
func scaleDownInt64(base int64, scale int32) (int64, bool) {
	if scale == 0 {
		return base, true
	}
	v := base
	fraction := false
	for i := int32(0); i < scale; i++ {
		if !fraction && v%10 != 0 {
			fraction = true
		}
		v /= 10
		if v == 0 {
			if !fraction {
				return 0, true
			}
			if base > 0 {
				return 1, false
			}
			return -1, false
		}
	}
	if fraction {
		if base > 0 {
			v++
		} else {
			v--
		}
	}
	return v, !fraction
}

func pow10Int64(n int32) int64 {
	if n < 0 || n > 18 {
		return 0
	}
	r := int64(1)
	for ; n > 0; n-- {
		r *= 10
	}
	return r
}

// divPow10 divides by 10^scale; exact is false when the divisor does not
// fit an int64 computation.
func divPow10(base int64, scale int32) (q, rem int64, exact bool) {
	if scale == 0 {
		return base, 0, true
	}
	if scale >= 18 {
		return 0, base, false
	}
	d := pow10Int64(scale)
	return base / d, base % d, true
}

// removeInt64Factors strips factors of base from |v|.
func removeInt64Factors(v, base int64) (int64, int32) {
	neg := v < 0
	if neg {
		v = -v
	}
	var times int32
	for v >= base && v%base == 0 {
		times++
		v /= base
	}
	if neg {
		v = -v
	}
	return v, times
}

// String returns the canonical text of the quantity, as
// resource.Quantity.String does.
func (q *quantity) String() string {
	if q.s != "" {
		return q.s
	}
	num, suf := q.canonicalize(make([]byte, 0, 18))
	return string(num) + suf
}

func (q *quantity) canonicalize(out []byte) ([]byte, string) {
	if q.isZero() {
		return append(out, '0'), ""
	}
	f := q.fmt
	var rounded quantity
	if f == binarySI {
		if q.cmp(&quantity{i: scaledInt{-1024, 0}}) > 0 && q.cmp(&quantity{i: scaledInt{1024, 0}}) < 0 {
			f = decimalSI
		} else {
			var exact bool
			if q.d != nil {
				r := q.d.roundUp(0)
				exact = r.cmp(q.d) == 0
				rounded = quantity{d: r}
			} else {
				rounded.i, exact = q.i.atScale(0)
			}
			if !exact {
				f = decimalSI
			}
		}
	}
	if f != binarySI {
		num, exp := q.canonicalBase10(out)
		return num, suffixFor(10, exp, f)
	}
	num, exp := rounded.canonicalBase1024(out)
	return num, suffixFor(2, exp*10, f)
}

func (q *quantity) canonicalBase10(out []byte) ([]byte, int32) {
	if q.d != nil {
		return q.d.canonical(out)
	}
	m, times := removeInt64Factors(q.i.value, 10)
	exp := q.i.scale + times
	var ok bool
	switch exp % 3 {
	case 1, -2:
		if m, ok = mulInt64(m, 10); !ok {
			return q.i.asDecimal().canonical(out)
		}
		exp--
	case 2, -1:
		if m, ok = mulInt64(m, 100); !ok {
			return q.i.asDecimal().canonical(out)
		}
		exp -= 2
	}
	return strconv.AppendInt(out, m, 10), exp
}

func (q *quantity) canonicalBase1024(out []byte) ([]byte, int32) {
	if q.d != nil {
		return q.d.canonical1024(out)
	}
	v, ok := q.i.atScaleInt64(0)
	if !ok {
		return q.i.asDecimal().canonical1024(out)
	}
	m, times := removeInt64Factors(v, 1024)
	return strconv.AppendInt(out, m, 10), times
}

// atScaleInt64 returns a as an int64 at the given scale, rounding away
// from zero when digits are dropped.
func (a scaledInt) atScaleInt64(scale int32) (int64, bool) {
	if a.scale < scale {
		r, _ := scaleDownInt64(a.value, scale-a.scale)
		return r, true
	}
	return scaleUpInt64(a.value, a.scale-scale)
}
