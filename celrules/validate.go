package celrules

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/pathstack"
	"github.com/crdschema/crdschema/ratchet"
)

// ValidateOption configures one call of Validate.
type ValidateOption func(*validateConfig)

type validateConfig struct {
	ratchet ratcheting
	// budget is the cost the rules may spend (WithBudget).
	budget int64
	// bounded allows a run without cost tracking (bounded.go).
	bounded bool
}

// WithBudget sets the cost the rules of one Validate call may spend. The
// default is RuntimeBudget, what the API server allows per object;
// validation stops with the API server's error when it runs out.
func WithBudget(budget int64) ValidateOption {
	return func(v *validateConfig) { v.budget = budget }
}

// A Result is the outcome of Validate.
type Result struct {
	// Errors are the failures of the rules, with the API server's types,
	// paths and texts.
	Errors crdschema.ErrorList
	// Warnings are the failures that ratcheting (WithRatcheting) keeps
	// from being errors, which the API server returns as warnings.
	Warnings crdschema.ErrorList
	// Remaining is the budget left: negative when it ran out and
	// validation stopped. With WithBoundedCost it may be less than the
	// budget less the cost spent (see WithBoundedCost).
	Remaining int64
}

// WithRatcheting turns validation ratcheting on: the failure of a rule
// that does not use oldSelf is not reported where c says the value is
// unchanged from the old object. c is the correlation of the validated
// value with its old value (ratchet.Correlate), the same that package
// validation takes.
func WithRatcheting(c *ratchet.Correlation) ValidateOption {
	return func(v *validateConfig) { v.ratchet.current = c }
}

// ratcheting is the ratcheting state at one node: the node's correlation
// and its nearest parent's.
type ratcheting struct {
	current, parent *ratchet.Correlation
}

func (r ratcheting) unchanged() bool {
	if r.current != nil {
		return r.current.Unchanged()
	}
	if r.parent != nil {
		return r.parent.Unchanged()
	}
	return false
}

func (r ratcheting) key(field string) ratcheting {
	if r.current == nil {
		return r
	}
	if r.parent == nil && (field == "apiVersion" || field == "kind") {
		return ratcheting{}
	}
	return ratcheting{current: r.current.Key(field), parent: r.current}
}

func (r ratcheting) index(i int) ratcheting {
	if r.current == nil {
		return r
	}
	return ratcheting{current: r.current.Index(i), parent: r.current}
}

const (
	budgetExhausted = "validation failed due to running out of cost budget, no further validation rules will be run"
)

// Validate evaluates the compiled rules against obj, the value at fldPath
// (usually the whole object), and, for transition rules, oldObj (nil on
// create), within the cost budget (WithBudget; RuntimeBudget by default).
// Validate does not modify obj or oldObj.
func (c *Compiled) Validate(ctx context.Context, fldPath *crdschema.Path, obj, oldObj any, opts ...ValidateOption) Result {
	vc := validateConfig{budget: RuntimeBudget}
	for _, o := range opts {
		if o != nil {
			o(&vc)
		}
	}
	budget := vc.budget
	if c == nil || c.root == nil {
		return Result{Remaining: budget}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	v := &run{ctx: ctx, loc: pathstack.New(fldPath), typeAsValue: c.release < 35, plainOptional: c.release < 37}
	defer v.loc.Release()
	if vc.bounded {
		if bound, ok := boundedRun(c.root, obj, oldObj, budget); ok {
			v.untracked = true
			v.node(c.root, obj, oldObj, vc.ratchet, budget)
			return Result{Errors: v.errs, Warnings: v.warnings, Remaining: budget - int64(bound)}
		}
	}
	remaining := v.node(c.root, obj, oldObj, vc.ratchet, budget)
	return Result{Errors: v.errs, Warnings: v.warnings, Remaining: remaining}
}

// run is one Validate call. It keeps the location of the value
// being validated as a stack, and builds its path only for an error.
type run struct {
	ctx context.Context
	// errs are the failures so far; warnings those ratcheting kept from
	// being errors.
	errs, warnings crdschema.ErrorList
	loc            pathstack.Stack
	// typeAsValue shows the type name as the value of a failed rule, as
	// releases before 1.35 do.
	typeAsValue bool
	// plainOptional makes the optional oldSelf hold its value as plain
	// JSON (maps and lists that know nothing of the schema), as releases
	// before 1.37 do: cel-go before v0.29 read an optional variable
	// through its native value.
	plainOptional bool
	// untracked runs the programs without cost tracking: the bounds proved
	// that no limit can be reached (bounded.go).
	untracked bool
	// acts are the activations of the node whose rules are evaluated
	// (see rules): with oldSelf as it is, and as an optional.
	acts [2]activation
}

// path returns the path of the value being validated.
func (v *run) path() *crdschema.Path { return v.loc.Path() }

func isNil(v any) bool {
	if v == nil {
		return true
	}
	switch rv := reflect.ValueOf(v); rv.Kind() {
	case reflect.Map, reflect.Pointer, reflect.Interface, reflect.Slice:
		return rv.IsNil()
	}
	return false
}

// node validates obj, and old, against the rules of n and below it,
// adding the failures to v.errs; it returns the budget left.
func (v *run) node(n *node, obj, old any, r ratcheting, budget int64) int64 {
	if n == nil || obj == nil {
		return budget
	}
	if budget = v.rules(n, obj, old, r, budget); budget < 0 {
		return budget
	}
	for _, a := range n.allOf {
		if budget = v.node(a, obj, old, ratcheting{parent: r.parent}, budget); budget < 0 {
			return budget
		}
	}
	switch x := obj.(type) {
	case []any:
		oldList, _ := old.([]any)
		return v.list(n, x, oldList, r, budget)
	case map[string]any:
		oldMap, _ := old.(map[string]any)
		return v.object(n, x, oldMap, r, budget)
	}
	return budget
}

// correlatableMap reports whether old values of a map's entries are
// passed to the entries' rules.
func correlatableMap(mapType *string) bool {
	return mapType == nil || *mapType == "granular" || *mapType == "atomic"
}

func (v *run) object(n *node, obj, old map[string]any, r ratcheting, budget int64) int64 {
	if budget < 0 {
		return budget
	}
	if !correlatableMap(n.schema.XMapType) {
		old = nil
	}
	// The API server visits an object's fields in Go's map order, so the
	// order of their errors, and which of them are reported once the
	// budget runs out, changes from call to call; a run visits them in key
	// order, one of the API server's orders, the same every time.
	if n.additional != nil {
		var buf [16]string
		keys := buf[:0]
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			v.loc.Key(k)
			budget = v.node(n.additional, obj[k], old[k], r.key(k), budget)
			v.loc.Pop()
			if budget < 0 {
				return budget
			}
		}
	}
	for _, k := range n.propKeys {
		val, ok := obj[k]
		if !ok {
			continue
		}
		v.loc.Child(k)
		budget = v.node(n.props[k], val, old[k], r.key(k), budget)
		v.loc.Pop()
		if budget < 0 {
			return budget
		}
	}
	return budget
}

func (v *run) list(n *node, obj, old []any, r ratcheting, budget int64) int64 {
	if budget < 0 || n.items == nil {
		return budget
	}
	olds := oldItems(n.schema, old)
	for i, item := range obj {
		v.loc.Index(i)
		budget = v.node(n.items, item, oldItem(olds, item), r.index(i), budget)
		v.loc.Pop()
		if budget < 0 {
			return budget
		}
	}
	return budget
}

// activation binds self and oldSelf (when not nil).
type activation struct {
	self, oldSelf ref.Val
}

func (a *activation) ResolveName(name string) (any, bool) {
	switch name {
	case selfVar:
		return a.self, true
	case oldSelfVar:
		return a.oldSelf, a.oldSelf != nil
	}
	return nil, false
}

func (a *activation) Parent() interpreter.Activation { return nil }

// ruleText is how errors name a rule: its message, else its text.
func ruleText(r crdschema.ValidationRule) string {
	if r.Message != "" {
		return strings.TrimSpace(r.Message)
	}
	return strings.TrimSpace(r.Rule)
}

func (v *run) rules(n *node, obj, old any, r ratcheting, budget int64) int64 {
	if isNil(old) {
		old = nil
	}
	typ := n.schema.Type
	n.ready()
	if n.compileErr != nil {
		v.errs = append(v.errs, crdschema.Invalid(v.path(), typ, fmt.Sprintf("rule compiler initialization error: %v", n.compileErr)))
		return budget
	}
	if len(n.rules) == 0 {
		return budget
	}
	if budget <= 0 {
		v.errs = append(v.errs, crdschema.Invalid(v.path(), typ, budgetExhausted))
		return -1
	}
	// The rules of one node are evaluated before those of the next: the
	// run's activations serve every node in turn.
	act := &v.acts[0]
	*act = activation{self: toVal(obj, n.vs)}
	optAct := act
	if n.usesOldSelf {
		optAct = &v.acts[1]
		*optAct = activation{self: act.self, oldSelf: types.OptionalNone}
		if old != nil {
			act.oldSelf = toVal(old, n.vs)
			optAct.oldSelf = types.OptionalOf(act.oldSelf)
			if v.plainOptional {
				optAct.oldSelf = types.OptionalOf(types.DefaultTypeAdapter.NativeToValue(act.oldSelf.Value()))
			}
		}
	}
	for _, cr := range n.rules {
		rule := cr.src
		if cr.rule.err != "" {
			v.errs = append(v.errs, crdschema.Invalid(v.path(), typ, fmt.Sprintf("rule compile error: %v", cr.rule.err)))
			continue
		}
		if !cr.rule.compiled {
			continue // an empty rule
		}
		optional := rule.OptionalOldSelf != nil && *rule.OptionalOldSelf
		if cr.usesOldSelf && old == nil && !optional {
			continue
		}
		ruleAct := act
		if optional {
			ruleAct = optAct
		}
		var result ref.Val
		var err error
		if v.untracked {
			result, _, err = evalProgram(v.ctx, cr.boundsOf().program, ruleAct)
		} else {
			var fatal *crdschema.Error
			if result, budget, fatal, err = v.evalTracked(cr, ruleAct, typ, budget); fatal != nil {
				v.errs = append(v.errs, fatal)
				return -1
			}
		}
		if err != nil {
			msg := err.Error()
			switch {
			case strings.HasPrefix(msg, "no such overload"):
				v.errs = append(v.errs, crdschema.Invalid(v.path(), typ, fmt.Sprintf("'%v': call arguments did not match a supported operator, function or macro signature for rule: %v", err, ruleText(rule))))
			case strings.HasPrefix(msg, "operation cancelled: actual cost limit exceeded"):
				v.errs = append(v.errs, crdschema.Invalid(v.path(), typ, fmt.Sprintf("'%v': no further validation rules will be run due to call cost exceeds limit for rule: %v", err, ruleText(rule))))
				return -1
			default:
				v.errs = append(v.errs, crdschema.Invalid(v.path(), typ, fmt.Sprintf("%v evaluating rule: %v", err, ruleText(rule))))
			}
			continue
		}
		if result == types.True {
			continue
		}
		at := v.path()
		if cr.fieldPath != "" {
			at = at.Child(cr.fieldPath)
		}
		add := func(e *crdschema.Error) {
			if !cr.usesOldSelf && r.unchanged() {
				v.warnings = append(v.warnings, e)
				return
			}
			v.errs = append(v.errs, e)
		}
		detail := ""
		if cr.message.compiled {
			var prog cel.Program
			var perr error
			if v.untracked {
				prog = cr.boundsOf().message
			} else if prog, perr = cr.trackedProgram(true); perr != nil {
				add(crdschema.InternalError(at, fmt.Errorf("messageExpression instantiation failed: %w", perr)))
				return -1
			}
			var fatal *crdschema.Error
			if detail, budget, fatal = v.message(prog, rule.MessageExpression, act, budget, at, typ); fatal != nil {
				add(fatal)
				return -1
			}
		}
		if detail == "" {
			detail = ruleText(rule)
			if rule.Message == "" {
				detail = "failed rule: " + detail
			}
		}
		var value any = obj
		switch {
		case v.typeAsValue:
			value = typ
		case typ == "object" || typ == "array":
			value = jsonvalue.Omitted{}
		}
		add(errorForReason(at, value, detail, rule.Reason))
	}
	return budget
}

// evalTracked evaluates a rule with cost tracking and charges its cost to
// budget. An error that stops validation is returned as fatal.
func (v *run) evalTracked(cr *compiledRule, act interpreter.Activation, typ string, budget int64) (_ ref.Val, _ int64, fatal *crdschema.Error, _ error) {
	rule := cr.src
	prog, err := cr.trackedProgram(false)
	if err != nil {
		return nil, -1, crdschema.InternalError(v.path(), fmt.Errorf("program instantiation failed for validation rule: %v: %w", ruleText(rule), err)), nil
	}
	result, details, err := evalProgram(v.ctx, prog, act)
	if details == nil {
		return nil, -1, crdschema.InternalError(v.path(), fmt.Errorf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleText(rule))), nil
	}
	cost := details.ActualCost()
	if cost == nil {
		return nil, -1, crdschema.Invalid(v.path(), typ, fmt.Sprintf("runtime cost could not be calculated for validation rule: %v, no further validation rules will be run", ruleText(rule))), nil
	}
	if *cost > math.MaxInt64 || int64(*cost) > budget {
		return nil, -1, crdschema.Invalid(v.path(), typ, budgetExhausted), nil
	}
	return result, budget - int64(*cost), nil, err
}

// evalProgram evaluates prog, turning a panic inside CEL into an error.
func evalProgram(ctx context.Context, prog cel.Program, act interpreter.Activation) (val ref.Val, det *cel.EvalDetails, err error) {
	defer func() {
		if p := recover(); p != nil {
			val, err = nil, fmt.Errorf("internal error: %v", p)
		}
	}()
	if ctx.Done() == nil {
		// A context that cannot be cancelled needs no interrupt checks;
		// ContextEval would allocate a cancellable context per call.
		return prog.Eval(act)
	}
	return prog.ContextEval(ctx, act)
}

func errorForReason(p *crdschema.Path, value any, detail string, reason *crdschema.ErrorType) *crdschema.Error {
	if reason == nil {
		return crdschema.Invalid(p, value, detail)
	}
	switch *reason {
	case crdschema.ErrorTypeForbidden:
		return crdschema.Forbidden(p, detail)
	case crdschema.ErrorTypeRequired:
		return crdschema.Required(p, detail)
	case crdschema.ErrorTypeDuplicate:
		return crdschema.Duplicate(p, value)
	}
	return crdschema.Invalid(p, value, detail)
}

// message evaluates the messageExpression of a rule that failed at the
// path at. It returns the message, or "" where the API server logs why and
// uses the rule's message (or the default) instead: the evaluation failed,
// or its result is not a string, is longer than maxMessageExpressionSize,
// has a line break or is empty. An error that stops validation is
// returned as fatal.
func (v *run) message(prog cel.Program, src string, act interpreter.Activation, budget int64, at *crdschema.Path, typ string) (_ string, _ int64, fatal *crdschema.Error) {
	result, details, err := evalProgram(v.ctx, prog, act)
	if !v.untracked {
		if details == nil || details.ActualCost() == nil {
			return "", -1, crdschema.InternalError(at, fmt.Errorf("runtime cost could not be calculated for messageExpression: %q", src))
		}
		cost := *details.ActualCost()
		if cost > math.MaxInt64 || int64(cost) > budget {
			return "", -1, crdschema.Invalid(at, typ, "messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run")
		}
		budget -= int64(cost)
	}
	if err != nil {
		if strings.HasPrefix(err.Error(), "operation cancelled: actual cost limit exceeded") {
			return "", -1, crdschema.Invalid(at, typ, fmt.Sprintf("no further validation rules will be run due to call cost exceeds limit for messageExpression: %q", src))
		}
		return "", budget, nil
	}
	s, _ := result.Value().(string)
	if s = strings.TrimSpace(s); len(s) > maxMessageExpressionSize || strings.Contains(s, "\n") {
		return "", budget, nil
	}
	return s, budget, nil
}
