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

// A target is a bound to search for: the keyword (maxItems, maxProperties
// or maxLength) of the node at sp.
type target struct {
	sp      schemaPath
	keyword string
}

// search finds the largest value v such that def, with the bounds ts set
// to v (or kept where lower), passes CRD validation without a cost error,
// by binary search with crd.Validate as the judge, from minUsable up: a
// bound of 0 would fix the cost by making the field unusable. It returns
// the fixes, each with a suggested value (the usual bound of the field's
// kind, or a round number; see suggest) checked too, or false when no
// usable value does or ts is empty.
func search(ctx context.Context, def *crdschema.CustomResourceDefinition, ts []target, kv crd.Option) ([]Fix, bool) {
	if len(ts) == 0 {
		return nil, false // nothing to bound
	}
	lo := int64(minUsable)
	hi := int64(maxSearch)
	cur := make([]int64, len(ts))
	for i, t := range ts {
		cur[i] = -1
		s := t.sp.node(def)
		if s == nil {
			return nil, false
		}
		if _, lower := boundFields(s, t.keyword); lower != nil && *lower != nil && **lower > lo {
			lo = **lower // minItems, minProperties or minLength
		}
		if p := boundField(s, t.keyword); p != nil {
			cur[i] = *p
			if len(ts) == 1 && *p-1 < hi {
				hi = *p - 1
			}
		}
	}
	// with returns d with each bound i set to values[i] = value(i), where
	// that is below its current value.
	values := make([]int64, len(ts))
	with := func(d *crdschema.CustomResourceDefinition, value func(i int) int64) *crdschema.CustomResourceDefinition {
		for i, t := range ts {
			values[i] = value(i)
			if cur[i] >= 0 && cur[i] <= values[i] {
				continue
			}
			d = withBound(d, t.sp, t.keyword, values[i])
		}
		return d
	}
	all := func(v int64) func(int) int64 { return func(int) int64 { return v } }
	valid := func(v int64) bool { return !hasCostErrors(ctx, with(def, all(v)), kv) }
	ok := valid
	if j, err := newJudge(def, ts, kv); err == nil {
		ok = func(v int64) bool { return j.passes(with(j.reduced, all(v))) }
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
	picks := []func(i int) int64{
		func(i int) int64 {
			return suggest(largest, usual(ts[i].sp.node(def), ts[i].sp.fieldPath(), ts[i].keyword))
		},
		all(round(largest)),
		all(largest),
	}
	for _, pick := range picks {
		if !hasCostErrors(ctx, with(def, pick), kv) {
			break
		}
	}
	var fixes []Fix
	for i, t := range ts {
		if cur[i] >= 0 && cur[i] <= values[i] {
			continue // already bounded enough: no change
		}
		fixes = append(fixes, Fix{Bound: Bound{Path: t.sp.String(), FieldPath: t.sp.fieldPath(), Keyword: t.keyword, Value: values[i]}, Largest: largest, Current: cur[i]})
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
