package celrules

import (
	"regexp"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
)

// plainFunctions are the standard functions and operators whose every
// overload has a runtime implementation and which no planner optimization
// evaluates ahead of time: planning a call to one of them cannot fail.
// Type conversions (folded when their argument is a constant), regular
// expression functions (whose constant patterns are compiled when the
// program is planned), indexing, optional selection and the functions of
// the Kubernetes libraries are left out on purpose.
var plainFunctions = map[string]bool{
	"_&&_": true, "_||_": true, "!_": true, "_?_:_": true, "@not_strictly_false": true,
	"_==_": true, "_!=_": true, "_<_": true, "_<=_": true, "_>_": true, "_>=_": true,
	"_+_": true, "_-_": true, "_*_": true, "_/_": true, "_%_": true, "-_": true,
	"@in": true, "size": true, "startsWith": true, "endsWith": true, "contains": true,
}

// regexFunctions are the functions whose constant patterns the planner
// compiles (see cellib.Regex and cel-go's matches optimization): planning
// a call fails exactly when its pattern is a constant that does not compile.
var regexFunctions = map[string]bool{"matches": true, "find": true, "findAll": true}

// conversionFunctions are the type conversions the planner evaluates ahead
// of time when their argument is a constant: planning fails if that
// evaluation does.
var conversionFunctions = map[string]bool{
	"bool": true, "bytes": true, "double": true, "duration": true, "dyn": true,
	"int": true, "string": true, "timestamp": true, "type": true, "uint": true,
}

// plansSafely reports whether creating a program for the checked
// expression a is certain to succeed, so that CRD validation, which only
// needs to know whether the program could be created, may skip creating
// it. It answers false for anything it is not sure of: such expressions
// get a program, and its failure is reported as before.
func plansSafely(a *cel.Ast) bool {
	if a == nil || !a.IsChecked() {
		return false
	}
	native := a.NativeRep()
	if native.SourceInfo().HasExtension("json_name", ast.NewExtensionVersion(1, 1)) {
		return false
	}
	p := &planProbe{refs: native.ReferenceMap(), types: native.TypeMap()}
	return !anyExpr(native.Expr(), p.mayFail, 0)
}

// planProbe looks at the nodes of a checked expression for plansSafely.
type planProbe struct {
	refs  map[int64]*ast.ReferenceInfo
	types map[int64]*types.Type
}

// resolvedName reports whether the identifier or select e, which the
// checker resolved to ref, is planned without a lookup that could fail: a
// variable (not a type name).
func (p *planProbe) resolvedName(e ast.Expr, ref *ast.ReferenceInfo) bool {
	if ref.Value != nil || len(ref.OverloadIDs) > 0 {
		return false
	}
	t, ok := p.types[e.ID()]
	return ok && t != nil && t.Kind() != types.TypeKind
}

// mayFail reports whether planning the node e, the nodes below it aside,
// might fail.
func (p *planProbe) mayFail(e ast.Expr) bool {
	switch e.Kind() {
	case ast.LiteralKind, ast.ComprehensionKind:
		return false
	case ast.IdentKind:
		ref, found := p.refs[e.ID()]
		return !found || !p.resolvedName(e, ref)
	case ast.SelectKind:
		// A select the checker resolved is a qualified name: a type or a
		// constant (no variable of these environments has a dot in its
		// name). Other selects read a field.
		_, resolved := p.refs[e.ID()]
		return resolved
	case ast.CallKind:
		call := e.AsCall()
		switch name := call.FunctionName(); {
		case plainFunctions[name]:
			return false
		case regexFunctions[name]:
			return !p.patternPlans(call)
		case conversionFunctions[name] && name != "type":
			return call.IsMemberFunction() || len(call.Args()) != 1 || mayBeConstant(call.Args()[0])
		}
	case ast.ListKind:
		return len(e.AsList().OptionalIndices()) != 0
	case ast.MapKind:
		for _, entry := range e.AsMap().Entries() {
			if entry.Kind() != ast.MapEntryKind || entry.AsMapEntry().IsOptional() {
				return true
			}
		}
		return false
	}
	return true
}

// patternPlans reports whether planning the regular expression function
// call cannot fail on its pattern: the pattern is not a constant, or a
// literal that compiles (with regexp.Compile, as the planner does).
func (p *planProbe) patternPlans(call ast.CallExpr) bool {
	// The pattern is the second operand, the receiver counting as the
	// first.
	args := call.Args()
	i := 1
	if call.IsMemberFunction() {
		i = 0
	}
	if i >= len(args) {
		return false
	}
	pattern := args[i]
	if pattern.Kind() == ast.LiteralKind {
		s, ok := pattern.AsLiteral().(types.String)
		if !ok {
			return false
		}
		_, err := regexp.Compile(string(s))
		return err == nil
	}
	return !mayBeConstant(pattern)
}

// mayBeConstant reports whether the planner might fold e into a constant:
// literals, list and map literals, and type conversions.
func mayBeConstant(e ast.Expr) bool {
	switch e.Kind() {
	case ast.LiteralKind, ast.ListKind, ast.MapKind:
		return true
	case ast.CallKind:
		return conversionFunctions[e.AsCall().FunctionName()]
	}
	return false
}
