package costs

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/structural"
)

// RuntimeCost is what one rule costs on one object, next to its estimate.
type RuntimeCost struct {
	// Field is the rule's path in the CRD, Rule its text.
	Field, Rule string
	// Evaluations is how many times the rule ran on the object (once per
	// value of its node), Actual the cost of all of them together (the
	// cost of its messageExpression included, when the rule failed).
	Evaluations int
	Actual      int64
	// EstimatedPerCall is the static estimate of one evaluation, and
	// Estimated its product with the cardinality, as CRD validation
	// computes them.
	EstimatedPerCall, Estimated uint64
}

// String describes the figures in one line, against the API server's
// limits: celrules.PerCallLimit for one evaluation, celrules.RuntimeBudget
// for all rules of an object.
func (c RuntimeCost) String() string {
	per := int64(0)
	if c.Evaluations > 0 {
		per = c.Actual / int64(c.Evaluations)
	}
	return fmt.Sprintf("%s: %d evaluation(s), actual cost %d (%s of the estimate %d, %s of the per-object budget %d); per evaluation %d on average (estimate %d, per-call limit %d)",
		c.Field, c.Evaluations, c.Actual, pct(c.Actual, c.Estimated), c.Estimated, pct(c.Actual, celrules.RuntimeBudget), int64(celrules.RuntimeBudget),
		per, c.EstimatedPerCall, int64(celrules.PerCallLimit))
}

// pct renders a as a percentage of b.
func pct(a int64, b uint64) string {
	if b == 0 {
		return "-"
	}
	p := 100 * float64(a) / float64(b)
	if p > 0 && p < 0.01 {
		return "<0.01%"
	}
	return strconv.FormatFloat(p, 'f', 2, 64) + "%"
}

// Runtime returns, for each rule of the named version of def, its actual
// cost on obj next to its static estimate: obj is first decoded and
// defaulted as a create request does (package crd), then each rule runs
// alone on it. def and obj are not modified. The release is
// crd.WithKubernetesVersion's (the default is 1.37); other options are
// ignored.
func Runtime(ctx context.Context, def *crdschema.CustomResourceDefinition, version string, obj map[string]any, opts ...crd.Option) ([]RuntimeCost, error) {
	kv := releaseOption(opts)
	// def may be refused for its rules' costs: their runtime costs are
	// what the caller wants to see.
	res, err := crd.New(def, version, crd.WithoutValidation(), kv)
	if err != nil {
		return nil, err
	}
	r, err := res.Create(ctx, obj)
	if r.Object == nil { // refused before validation: not decoded
		return nil, err
	}
	d := crd.Defaulted(def)
	estimates, err := crd.RuleCosts(d, nil, version, kv)
	if err != nil {
		return nil, err
	}
	props, _ := crd.VersionSchema(d, version)
	if props == nil {
		return nil, fmt.Errorf("%s has no schema for version %q", def.Name, version)
	}
	var out []RuntimeCost
	for _, e := range estimates {
		if !strings.HasSuffix(e.Field, ".rule") {
			continue
		}
		sp, rest, err := parsePath(e.Field)
		if err != nil {
			return nil, err
		}
		idx, err := ruleIndex(rest)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", e.Field, err)
		}
		s, err := onlyRule(props, sp.steps, idx)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", e.Field, err)
		}
		compiled, err := celrules.Compile(s, true, celrules.WithKubernetesVersion(release(opts)))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", e.Field, err)
		}
		left := compiled.Validate(ctx, nil, r.Object, nil).Remaining
		out = append(out, RuntimeCost{
			Field: e.Field, Rule: e.Rule,
			Evaluations:      countValues(r.Object, sp.steps),
			Actual:           celrules.RuntimeBudget - left,
			EstimatedPerCall: e.Cost, Estimated: e.Total(),
		})
	}
	return out, nil
}

// ruleIndex parses ".x-kubernetes-validations[i].rule".
func ruleIndex(rest string) (int, error) {
	const pre = ".x-kubernetes-validations["
	if !strings.HasPrefix(rest, pre) || !strings.HasSuffix(rest, "].rule") {
		return 0, fmt.Errorf("not a rule path")
	}
	return strconv.Atoi(rest[len(pre) : len(rest)-len("].rule")])
}

// onlyRule returns the structural schema of props with only the rule idx
// of the node at steps.
func onlyRule(props *crdschema.JSONSchemaProps, steps []step, idx int) (*structural.Schema, error) {
	node := props
	for _, st := range steps {
		if node = st.child(node); node == nil {
			return nil, fmt.Errorf("no schema node")
		}
	}
	if idx < 0 || idx >= len(node.XValidations) {
		return nil, fmt.Errorf("no rule %d", idx)
	}
	only := node.XValidations[idx : idx+1 : idx+1]
	return structural.New(keepRules(props, nil, func(path []step, _ []crdschema.ValidationRule) []crdschema.ValidationRule {
		if slices.Equal(path, steps) {
			return only
		}
		return nil
	}))
}

// countValues counts the values of obj at the schema path steps: how many
// times a rule there runs.
func countValues(v any, steps []step) int {
	if v == nil {
		return 0
	}
	if len(steps) == 0 {
		return 1
	}
	st, rest := steps[0], steps[1:]
	n := 0
	switch st.kind {
	case "properties":
		if m, ok := v.(map[string]any); ok {
			if c, ok := m[st.name]; ok {
				n = countValues(c, rest)
			}
		}
	case "items":
		if l, ok := v.([]any); ok {
			for _, e := range l {
				n += countValues(e, rest)
			}
		}
	case "additionalProperties":
		if m, ok := v.(map[string]any); ok {
			for _, e := range m {
				n += countValues(e, rest)
			}
		}
	}
	return n
}
