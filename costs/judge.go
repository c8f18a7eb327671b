package costs

import (
	"errors"
	"slices"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
)

// A judge tells whether bounds on some schema nodes bring a CRD's rule
// costs under the API server's limits. It estimates only the rules whose
// cost the bounds can change, those on the nodes' ancestors and in their
// subtrees, in a copy of the CRD without the other rules, whose costs it
// adds as estimated once: the estimator runs on far fewer rules for each
// value tried. The search's result is then checked with crd.Validate.
type judge struct {
	reduced *crdschema.CustomResourceDefinition
	version string     // the version whose schema the nodes are in
	kv      crd.Option // the release
	// fixed is the total of the rules left out; fixedOver is set when one
	// of them alone is over the per-expression limit.
	fixed     uint64
	fixedOver bool
}

// newJudge prepares a judge for the bounds ts of def.
func newJudge(def *crdschema.CustomResourceDefinition, ts []target, kv crd.Option) (*judge, error) {
	d := crd.Defaulted(def)
	vi := 0
	if ts[0].sp.version >= 0 {
		vi = ts[0].sp.version
	}
	if vi >= len(d.Spec.Versions) {
		return nil, errNoVersion
	}
	j := &judge{version: d.Spec.Versions[vi].Name, kv: kv}
	all, err := crd.RuleCosts(d, nil, j.version, kv)
	if err != nil {
		return nil, err
	}
	affected := func(field string) bool {
		sp, _, err := parsePath(field)
		if err != nil {
			return true
		}
		return slices.ContainsFunc(ts, func(t target) bool { return related(sp.steps, t.sp.steps) })
	}
	for _, c := range all {
		if !affected(c.Field) {
			j.fixed = addSat(j.fixed, c.Total())
			j.fixedOver = j.fixedOver || c.Total() > celrules.StaticCostLimit
		}
	}
	// The copy without the rules left out.
	j.reduced = withSchemas(d, schemaPath{version: -1}.roots(d), func(i int, s *crdschema.JSONSchemaProps) *crdschema.JSONSchemaProps {
		return keepRules(s, nil, func(path []step, rules []crdschema.ValidationRule) []crdschema.ValidationRule {
			if slices.ContainsFunc(ts, func(t target) bool { return (t.sp.version < 0 || t.sp.version == i) && related(path, t.sp.steps) }) {
				return rules
			}
			return nil
		})
	})
	return j, nil
}

// related reports whether a is an ancestor of b, b of a, or a is b.
func related(a, b []step) bool {
	n := min(len(a), len(b))
	return slices.Equal(a[:n], b[:n])
}

// passes reports whether d, the reduced CRD with bounds set, keeps every
// rule and the total of the version under the limits.
func (j *judge) passes(d *crdschema.CustomResourceDefinition) bool {
	if j.fixedOver {
		return false
	}
	costs, err := crd.RuleCosts(d, nil, j.version, j.kv)
	if err != nil {
		return false
	}
	total := j.fixed
	for _, c := range costs {
		if c.Total() > celrules.StaticCostLimit {
			return false
		}
		total = addSat(total, c.Total())
	}
	return total <= celrules.StaticCRDCostLimit
}

var errNoVersion = errors.New("the schema path names no version of the CRD")
