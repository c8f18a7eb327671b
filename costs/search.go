package costs

import (
	"context"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
)

// maxSearch is the largest bound searched: the API server's request size
// limit (3 MiB) bounds every list, map and string below it, so a larger
// bound changes no estimate.
const maxSearch = 3 << 20

// search finds the largest value v such that def, with the bounds of the
// nodes sps (keywords kws) set to v (or kept where lower), passes CRD
// validation without a cost error, by binary search with crd.Validate as
// the judge, from minUsable up: a bound of 0 would fix the cost by making
// the field unusable. It returns the fixes, each with a suggested value
// (the usual bound of the field's kind, or a round number; see suggest)
// checked too, or false when no usable value does or sps is empty.
func search(ctx context.Context, def *crdschema.CustomResourceDefinition, sps []schemaPath, kws []string, kv crd.Option) ([]Fix, bool) {
	if len(sps) == 0 {
		return nil, false // nothing to bound
	}
	lo := int64(minUsable)
	hi := int64(maxSearch)
	cur := make([]int64, len(sps))
	for i, sp := range sps {
		cur[i] = -1
		s := sp.node(def)
		if s == nil {
			return nil, false
		}
		if m := minField(s, kws[i]); m > lo {
			lo = m
		}
		if p := boundField(s, kws[i]); p != nil {
			cur[i] = *p
			if len(sps) == 1 && *p-1 < hi {
				hi = *p - 1
			}
		}
	}
	apply := func(def *crdschema.CustomResourceDefinition, v int64) *crdschema.CustomResourceDefinition {
		d := def
		for i, sp := range sps {
			if cur[i] >= 0 && cur[i] <= v {
				continue
			}
			d = withBound(d, sp, kws[i], v)
		}
		return d
	}
	valid := func(v int64) bool { return !hasCostErrors(ctx, apply(def, v), kv) }
	ok := valid
	if j, err := newJudge(def, sps, kv); err == nil {
		ok = func(v int64) bool {
			return j.passes(func(d *crdschema.CustomResourceDefinition) *crdschema.CustomResourceDefinition { return apply(d, v) })
		}
	}
	if hi < lo {
		return nil, false
	}
	largest, found := largestPassing(lo, hi, ok)
	if found && !valid(largest) {
		// The estimate of the rules on the path alone disagrees with CRD
		// validation: search again with CRD validation as the judge.
		largest, found = largestPassing(lo, hi, valid)
	}
	if !found {
		return nil, false
	}
	// Each node its suggested value: the usual bound of its kind where
	// that fits, a round number otherwise; all together checked, else the
	// round number everywhere, else the largest.
	values := make([]int64, len(sps))
	setAll := func(pick func(i int) int64) *crdschema.CustomResourceDefinition {
		d := def
		for i, sp := range sps {
			values[i] = pick(i)
			if cur[i] >= 0 && cur[i] <= values[i] {
				continue
			}
			d = withBound(d, sp, kws[i], values[i])
		}
		return d
	}
	picks := []func(i int) int64{
		func(i int) int64 { return suggest(largest, usual(sps[i].node(def), sps[i].fieldPath(), kws[i])) },
		func(int) int64 { return round(largest) },
		func(int) int64 { return largest },
	}
	for _, pick := range picks {
		if !hasCostErrors(ctx, setAll(pick), kv) {
			break
		}
	}
	var fixes []Fix
	for i, sp := range sps {
		if cur[i] >= 0 && cur[i] <= values[i] {
			continue // already bounded enough: no change
		}
		fixes = append(fixes, Fix{Bound: Bound{Path: sp.String(), FieldPath: sp.fieldPath(), Keyword: kws[i], Value: values[i]}, Largest: largest, Current: cur[i]})
	}
	return fixes, true
}

// largestPassing returns the largest v in [lo, hi] with ok(v), by binary
// search (ok holds up to some value and not above it), or false when
// ok(lo) does not hold.
func largestPassing(lo, hi int64, ok func(int64) bool) (int64, bool) {
	if !ok(lo) {
		return 0, false
	}
	for lo < hi { // invariant: ok(lo)
		mid := lo + (hi-lo+1)/2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, true
}
