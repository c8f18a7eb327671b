package celrules

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
)

// Cost is the static cost figure CRD validation computes for one rule or
// messageExpression.
type Cost struct {
	// Field is the path of the expression in the CRD
	// ("spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule").
	Field string
	// Rule is the expression's text.
	Rule string
	// Cost is the estimated maximum cost of one evaluation.
	Cost uint64
	// Cardinality is how many times the expression may run per object: the
	// product of the maxItems/maxProperties of the lists and maps above it,
	// or the worst case the request size allows when one is unbounded. A
	// messageExpression has the cardinality of its rule.
	Cardinality uint64
	// Unbounded is set when the expression exceeds StaticCostLimit: the
	// paths in the CRD of the lists, maps and strings without maxItems,
	// maxProperties or maxLength that drive the estimate, either because
	// the expression reads them or because they contain the rule's node.
	// Declaring limits there lowers the cost.
	Unbounded []string
}

// Total is the figure the API server compares with StaticCostLimit: a
// rule's cost multiplied by its cardinality (saturated at the largest
// uint64), and a messageExpression's cost alone, as the API server does not
// multiply it.
func (c Cost) Total() uint64 {
	if strings.HasSuffix(c.Field, ".messageExpression") {
		return c.Cost
	}
	return mulSaturate(c.Cost, c.Cardinality)
}

func mulSaturate(a, b uint64) uint64 {
	if a == 0 {
		return 0
	}
	if math.MaxUint64/a < b {
		return math.MaxUint64
	}
	return a * b
}

// ruleValue is how the API server prints a rule as the value of an error:
// its internal struct, with Go field names.
type ruleValue struct {
	Rule              string
	Message           string
	MessageExpression string
	Reason            *crdschema.FieldValueErrorReason
	FieldPath         string
	OptionalOldSelf   *bool
}

func toRuleValue(r crdschema.ValidationRule) ruleValue {
	return ruleValue{r.Rule, r.Message, r.MessageExpression, r.Reason, r.FieldPath, r.OptionalOldSelf}
}

// costErrorMessage renders how far cost exceeds limit, as the API server
// words it.
func costErrorMessage(what string, cost, limit uint64) string {
	f := float64(cost) / float64(limit)
	var factor string
	switch {
	case f > 100:
		factor = "more than 100x"
	case f < 1.5:
		factor = fmt.Sprintf("%fx", f)
	default:
		factor = fmt.Sprintf("%.1fx", f)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", what, factor)
}

var lineBreaks = regexp.MustCompile(`[\n\r]+`)

var supportedReasons = []crdschema.FieldValueErrorReason{
	crdschema.FieldValueDuplicate, crdschema.FieldValueForbidden,
	crdschema.FieldValueInvalid, crdschema.FieldValueRequired,
}

// CheckSchema returns what CRD validation reports about the
// x-kubernetes-validations of the structural schema s found at fldPath
// (the openAPIV3Schema of a CRD, e.g.
// crdschema.NewPath("spec", "validation", "openAPIV3Schema")): the rules'
// own defects (missing rule, bad message, reason or fieldPath), compile
// errors, oldSelf where old values cannot be correlated, optionalOldSelf
// without oldSelf, and per-expression and whole-schema cost limits, with the
// API server's paths and texts. It also returns the cost figures of every
// expression that compiled, in schema order (a node's rules, then its
// additionalProperties, its properties by name, its items).
//
// The API server looks at rules only when the schema is structural and its
// defaults are valid; call CheckSchema only then. Pass the other errors
// CRD validation found in the schema with SchemaErrors, so that, as in the
// API server, no rule is compiled at a node with errors at or below it
// (their cost figures are still returned). By default expressions compile
// as new expressions at the default compatibility version; on updates, pass
// the old CRD's expressions with NewExpressions(CollectExpressions(...)),
// and SuppressExpressionCost for a version whose schema did not change.
//
// The error is for options that make no sense.
func CheckSchema(s *structural.Schema, fldPath *crdschema.Path, opts ...Option) (crdschema.ErrorList, []Cost, error) {
	cfg, err := newConfig(append([]Option{NewExpressions(Expressions{})}, opts...))
	if err != nil {
		return nil, nil, err
	}
	if s == nil {
		return nil, nil, nil
	}
	cfg.checkOnly = true
	total := &totalCost{}
	one := uint64(1)
	ch := &crdChecker{cfg: cfg, total: total}
	for _, e := range cfg.schemaErrors {
		ch.errFields = append(ch.errFields, e.Field)
	}
	root := &celContext{schema: s, inScope: len(s.XValidations) > 0, cardinality: &one, path: fldPath.String()}
	ch.withRules = map[*structural.Schema]bool{}
	ch.markRules(s, 0)
	if ch.withRules[s] {
		ch.walk(s, fldPath, root, nil, 0)
	}
	errs := ch.errs
	if total.total > StaticCRDCostLimit {
		for _, e := range total.top {
			errs = append(errs, crdschema.Forbidden(e.path, "contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema"))
		}
		errs = append(errs, crdschema.Forbidden(fldPath, costErrorMessage("x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema", total.total, StaticCRDCostLimit)))
	}
	return errs, ch.costs, nil
}

type pathCost struct {
	path *crdschema.Path
	cost uint64
}

// totalCost sums the schema's expression costs and keeps the four largest
// that count (at least 1% of the schema limit).
type totalCost struct {
	total uint64
	top   []pathCost
}

func (t *totalCost) observe(p *crdschema.Path, cost uint64) {
	if math.MaxUint64-t.total < cost {
		t.total = math.MaxUint64
	} else {
		t.total += cost
	}
	if cost < StaticCRDCostLimit/100 {
		return
	}
	t.top = append(t.top, pathCost{p, cost})
	sort.SliceStable(t.top, func(i, j int) bool { return t.top[i].cost > t.top[j].cost })
	if len(t.top) > 4 {
		t.top = t.top[:4]
	}
}

// typeInfo is a node's schema and CEL type as CRD validation derives them.
type typeInfo struct {
	schema *structural.Schema
	dt     *declType
}

// celContext follows CRD validation's derivation of the CEL type and the
// cardinality of each node.
type celContext struct {
	schema  *structural.Schema
	parent  *celContext
	inScope bool
	// access derives the node's type from its parent's; nil at the root.
	access func(*typeInfo) *typeInfo
	// cardinality is nil when a list or map above is unbounded.
	cardinality *uint64
	// path is the node's path in the CRD; unboundedAbove the paths of the
	// lists and maps above it without maxItems or maxProperties.
	path           string
	unboundedAbove []string

	done bool
	info *typeInfo
	err  error
}

func (c *celContext) typeInfo() (*typeInfo, error) {
	if c == nil || !c.inScope {
		return nil, nil
	}
	if c.done {
		return c.info, c.err
	}
	c.done = true
	if c.parent != nil {
		pi, err := c.parent.typeInfo()
		if err != nil {
			c.err = err
			return nil, err
		}
		if pi != nil && c.access != nil {
			if c.info = c.access(pi); c.info != nil {
				return c.info, nil
			}
		}
	}
	dt := newDeclType(c.schema, c.parent == nil || c.schema.XEmbeddedResource)
	if dt == nil {
		c.err = fmt.Errorf("unable to convert structural schema to CEL declarations")
		return nil, c.err
	}
	c.info = &typeInfo{schema: c.schema, dt: dt}
	return c.info, nil
}

// maxElements is how many children a value of s has at most; nil means
// unbounded.
func maxElements(s *structural.Schema) *uint64 {
	one := uint64(1)
	switch s.Type {
	case "object":
		if s.AdditionalProperties != nil {
			if s.ValueValidation != nil && s.ValueValidation.MaxProperties != nil {
				n := uint64(nonNegative(*s.ValueValidation.MaxProperties))
				return &n
			}
			return nil
		}
		return &one
	case "array":
		if s.ValueValidation != nil && s.ValueValidation.MaxItems != nil {
			n := uint64(nonNegative(*s.ValueValidation.MaxItems))
			return &n
		}
		return nil
	}
	return &one
}

func (c *celContext) child(s *structural.Schema, access func(*typeInfo) *typeInfo, path *crdschema.Path) *celContext {
	out := &celContext{schema: s, parent: c, inScope: c.inScope || len(s.XValidations) > 0, access: access,
		path: path.String(), unboundedAbove: c.unboundedAbove}
	m := maxElements(c.schema)
	if m == nil {
		out.unboundedAbove = append(append([]string(nil), c.unboundedAbove...), c.path)
	}
	if c.cardinality == nil {
		return out
	}
	if m != nil {
		n := mulSaturate(*c.cardinality, *m)
		out.cardinality = &n
	}
	return out
}

func propertyAccess(name string) func(*typeInfo) *typeInfo {
	return func(p *typeInfo) *typeInfo {
		if p.schema.Properties == nil {
			return nil
		}
		escaped, ok := Escape(name)
		if !ok || p.dt == nil {
			return nil
		}
		f, ok := p.dt.fields[escaped]
		if !ok {
			return nil
		}
		ps := p.schema.Properties[name]
		if ps == nil {
			ps = &structural.Schema{}
		}
		return &typeInfo{schema: ps, dt: f.typ}
	}
}

func itemsAccess(p *typeInfo) *typeInfo {
	if p.schema.Items == nil {
		return nil
	}
	var dt *declType
	if p.dt != nil {
		dt = p.dt.elem
	}
	return &typeInfo{schema: p.schema.Items, dt: dt}
}

func additionalAccess(p *typeInfo) *typeInfo {
	if p.schema.AdditionalProperties == nil || p.schema.AdditionalProperties.Schema == nil {
		return nil
	}
	var dt *declType
	if p.dt != nil {
		dt = p.dt.elem
	}
	return &typeInfo{schema: p.schema.AdditionalProperties.Schema, dt: dt}
}

// unboundedPaths joins the unbounded lists and maps above the node (when
// above is set) with the node-relative paths an expression's estimate
// used.
func (c *celContext) unboundedPaths(used []string, above bool) []string {
	var out []string
	if above {
		out = append(out, c.unboundedAbove...)
	}
	for _, u := range used {
		if u == "" {
			out = append(out, c.path)
		} else {
			out = append(out, c.path+"."+u)
		}
	}
	sort.Strings(out)
	return out
}

type crdChecker struct {
	cfg       *config
	total     *totalCost
	errs      crdschema.ErrorList
	costs     []Cost
	errFields []string
	// compiled holds the compile results of the nodes checked so far, by
	// their rules (see rulesKey): a schema often repeats a structure with
	// its rules.
	compiled map[string][]compileResult
	// withRules holds the nodes with rules at or below them (junctors
	// included); the walk skips the others, where there is nothing to
	// report, without deriving their types.
	withRules map[*structural.Schema]bool
}

// markRules records in ch.withRules whether s has rules at or below it.
func (ch *crdChecker) markRules(s *structural.Schema, depth int) bool {
	if s == nil || depth > maxSchemaDepth {
		return false
	}
	has := len(s.XValidations) > 0 || (s.ValueValidation != nil && nestedHasRules(s.ValueValidation, depth+1))
	if s.AdditionalProperties != nil && ch.markRules(s.AdditionalProperties.Schema, depth+1) {
		has = true
	}
	for _, ps := range s.Properties {
		if ch.markRules(ps, depth+1) {
			has = true
		}
	}
	if ch.markRules(s.Items, depth+1) {
		has = true
	}
	if has {
		ch.withRules[s] = true
	}
	return has
}

// nestedHasRules reports whether the junctors of vv hold rules.
func nestedHasRules(vv *structural.ValueValidation, depth int) bool {
	if depth > maxSchemaDepth {
		return false
	}
	var inNested func(n *structural.NestedValueValidation, depth int) bool
	inNested = func(n *structural.NestedValueValidation, depth int) bool {
		if n == nil || depth > maxSchemaDepth {
			return false
		}
		if len(n.XValidations) > 0 || nestedHasRules(&n.ValueValidation, depth+1) ||
			inNested(n.Items, depth+1) || inNested(n.AdditionalProperties, depth+1) {
			return true
		}
		for _, p := range n.Properties {
			if inNested(p, depth+1) {
				return true
			}
		}
		return false
	}
	if inNested(vv.Not, depth) {
		return true
	}
	for _, l := range [][]structural.NestedValueValidation{vv.AllOf, vv.OneOf, vv.AnyOf} {
		for i := range l {
			if inNested(&l[i], depth) {
				return true
			}
		}
	}
	return false
}

type compileResult struct {
	dt    *declType
	rules []*compiledRule
	err   error
}

// compileNodeRules compiles the rules of a node whose schema is s and
// whose type is dt, or returns the results of a node compiled before with
// the same rules and an equal type. Those results are the same but for
// the generated type names in error texts, which change with every
// compilation anyway.
func (ch *crdChecker) compileNodeRules(s *structural.Schema, dt *declType) ([]*compiledRule, error) {
	key, ok := rulesKey(s.XValidations)
	if !ok || dt == nil {
		return compileRules(s, s.XValidations, dt, ch.cfg)
	}
	for _, c := range ch.compiled[key] {
		budget := maxTypeComparison
		if equalDeclTypes(c.dt, dt, &budget) {
			return c.rules, c.err
		}
	}
	rules, err := compileRules(s, s.XValidations, dt, ch.cfg)
	if ch.compiled == nil {
		ch.compiled = map[string][]compileResult{}
	}
	if len(ch.compiled[key]) < maxCompileCandidates {
		ch.compiled[key] = append(ch.compiled[key], compileResult{dt, rules, err})
	}
	return rules, err
}

// Limits that keep reusing compile results cheap on hostile schemas (the
// same rules at every level of a deep schema): how many earlier nodes with
// the same rules are considered, and how many type nodes one comparison
// may visit before it gives up (and the node is compiled).
const (
	maxCompileCandidates = 8
	maxTypeComparison    = 4096
)

// rulesKey identifies a node's rules. It reports false when compiling
// them also depends on the node's schema (a rule with a fieldPath).
func rulesKey(rules crdschema.ValidationRules) (string, bool) {
	var b strings.Builder
	for _, r := range rules {
		if r.FieldPath != "" {
			return "", false
		}
		b.WriteString(strconv.Quote(r.Rule))
		b.WriteString(strconv.Quote(r.Message))
		b.WriteString(strconv.Quote(r.MessageExpression))
		if r.Reason != nil {
			b.WriteString(strconv.Quote(string(*r.Reason)))
		} else {
			b.WriteByte('-')
		}
		switch {
		case r.OptionalOldSelf == nil:
			b.WriteString("-;")
		case *r.OptionalOldSelf:
			b.WriteString("t;")
		default:
			b.WriteString("f;")
		}
	}
	return b.String(), true
}

// equalDeclTypes reports whether a and b are the same type with the same
// size bounds: everything compiling a rule depends on. It visits at most
// *budget type nodes and answers false when that is not enough.
func equalDeclTypes(a, b *declType, budget *int) bool {
	if a == b {
		return true
	}
	if a == nil || b == nil || *budget <= 0 {
		return false
	}
	*budget--
	if a.kind != b.kind || a.name != b.name || a.maxElements != b.maxElements ||
		a.minSize != b.minSize || a.unbounded != b.unbounded || len(a.fields) != len(b.fields) {
		return false
	}
	// The CEL type of lists, maps and objects follows from their name and
	// element types; a scalar's is its own.
	if a.kind == kindScalar && ((a.celType == nil) != (b.celType == nil) ||
		(a.celType != nil && a.celType.String() != b.celType.String())) {
		return false
	}
	for n, fa := range a.fields {
		fb, ok := b.fields[n]
		if !ok || fa.name != fb.name || fa.required != fb.required || !equalDeclTypes(fa.typ, fb.typ, budget) {
			return false
		}
	}
	return equalDeclTypes(a.key, b.key, budget) && equalDeclTypes(a.elem, b.elem, budget)
}

// hasErrorsAt reports whether one of the given schema errors lies at or
// below p.
func (ch *crdChecker) hasErrorsAt(p string) bool {
	for _, f := range ch.errFields {
		if strings.HasPrefix(f, p) && (len(f) == len(p) || f[len(p)] == '.' || f[len(p)] == '[') {
			return true
		}
	}
	return false
}

// walk checks the node s at p and everything below it. forbidOldSelf is
// the path of the list or map above s whose items cannot be correlated,
// if any. It reports whether the subtree has schema errors (rule defects).
func (ch *crdChecker) walk(s *structural.Schema, p *crdschema.Path, ctx *celContext, forbidOldSelf *crdschema.Path, depth int) bool {
	if s == nil || depth > maxSchemaDepth {
		return false
	}
	costStart := len(ch.costs)
	// The node's own costs come first, so they are appended after the
	// children and moved to the front.
	bad := false
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		ap := s.AdditionalProperties.Schema
		if ch.withRules[ap] && ch.walk(ap, p.Child("additionalProperties"), ctx.child(ap, additionalAccess, p.Child("additionalProperties")), forbidOldSelf, depth+1) {
			bad = true
		}
	}
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		ps := s.Properties[k]
		if ps == nil || !ch.withRules[ps] {
			continue
		}
		sub := forbidOldSelf
		if sub == nil && !correlatableMap(s.XMapType) {
			sub = p
		}
		if ch.walk(ps, p.Child("properties").Key(k), ctx.child(ps, propertyAccess(k), p.Child("properties").Key(k)), sub, depth+1) {
			bad = true
		}
	}
	if s.ValueValidation != nil {
		vv := s.ValueValidation
		if vv.Not != nil && ch.walkNested(vv.Not, p.Child("not"), depth+1) {
			bad = true
		}
		for i := range vv.AllOf {
			if ch.walkNested(&vv.AllOf[i], p.Child("allOf").Index(i), depth+1) {
				bad = true
			}
		}
		for i := range vv.OneOf {
			if ch.walkNested(&vv.OneOf[i], p.Child("oneOf").Index(i), depth+1) {
				bad = true
			}
		}
		for i := range vv.AnyOf {
			if ch.walkNested(&vv.AnyOf[i], p.Child("anyOf").Index(i), depth+1) {
				bad = true
			}
		}
	}
	if s.Items != nil && ch.withRules[s.Items] {
		sub := forbidOldSelf
		if sub == nil && (s.XListType == nil || *s.XListType != "map") {
			sub = p
		}
		if ch.walk(s.Items, p.Child("items"), ctx.child(s.Items, itemsAccess, p.Child("items")), sub, depth+1) {
			bad = true
		}
	}
	if len(s.XValidations) == 0 {
		return bad
	}
	if ch.ruleDefects(s, s.XValidations, p) {
		bad = true
	}
	// Rules of a node with schema errors at or below it are not compiled
	// by CRD validation; their cost figures are still reported.
	skip := bad || ch.hasErrorsAt(p.String())
	childCosts := append([]Cost(nil), ch.costs[costStart:]...)
	ch.costs = ch.costs[:costStart]
	ch.compileNode(s, p, ctx, forbidOldSelf, skip)
	ch.costs = append(ch.costs, childCosts...)
	return bad
}

// walkNested checks the rule defects inside a junctor; CRD validation
// compiles no rule there.
func (ch *crdChecker) walkNested(v *structural.NestedValueValidation, p *crdschema.Path, depth int) bool {
	if v == nil || depth > maxSchemaDepth {
		return false
	}
	bad := false
	if v.AdditionalProperties != nil && ch.walkNested(v.AdditionalProperties, p.Child("additionalProperties"), depth+1) {
		bad = true
	}
	for k, ps := range v.Properties {
		if ch.walkNested(ps, p.Child("properties").Key(k), depth+1) {
			bad = true
		}
	}
	if v.Not != nil && ch.walkNested(v.Not, p.Child("not"), depth+1) {
		bad = true
	}
	for _, list := range []struct {
		name string
		vs   []structural.NestedValueValidation
	}{{"allOf", v.AllOf}, {"oneOf", v.OneOf}, {"anyOf", v.AnyOf}} {
		for i := range list.vs {
			if ch.walkNested(&list.vs[i], p.Child(list.name).Index(i), depth+1) {
				bad = true
			}
		}
	}
	if v.Items != nil && ch.walkNested(v.Items, p.Child("items"), depth+1) {
		bad = true
	}
	if len(v.XValidations) > 0 && ch.ruleDefects(nestedToSchema(v, 0), v.XValidations, p) {
		bad = true
	}
	return bad
}

// ruleDefects reports the defects of the rules themselves (empty rule,
// bad message, reason or fieldPath).
func (ch *crdChecker) ruleDefects(s *structural.Schema, rules crdschema.ValidationRules, p *crdschema.Path) bool {
	n := len(ch.errs)
	for i, r := range rules {
		rp := p.Child("x-kubernetes-validations").Index(i)
		rule := strings.TrimSpace(r.Rule)
		msg := strings.TrimSpace(r.Message)
		switch {
		case rule == "":
			ch.errs = append(ch.errs, crdschema.Required(rp.Child("rule"), "rule is not specified"))
		case r.Message != "" && msg == "":
			ch.errs = append(ch.errs, crdschema.Invalid(rp.Child("message"), r.Message, "must be non-empty if specified"))
		case lineBreaks.MatchString(msg):
			ch.errs = append(ch.errs, crdschema.Invalid(rp.Child("message"), r.Message, "must not contain line breaks"))
		case lineBreaks.MatchString(rule) && msg == "":
			ch.errs = append(ch.errs, crdschema.Required(rp.Child("message"), "message must be specified if rule contains line breaks"))
		}
		if r.MessageExpression != "" && strings.TrimSpace(r.MessageExpression) == "" {
			ch.errs = append(ch.errs, crdschema.Required(rp.Child("messageExpression"), "messageExpression must be non-empty if specified"))
		}
		if r.Reason != nil {
			ok := false
			for _, sr := range supportedReasons {
				if *r.Reason == sr {
					ok = true
				}
			}
			if !ok {
				ch.errs = append(ch.errs, crdschema.NotSupported(rp.Child("reason"), *r.Reason, supportedReasons))
			}
		}
		if r.FieldPath != "" {
			if strings.TrimSpace(r.FieldPath) == "" {
				ch.errs = append(ch.errs, crdschema.Invalid(rp.Child("fieldPath"), r.FieldPath, "must be non-empty if specified"))
			}
			if lineBreaks.MatchString(r.FieldPath) {
				ch.errs = append(ch.errs, crdschema.Invalid(rp.Child("fieldPath"), r.FieldPath, "must not contain line breaks"))
			}
			if _, _, err := structural.ValidFieldPath(r.FieldPath, s, true); err != nil {
				ch.errs = append(ch.errs, crdschema.Invalid(rp.Child("fieldPath"), r.FieldPath, "must be a valid path"))
			}
		}
	}
	return len(ch.errs) > n
}

// compileNode compiles the node's rules as CRD validation does and
// reports compile errors, oldSelf misuse and cost.
func (ch *crdChecker) compileNode(s *structural.Schema, p *crdschema.Path, ctx *celContext, forbidOldSelf *crdschema.Path, costsOnly bool) {
	xv := p.Child("x-kubernetes-validations")
	errsBefore := len(ch.errs)
	totalBefore := totalCost{total: ch.total.total, top: append([]pathCost(nil), ch.total.top...)}
	defer func() {
		if costsOnly {
			ch.errs = ch.errs[:errsBefore]
			*ch.total = totalBefore
		}
	}()
	ti, err := ctx.typeInfo()
	if err != nil {
		ch.errs = append(ch.errs, crdschema.InternalError(xv, fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %s", err)))
		return
	}
	if ti == nil {
		ch.errs = append(ch.errs, crdschema.InternalError(xv, fmt.Errorf("internal error: failed to retrieve type information for x-kubernetes-validations")))
		return
	}
	results, err := ch.compileNodeRules(ti.schema, ti.dt)
	if err != nil {
		ch.errs = append(ch.errs, crdschema.InternalError(xv, err))
		return
	}
	for i, cr := range results {
		rp := xv.Index(i)
		card := cr.maxCardinality
		if ctx.cardinality != nil {
			card = *ctx.cardinality
		}
		cost := mulSaturate(cr.maxCost, card)
		if !ch.cfg.suppressExpressionCost && cost > StaticCostLimit {
			ch.errs = append(ch.errs, crdschema.Forbidden(rp.Child("rule"), costErrorMessage("estimated rule cost", cost, StaticCostLimit)))
		}
		ch.total.observe(rp.Child("rule"), cost)
		if cr.err != nil {
			ch.errs = append(ch.errs, crdschema.Invalid(rp.Child("rule"), toRuleValue(s.XValidations[i]), cr.err.detail))
		} else if cr.compiled {
			c := Cost{Field: rp.Child("rule").String(), Rule: cr.src.Rule, Cost: cr.maxCost, Cardinality: card}
			if cost > StaticCostLimit {
				c.Unbounded = ctx.unboundedPaths(cr.unbounded, true)
			}
			ch.costs = append(ch.costs, c)
		}
		if cr.messageErr != nil {
			ch.errs = append(ch.errs, crdschema.Invalid(rp.Child("messageExpression"), toRuleValue(s.XValidations[i]), cr.messageErr.detail))
		} else if cr.messageCompiled {
			if !ch.cfg.suppressExpressionCost && cr.messageMaxCost > StaticCostLimit {
				ch.errs = append(ch.errs, crdschema.Forbidden(rp.Child("messageExpression"), costErrorMessage("estimated messageExpression cost", cr.messageMaxCost, StaticCostLimit)))
			}
			ch.total.observe(rp.Child("messageExpression"), cr.messageMaxCost)
			c := Cost{Field: rp.Child("messageExpression").String(), Rule: cr.src.MessageExpression, Cost: cr.messageMaxCost, Cardinality: card}
			if cr.messageMaxCost > StaticCostLimit {
				// A messageExpression's cost is not multiplied: only what
				// it reads counts.
				c.Unbounded = ctx.unboundedPaths(cr.messageUnbounded, false)
			}
			ch.costs = append(ch.costs, c)
		}
		if cr.usesOldSelf {
			if forbidOldSelf != nil {
				ch.errs = append(ch.errs, crdschema.Invalid(rp.Child("rule"), s.XValidations[i].Rule, fmt.Sprintf("oldSelf cannot be used on the uncorrelatable portion of the schema within %v", forbidOldSelf)))
			}
		} else if s.XValidations[i].OptionalOldSelf != nil {
			ch.errs = append(ch.errs, crdschema.Invalid(rp.Child("optionalOldSelf"), *s.XValidations[i].OptionalOldSelf, "may not be set if oldSelf is not used in rule"))
		}
	}
}
