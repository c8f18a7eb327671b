package validation

import (
	"fmt"
	"math"
)

// validateNumber checks that the value fits the declared integer or number
// format, then multipleOf, minimum and maximum. A bound that does not fit
// the declared format is reported and then compared as a float; a bound
// that fits is compared in the value's own type, so integers are compared
// with integer arithmetic (and a fractional bound is truncated).
func (n *node) validateNumber(v any, kind int, st *state) {
	var i int64
	var f float64
	var inRange bool
	if kind == kindInt {
		i = v.(int64)
		f = float64(i)
		inRange = intInRange(i, n.numType, n.numFormat)
	} else {
		f = v.(float64)
		inRange = floatInRange(f, n.numType, n.numFormat)
	}
	if !inRange {
		n.addRangeFailure("Checked", st)
	}
	if n.multipleOf != nil {
		m := *n.multipleOf
		if !n.multipleOfOK {
			n.addRangeFailure("MultipleOf", st)
			n.multipleOfFloat(f, m, st)
		} else if kind == kindInt {
			factor := toInt64(m)
			if factor <= 0 {
				st.add(multipleOfNotPositive(st, factor))
			} else if (i/factor)*factor != i {
				path := st.path()
				st.add(failure{code: codeMultipleOf, path: path, value: i,
					msg: fmt.Sprintf("%s in body should be a multiple of %v", path, factor)})
			}
		} else {
			n.multipleOfFloat(f, m, st)
		}
	}
	if n.minimum != nil {
		if !n.minimumOK {
			n.addRangeFailure("Minimum boundary", st)
			minimumFloat(f, f, *n.minimum, n.exclusiveMin, st)
		} else if kind == kindInt {
			min := toInt64(*n.minimum)
			if (!n.exclusiveMin && i < min) || (n.exclusiveMin && i <= min) {
				st.add(boundFailure(codeMinimum, st, "greater than", n.exclusiveMin, min, i))
			}
		} else {
			minimumFloat(f, v, *n.minimum, n.exclusiveMin, st)
		}
	}
	if n.maximum != nil {
		if !n.maximumOK {
			n.addRangeFailure("Maximum boundary", st)
			maximumFloat(f, f, *n.maximum, n.exclusiveMax, st)
		} else if kind == kindInt {
			max := toInt64(*n.maximum)
			if (!n.exclusiveMax && i > max) || (n.exclusiveMax && i >= max) {
				st.add(boundFailure(codeMaximum, st, "less than", n.exclusiveMax, max, i))
			}
		} else {
			maximumFloat(f, v, *n.maximum, n.exclusiveMax, st)
		}
	}
}

func minimumFloat(f float64, value any, min float64, exclusive bool, st *state) {
	if (!exclusive && f < min) || (exclusive && f <= min) {
		st.add(boundFailure(codeMinimum, st, "greater than", exclusive, min, value))
	}
}

func maximumFloat(f float64, value any, max float64, exclusive bool, st *state) {
	if (!exclusive && f > max) || (exclusive && f >= max) {
		st.add(boundFailure(codeMaximum, st, "less than", exclusive, max, value))
	}
}

// boundFailure words a failed minimum or maximum: "should be greater than
// or equal to 3", "should be less than 1".
func boundFailure(code int, st *state, relation string, exclusive bool, bound, value any) failure {
	path := st.path()
	rel := relation + " or equal to"
	if exclusive {
		rel = relation
	}
	return failure{code: code, path: path, value: value,
		msg: fmt.Sprintf("%s in body should be %s %v", path, rel, bound)}
}

// multipleOfFloat checks a multipleOf with float arithmetic, dividing by the
// factor (or multiplying by its inverse when it is below 1, which is exact
// more often) and accepting a result within 1e-9 of an integer.
func (n *node) multipleOfFloat(f, factor float64, st *state) {
	if factor <= 0 {
		st.add(multipleOfNotPositive(st, factor))
		return
	}
	var mult float64
	if factor < 1 {
		mult = 1 / factor * f
	} else {
		mult = f / factor
	}
	if !n.isJSONInteger(mult) {
		path := st.path()
		st.add(failure{code: codeMultipleOf, path: path, value: f,
			msg: fmt.Sprintf("%s in body should be a multiple of %v", path, factor)})
	}
}

func multipleOfNotPositive(st *state, factor any) failure {
	path := st.path()
	return failure{code: codeMultipleOfNotPos, path: path, value: factor,
		msg: fmt.Sprintf("factor MultipleOf declared for %s must be positive: %v", path, factor)}
}

// addRangeFailure adds rangeFailure's failure, which the API server
// reports from Kubernetes 1.36 on; before, a value or bound outside the
// declared format was compared without a word.
func (n *node) addRangeFailure(prefix string, st *state) {
	if !n.silentRanges {
		st.add(n.rangeFailure(prefix, st))
	}
}

// rangeFailure reports a value or bound that does not fit the declared
// numeric format. The API server reports these without a field.
func (n *node) rangeFailure(prefix string, st *state) failure {
	var msg string
	if n.numFormat != "" {
		msg = prefix + " value must be of type " + n.numType + " with format " + n.numFormat + " in " + st.path()
	} else {
		msg = prefix + " value must be of type " + n.numType + " (default format) in " + st.path()
	}
	return failure{code: codePlain, msg: msg}
}

// toInt64 converts a bound to int64 as Go does on amd64, whatever the
// platform: a fraction is truncated, and NaN or a value out of range gives
// math.MinInt64.
func toInt64(f float64) int64 {
	if math.IsNaN(f) || f >= 1<<63 || f < -(1<<63) {
		return math.MinInt64
	}
	return int64(f)
}
