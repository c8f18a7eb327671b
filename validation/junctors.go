package validation

import "fmt"

// validateJunctors checks anyOf, oneOf, allOf and not, in that order, as
// the API server does, and returns the match count of the branches it
// keeps. Failed junctors are reported without a field, followed by the
// failures of the branch that matched best.
func (n *node) validateJunctors(v any, st *state) int {
	// Like upstream, the branches of allOf, anyOf, oneOf and not are
	// validated without ratcheting: their errors ratchet only with the
	// node that holds the junctor.
	saved, savedRoot := st.corr, st.corrRoot
	st.corr = nil
	defer func() { st.corr, st.corrRoot = saved, savedRoot }()
	mc := 0
	if len(n.anyOf) > 0 {
		start := len(st.fails)
		haveBest, bestMC := false, 0
		bestStart, bestEnd := 0, 0
		passed := false
		passMC, passFrom := 0, 0
		for _, b := range n.anyOf {
			from := len(st.fails)
			bmc := b.validate(v, st)
			if !st.errorsSince(from) {
				passed, passMC, passFrom = true, bmc, from
				break
			}
			if !haveBest || bmc > bestMC {
				haveBest, bestMC, bestStart, bestEnd = true, bmc, from, len(st.fails)
			}
		}
		if passed {
			// Keep the passing branch's warnings, if any.
			kept := st.fails[passFrom:]
			st.fails = append(st.fails[:start], kept...)
			mc += passMC
		} else {
			kept := keepSegment(st, bestStart, bestEnd)
			st.fails = st.fails[:start]
			st.add(failure{msg: fmt.Sprintf("%q must validate at least one schema (anyOf)", st.path())})
			st.fails = append(st.fails, kept...)
			mc += bestMC
		}
	}
	if len(n.oneOf) > 0 {
		start := len(st.fails)
		validated := 0
		haveBest, bestMC := false, 0
		bestStart, bestEnd := 0, 0
		firstPassMC := 0
		passFrom, passTo := 0, 0
		for _, b := range n.oneOf {
			from := len(st.fails)
			bmc := b.validate(v, st)
			if !st.errorsSince(from) {
				if validated == 0 {
					firstPassMC, passFrom, passTo = bmc, from, len(st.fails)
				}
				validated++
				continue
			}
			if validated == 0 && (!haveBest || bmc > bestMC) {
				haveBest, bestMC, bestStart, bestEnd = true, bmc, from, len(st.fails)
			}
		}
		switch {
		case validated == 1:
			kept := keepSegment(st, passFrom, passTo)
			st.fails = append(st.fails[:start], kept...)
			mc += firstPassMC
		case validated > 1:
			st.fails = st.fails[:start]
			st.add(failure{msg: fmt.Sprintf("%q must validate one and only one schema (oneOf). Found %d valid alternatives", st.path(), validated)})
		default:
			kept := keepSegment(st, bestStart, bestEnd)
			st.fails = st.fails[:start]
			st.add(failure{msg: fmt.Sprintf("%q must validate one and only one schema (oneOf). Found none valid", st.path())})
			st.fails = append(st.fails, kept...)
			mc += bestMC
		}
	}
	if len(n.allOf) > 0 {
		validated := 0
		for _, b := range n.allOf {
			from := len(st.fails)
			mc += b.validate(v, st)
			if !st.errorsSince(from) {
				validated++
			}
		}
		if validated != len(n.allOf) {
			extra := ""
			if validated == 0 {
				extra = ". None validated"
			}
			st.add(failure{msg: fmt.Sprintf("%q must validate all the schemas (allOf)%s", st.path(), extra)})
		}
	}
	if n.not != nil {
		from := len(st.fails)
		n.not.validate(v, st)
		valid := !st.errorsSince(from)
		st.fails = st.fails[:from]
		if valid {
			st.add(failure{msg: fmt.Sprintf("%q must not validate the schema (not)", st.path())})
		}
	}
	return mc + 1
}

// keepSegment copies the failures in [from, to) so that the caller can
// truncate the list and append them again.
func keepSegment(st *state, from, to int) []failure {
	if from == to {
		return nil
	}
	return append([]failure(nil), st.fails[from:to]...)
}
