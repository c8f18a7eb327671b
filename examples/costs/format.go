package main

import (
	"fmt"
	"math"
	"strconv"
)

// thousands formats n with commas between groups of three digits.
func thousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	out := make([]byte, 0, len(s)+len(s)/3)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// percent is n as a percentage of limit: one decimal, two significant
// digits below 0.1%, whole percents with thousands separators from 1,000%.
func percent(n, limit uint64) string {
	p := 100 * float64(n) / float64(limit)
	switch {
	case p == 0:
		return "0%"
	case p < 0.1:
		v, _ := strconv.ParseFloat(fmt.Sprintf("%.2g", p), 64)
		return strconv.FormatFloat(v, 'f', -1, 64) + "%"
	case p >= 1000:
		if p >= math.MaxUint64 {
			return thousands(math.MaxUint64) + "%"
		}
		return thousands(uint64(math.Round(p))) + "%"
	}
	return fmt.Sprintf("%.1f%%", p)
}

// factor says by how much n exceeds limit, worded as the API server's
// cost errors word it: "more than 100x", two significant decimals below
// 1.5x ("1.200000x"), one otherwise ("18.1x").
func factor(n, limit uint64) string {
	f := float64(n) / float64(limit)
	switch {
	case f > 100:
		return "more than 100x"
	case f < 1.5:
		return fmt.Sprintf("%fx", f)
	}
	return fmt.Sprintf("%.1fx", f)
}

// addSaturate adds without wrapping around.
func addSaturate(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}
