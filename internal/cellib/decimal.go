package cellib

import (
	"math/big"
)

// decimal is an arbitrary-precision decimal number unscaled × 10^-scale,
// with the operations, scales and rounding that resource quantities use
// for values that do not fit their int64 form.
type decimal struct {
	unscaled big.Int
	scale    int32
}

var (
	bigTen  = big.NewInt(10)
	big1024 = big.NewInt(1024)
)

// pow10 returns 10^n for n >= 0.
func pow10(n int64) *big.Int {
	return new(big.Int).Exp(bigTen, big.NewInt(n), nil)
}

// newDecimal returns v × 10^-scale.
func newDecimal(v int64, scale int32) *decimal {
	d := &decimal{scale: scale}
	d.unscaled.SetInt64(v)
	return d
}

// clone returns an independent copy of d.
func (d *decimal) clone() *decimal {
	c := &decimal{scale: d.scale}
	c.unscaled.Set(&d.unscaled)
	return c
}

func (d *decimal) sign() int { return d.unscaled.Sign() }

// parseDecimal reads an optionally signed decimal number with at most one
// decimal point and at least one digit; the scale is the number of digits
// after the point.
func parseDecimal(s string) (*decimal, bool) {
	digits := false
	point := -1
	buf := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case (c == '+' || c == '-') && i == 0:
		case c == '.' && point < 0:
			point = len(buf)
			continue
		case c >= '0' && c <= '9':
			digits = true
		default:
			return nil, false
		}
		buf = append(buf, c)
	}
	if !digits {
		return nil, false
	}
	d := &decimal{}
	if point >= 0 {
		d.scale = int32(len(buf) - point)
	}
	if _, ok := d.unscaled.SetString(string(buf), 10); !ok {
		return nil, false
	}
	return d, true
}

// withScale returns d expressed at a larger scale (exact).
func (d *decimal) withScale(scale int32) *big.Int {
	if scale == d.scale || d.unscaled.Sign() == 0 {
		return &d.unscaled
	}
	return new(big.Int).Mul(&d.unscaled, pow10(int64(scale)-int64(d.scale)))
}

// cmp compares two decimals.
func (d *decimal) cmp(o *decimal) int {
	s := max(d.scale, o.scale)
	return d.withScale(s).Cmp(o.withScale(s))
}

// add returns d + o (negate o when neg) at the larger of the two scales.
func (d *decimal) add(o *decimal, neg bool) *decimal {
	s := max(d.scale, o.scale)
	r := &decimal{scale: s}
	if neg {
		r.unscaled.Sub(d.withScale(s), o.withScale(s))
	} else {
		r.unscaled.Add(d.withScale(s), o.withScale(s))
	}
	return r
}

// roundUp returns d rounded away from zero to the given scale.
func (d *decimal) roundUp(scale int32) *decimal {
	r := &decimal{scale: scale}
	shift := int64(scale) - int64(d.scale)
	switch {
	case shift >= 0:
		r.unscaled.Set(d.withScale(scale))
	default:
		// Shortcut: dividing by more than the number of digits leaves no
		// quotient, so any non-zero value becomes one unit away from zero.
		if int64(len(d.unscaled.Text(10))) < -shift {
			r.unscaled.SetInt64(int64(d.unscaled.Sign()))
			return r
		}
		var rem big.Int
		r.unscaled.QuoRem(&d.unscaled, pow10(-shift), &rem)
		if rem.Sign() != 0 {
			r.unscaled.Add(&r.unscaled, big.NewInt(int64(rem.Sign())))
		}
	}
	return r
}

// removeBigFactors divides v by f as long as the division is exact and v is
// not zero, returning the result and the number of divisions.
func removeBigFactors(v, f *big.Int) (*big.Int, int32) {
	v = new(big.Int).Set(v)
	var times int32
	var q, m big.Int
	for v.Sign() != 0 {
		q.DivMod(v, f, &m)
		if m.Sign() != 0 {
			break
		}
		times++
		v.Set(&q)
	}
	return v, times
}

// canonical returns the mantissa and a multiple-of-three decimal exponent
// with the mantissa free of trailing zeros where the exponent allows.
func (d *decimal) canonical(out []byte) ([]byte, int32) {
	m, times := removeBigFactors(&d.unscaled, bigTen)
	exp := -d.scale + times
	for exp%3 != 0 {
		m.Mul(m, bigTen)
		exp--
	}
	return append(out, m.String()...), exp
}

// canonical1024 rounds d up to an integer and returns the mantissa and the
// power of 1024 it was divided by.
func (d *decimal) canonical1024(out []byte) ([]byte, int32) {
	r := d.roundUp(0)
	m, times := removeBigFactors(&r.unscaled, big1024)
	return append(out, m.String()...), times
}
