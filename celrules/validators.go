package celrules

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/overloads"
)

// The API server's environments check every type-checked expression with
// cel-go's AST validators: literal arguments of duration(), timestamp()
// and matches(), and homogeneous list and map literals. Each of cel-go's
// validators builds a navigable copy of the whole AST before it looks for
// what it checks, which costs as much as a tenth of compiling a rule.
// Almost no rule has anything for most of them to check, so each is
// wrapped: a walk that allocates nothing looks for what the validator
// checks, and only an AST that has it is given to cel-go's validator. The
// wrapper has the validator's name and takes its place in the
// environment's list, so the issues and their order are cel-go's.

// sparseValidator runs inner only on ASTs where needs finds a node.
type sparseValidator struct {
	inner cel.ASTValidator
	needs func(ast.Expr) bool
}

func (v sparseValidator) Name() string { return v.inner.Name() }

func (v sparseValidator) Validate(e *cel.Env, c cel.ValidatorConfig, a *ast.AST, iss *cel.Issues) {
	if anyExpr(a.Expr(), v.needs, 0) {
		v.inner.Validate(e, c, a, iss)
	}
}

// literalArgValidator wraps one of cel-go's validators of the literal
// first argument of calls to function.
func literalArgValidator(inner cel.ASTValidator, function string) cel.ASTValidator {
	return sparseValidator{inner: inner, needs: func(e ast.Expr) bool {
		if e.Kind() != ast.CallKind {
			return false
		}
		call := e.AsCall()
		return call.FunctionName() == function && len(call.Args()) > 0 && call.Args()[0].Kind() == ast.LiteralKind
	}}
}

// homogeneousLiterals wraps cel-go's check of list and map literals.
func homogeneousLiterals() cel.ASTValidator {
	return sparseValidator{inner: cel.ValidateHomogeneousAggregateLiterals(), needs: func(e ast.Expr) bool {
		k := e.Kind()
		return k == ast.ListKind || k == ast.MapKind
	}}
}

// extendedValidators are cel.ExtendedValidations' validators, wrapped, in
// its order.
func extendedValidators() cel.EnvOption {
	return cel.ASTValidators(
		literalArgValidator(cel.ValidateDurationLiterals(), overloads.TypeConvertDuration),
		literalArgValidator(cel.ValidateTimestampLiterals(), overloads.TypeConvertTimestamp),
		literalArgValidator(cel.ValidateRegexLiterals(), overloads.Matches),
		homogeneousLiterals(),
	)
}

// maxWalkDepth bounds anyExpr's recursion; deeper ASTs are handed to the
// validator (the parser refuses far shallower ones).
const maxWalkDepth = 1000

// anyExpr reports whether pred holds for e or an expression below it.
func anyExpr(e ast.Expr, pred func(ast.Expr) bool, depth int) bool {
	if e == nil {
		return false
	}
	if depth > maxWalkDepth || pred(e) {
		return true
	}
	depth++
	switch e.Kind() {
	case ast.CallKind:
		c := e.AsCall()
		if c.IsMemberFunction() && anyExpr(c.Target(), pred, depth) {
			return true
		}
		for _, a := range c.Args() {
			if anyExpr(a, pred, depth) {
				return true
			}
		}
	case ast.ListKind:
		for _, el := range e.AsList().Elements() {
			if anyExpr(el, pred, depth) {
				return true
			}
		}
	case ast.MapKind:
		for _, en := range e.AsMap().Entries() {
			me := en.AsMapEntry()
			if anyExpr(me.Key(), pred, depth) || anyExpr(me.Value(), pred, depth) {
				return true
			}
		}
	case ast.StructKind:
		for _, f := range e.AsStruct().Fields() {
			if anyExpr(f.AsStructField().Value(), pred, depth) {
				return true
			}
		}
	case ast.SelectKind:
		return anyExpr(e.AsSelect().Operand(), pred, depth)
	case ast.ComprehensionKind:
		c := e.AsComprehension()
		return anyExpr(c.IterRange(), pred, depth) || anyExpr(c.AccuInit(), pred, depth) ||
			anyExpr(c.LoopCondition(), pred, depth) || anyExpr(c.LoopStep(), pred, depth) ||
			anyExpr(c.Result(), pred, depth)
	}
	return false
}
