package celparse

import (
	"reflect"
	"unsafe"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"google.golang.org/protobuf/proto"

	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
)

// celAst has the layout of cel.Ast, whose fields are unexported: the
// source of the text and the AST. env.Parse returns
// &cel.Ast{source, impl}; toCelAst makes the same value.
type celAst struct {
	source common.Source
	impl   *ast.AST
}

// sameLayout tells whether cel.Ast is laid out as celAst, checked once:
// the same fields with the same names, types and offsets, and nothing
// else.
var sameLayout = layoutMatches(reflect.TypeFor[cel.Ast](), reflect.TypeFor[celAst]())

func layoutMatches(got, want reflect.Type) bool {
	if got.Kind() != reflect.Struct || got.NumField() != want.NumField() || got.Size() != want.Size() {
		return false
	}
	for i := range want.NumField() {
		g, w := got.Field(i), want.Field(i)
		if g.Name != w.Name || g.Type != w.Type || g.Offset != w.Offset {
			return false
		}
	}
	return true
}

// toCelAst wraps an AST and its source as a *cel.Ast.
//
// Two ways were measured (BenchmarkToCelAst, on the "long" rule of
// BenchmarkParse, which the parser parses in about 20µs). The layout
// conversion, a pointer to a celAst taken as a *cel.Ast, costs about
// 100ns and one allocation and loses nothing (offset ranges keep their
// ends). The way through protobuf (ast.ExprToProto, then
// cel.ParsedExprToAstWithSource) costs about 130µs and 475 allocations —
// more than cel-go's own parse of short rules, so it would undo the gain —
// and keeps only the starts of offset ranges. So the layout conversion is
// taken while sameLayout holds; a cel-go whose Ast has changed gets the
// protobuf way, slower but right for everything type-checking reads.
func toCelAst(src common.Source, a *ast.AST) (*cel.Ast, bool) {
	if sameLayout {
		return (*cel.Ast)(unsafe.Pointer(&celAst{source: src, impl: a})), true
	}
	return viaProto(src, a)
}

// viaProto is toCelAst's way through the protobuf form.
func viaProto(src common.Source, a *ast.AST) (*cel.Ast, bool) {
	e, err := ast.ExprToProto(a.Expr())
	if err != nil {
		return nil, false
	}
	info, err := ast.SourceInfoToProto(a.SourceInfo())
	if err != nil {
		return nil, false
	}
	return cel.ParsedExprToAstWithSource(&exprpb.ParsedExpr{Expr: e, SourceInfo: info}, src), true
}

// equalAST tells whether two ASTs are the same: the same expressions and
// source information in their protobuf form, and the same offset ranges.
func equalAST(a, b *ast.AST) bool {
	ea, err1 := ast.ExprToProto(a.Expr())
	eb, err2 := ast.ExprToProto(b.Expr())
	ia, err3 := ast.SourceInfoToProto(a.SourceInfo())
	ib, err4 := ast.SourceInfoToProto(b.SourceInfo())
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil {
		return false
	}
	return proto.Equal(ea, eb) && proto.Equal(ia, ib) &&
		reflect.DeepEqual(a.SourceInfo().OffsetRanges(), b.SourceInfo().OffsetRanges())
}
