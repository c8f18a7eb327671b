package costs

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
)

// A Report explains why the API server refuses the CEL rules of a CRD for
// their estimated cost, and how to bound the schema so that it does not.
type Report struct {
	// Rules are the rules (and messageExpressions) over the per-expression
	// limit and, when a schema's total is over its limit, the rules that
	// make up that total, most expensive first.
	Rules []Rule
	// Totals are the estimated totals of the schemas over
	// celrules.StaticCRDCostLimit, by schema path.
	Totals map[string]uint64
	// Fixes are the bounds that each, alone, bring every rule and every
	// total of the CRD under the API server's limits, all other bounds
	// unchanged; at most one per schema node and keyword.
	Fixes []Fix
	// Fewest is the recommended combination of bounds that brings the CRD
	// under the limits: the one of Fixes that allows the largest value,
	// unless the bounds on the rules' paths together (all at the largest
	// common value that works, less every bound that can be left out
	// without lowering that value, found greedily) allow values at least four
	// times larger, spreading the budget. It is empty when no combination
	// of the bounds on the rules' paths does (the rules themselves are too
	// expensive). No bound suggested is 0: a field must stay usable.
	Fewest []Fix
}

// Rule is the cost figure of one expression over budget, and how it is
// made.
type Rule struct {
	// Field is the expression's path in the CRD, as the API server's
	// errors print it.
	Field string
	Rule  string
	// Cost is the estimated cost of one evaluation, Cardinality how many
	// times it may run per object (the product of the bounds of the
	// enclosing lists and maps, or the worst cases), Total their product
	// (a messageExpression's cost is not multiplied).
	Cost, Cardinality, Total uint64
	// Collections are the lists and maps around the expression's node,
	// outermost first, whose bounds make the cardinality.
	Collections []Bound
	// Unbounded are the lists, maps and strings without maximum that
	// drive the cost of one evaluation (for an expression over the
	// per-expression limit).
	Unbounded []Bound
}

// Bound is a maxItems, maxProperties or maxLength of a schema node.
type Bound struct {
	// Path is the node's path in the CRD
	// ("spec.validation.openAPIV3Schema.properties[spec].properties[hosts]"),
	// FieldPath the path of the objects' field ("spec.hosts"; "[*]" for
	// the items of a list or the values of a map).
	Path, FieldPath string
	// Keyword is maxItems, maxProperties or maxLength.
	Keyword string
	// Value is the bound, or -1 when none is set: the estimate then takes
	// the worst case that the API server's request size limit allows.
	Value int64
	// Worst is, for an enclosing list or map without bound, the worst
	// case the estimate takes for it, when it can be told apart (the
	// only unbounded one around the rule); 0 otherwise.
	Worst uint64
}

// Fix is a bound to set.
type Fix struct {
	Bound
	// Largest is the largest value that, with the other bounds of the fix
	// combination, brings the CRD under the limits; Value is a round
	// number (a power of two or 1, 2 or 5 times a power of ten) between
	// Largest/2 and Largest that does too.
	Largest int64
	// Current is the bound the CRD has now, or -1.
	Current int64
}

// Marker returns the kubebuilder marker that declares the fix in Go types.
func (f Fix) Marker() string {
	name := map[string]string{"maxItems": "MaxItems", "maxProperties": "MaxProperties", "maxLength": "MaxLength"}[f.Keyword]
	if strings.HasSuffix(f.FieldPath, "[*]") && f.Keyword == "maxLength" {
		// the items of a list of strings: on the list field
		return fmt.Sprintf("+kubebuilder:validation:items:%s=%d", name, f.Value)
	}
	return fmt.Sprintf("+kubebuilder:validation:%s=%d", name, f.Value)
}

// String describes the fix in one line.
func (f Fix) String() string {
	cur := "none"
	if f.Current >= 0 {
		cur = fmt.Sprint(f.Current)
	}
	return fmt.Sprintf("%s: %s %d (largest that works: %d; now: %s) at %s; %s", f.FieldPath, f.Keyword, f.Value, f.Largest, cur, f.Path, f.Marker())
}

// Explain reports, for every rule of def whose estimated cost, or whose
// schema's total, exceeds the API server's limits, how the figure is made
// and which maxItems, maxProperties or maxLength on its path bring the CRD
// under the limits. Every fix is checked: the CRD with it applied passes
// crd.Validate without a cost error. ctx bounds the evaluation of rules on
// defaults that CRD validation does. The report is empty when the API
// server accepts the costs of def. def is not modified. The release is
// crd.WithKubernetesVersion's (the default is 1.37): its cost estimates,
// and its validation of the CRDs the fixes make; other options are ignored.
func Explain(ctx context.Context, def *crdschema.CustomResourceDefinition, opts ...crd.Option) (*Report, error) {
	kv := releaseOption(opts)
	r := &Report{Totals: map[string]uint64{}}
	if !hasCostErrors(ctx, def, kv) {
		return r, nil
	}
	d := crd.Defaulted(def)
	seen := map[string]bool{}
	var cands []target
	seenCand := map[string]bool{}
	addCand := func(sp schemaPath, keyword string) {
		k := sp.String() + " " + keyword
		if !seenCand[k] {
			seenCand[k] = true
			cands = append(cands, target{sp, keyword})
		}
	}
	for _, v := range def.Spec.Versions {
		costs, err := crd.RuleCosts(d, nil, v.Name, kv)
		if err != nil {
			return nil, err
		}
		var total uint64
		for _, c := range costs {
			total = addSat(total, c.Total())
		}
		overTotal := total > celrules.StaticCRDCostLimit
		if overTotal && len(costs) > 0 {
			sp, _, err := parsePath(costs[0].Field)
			if err == nil {
				r.Totals[schemaPath{version: sp.version}.String()] = total
			}
		}
		for _, c := range costs {
			if seen[c.Field] || !(c.Total() > celrules.StaticCostLimit || overTotal && c.Total() > 0) {
				continue
			}
			seen[c.Field] = true
			sp, _, err := parsePath(c.Field)
			if err != nil {
				return nil, err
			}
			rule := Rule{Field: c.Field, Rule: c.Rule, Cost: c.Cost, Cardinality: c.Cardinality, Total: c.Total()}
			for i, st := range sp.steps {
				if st.kind == "properties" {
					continue
				}
				coll := schemaPath{version: sp.version, steps: sp.steps[:i]}
				kw := "maxItems"
				if st.kind == "additionalProperties" {
					kw = "maxProperties"
				}
				rule.Collections = append(rule.Collections, boundOf(d, coll, kw))
				addCand(coll, kw)
			}
			worstCase(&rule)
			for _, u := range c.Unbounded {
				up, _, err := parsePath(u)
				if err != nil {
					continue
				}
				if kw := keywordFor(up.node(d)); kw != "" {
					rule.Unbounded = append(rule.Unbounded, boundOf(d, up, kw))
					addCand(up, kw)
				}
			}
			if kw := keywordFor(sp.node(d)); kw != "" && c.Total() > celrules.StaticCostLimit {
				addCand(sp, kw) // a rule on a list, map or string reads it whole
			}
			r.Rules = append(r.Rules, rule)
		}
	}
	sort.SliceStable(r.Rules, func(i, j int) bool { return r.Rules[i].Total > r.Rules[j].Total })

	// Each candidate alone.
	for _, c := range cands {
		if f, ok := search(ctx, def, []target{c}, kv); ok {
			r.Fixes = append(r.Fixes, f[0])
		}
	}
	var single []Fix
	if len(r.Fixes) > 0 {
		single = []Fix{slices.MaxFunc(r.Fixes, func(a, b Fix) int { return cmp.Compare(a.Largest, b.Largest) })}
	}
	// The bounds on the rules' paths together, with a common largest value,
	// less those that can be left out without lowering it: the budget
	// spread over several bounds.
	spread, ok := search(ctx, def, cands, kv)
	if ok {
		for i := 0; i < len(cands) && len(cands) > 1; {
			rest := slices.Delete(slices.Clone(cands), i, i+1)
			// left out only when the others need no smaller value
			if f, ok := search(ctx, def, rest, kv); ok && len(f) > 0 && f[0].Largest >= spread[0].Largest {
				cands, spread = rest, f
				continue
			}
			i++
		}
	}
	r.Fewest = pick(single, spread)
	return r, nil
}

// spreadFactor is how much larger a combination's bounds must be than the
// single best bound's for the combination to be preferred: one bound
// changed is simpler, but not at the price of a list of 4 where two
// bounds allow 1,024 each.
const spreadFactor = 4

// pick chooses Fewest: the single bound, unless a combination of bounds
// allows values spreadFactor times larger (its smallest against the
// single one's).
func pick(single, spread []Fix) []Fix {
	switch {
	case len(spread) == 0:
		return single
	case len(single) == 0:
		return spread
	}
	least := slices.MinFunc(spread, func(a, b Fix) int { return cmp.Compare(a.Value, b.Value) }).Value
	if len(spread) > 1 && least >= spreadFactor*single[0].Value {
		return spread
	}
	return single
}

// keywordFor returns the bound keyword of a schema node: maxItems for a
// list, maxProperties for a map, maxLength for a string; "" for others.
func keywordFor(s *crdschema.JSONSchemaProps) string {
	switch {
	case s == nil:
		return ""
	case s.Type == "array":
		return "maxItems"
	case s.Type == "object" && s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
		return "maxProperties"
	case s.Type == "string":
		return "maxLength"
	}
	return ""
}

// boundOf returns the bound keyword of the node at sp in def.
func boundOf(def *crdschema.CustomResourceDefinition, sp schemaPath, keyword string) Bound {
	b := Bound{Path: sp.String(), FieldPath: sp.fieldPath(), Keyword: keyword, Value: -1}
	if s := sp.node(def); s != nil {
		if p := boundField(s, keyword); p != nil {
			b.Value = *p
		}
	}
	return b
}

// boundFields returns the fields of s that hold the bound keyword
// (maxItems, maxProperties or maxLength) and the lower bound that goes
// with it (minItems, ...); nil, nil for another keyword.
func boundFields(s *crdschema.JSONSchemaProps, keyword string) (upper, lower **int64) {
	switch keyword {
	case "maxItems":
		return &s.MaxItems, &s.MinItems
	case "maxProperties":
		return &s.MaxProperties, &s.MinProperties
	case "maxLength":
		return &s.MaxLength, &s.MinLength
	}
	return nil, nil
}

// boundField returns the bound keyword of s, or nil.
func boundField(s *crdschema.JSONSchemaProps, keyword string) *int64 {
	if upper, _ := boundFields(s, keyword); upper != nil {
		return *upper
	}
	return nil
}

func addSat(a, b uint64) uint64 {
	if a+b < a {
		return ^uint64(0)
	}
	return a + b
}

// hasCostErrors reports whether the API server refuses def for the
// estimated cost of its rules.
func hasCostErrors(ctx context.Context, def *crdschema.CustomResourceDefinition, kv crd.Option) bool {
	return slices.ContainsFunc(crd.Validate(ctx, def, kv), func(e *crdschema.Error) bool {
		return e.Type == crdschema.ErrorTypeForbidden && strings.Contains(e.Detail, "cost")
	})
}

// worstCase fills in the worst case of the only unbounded collection
// around a rule: its cardinality divided by the bounds of the others.
func worstCase(r *Rule) {
	unbounded := -1
	product := uint64(1)
	for i, c := range r.Collections {
		if c.Value < 0 {
			if unbounded >= 0 {
				return
			}
			unbounded = i
			continue
		}
		if c.Value == 0 {
			return
		}
		product *= uint64(c.Value)
	}
	if unbounded >= 0 && r.Cardinality%product == 0 {
		r.Collections[unbounded].Worst = r.Cardinality / product
	}
}
