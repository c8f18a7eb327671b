package celparse

import (
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/parser"
)

// ids allocates expression IDs and records their source offsets the way
// cel-go's parser does (parser/helper.go): IDs count up from 1 in the
// order cel-go's visitor asks for them, each with the offset range of
// the token or rule it stands for, in code points; an ID given up after
// a macro expansion leaves a gap, unless it was the last one.
type ids struct {
	fac    ast.ExprFactory
	info   *ast.SourceInfo
	nextID int64
}

// id allocates an ID for the range [start, stop).
func (h *ids) id(start, stop int32) int64 {
	id := h.nextID
	h.info.SetOffsetRange(id, ast.OffsetRange{Start: start, Stop: stop})
	h.nextID++
	return id
}

// tok allocates an ID for a token: cel-go's range of a token is its
// start and its start plus its length in bytes.
func (h *ids) tok(t token) int64 {
	return h.id(t.off, t.off+(t.end-t.pos))
}

// deleteID gives up an ID, as cel-go does for the call a macro replaced.
func (h *ids) deleteID(id int64) {
	h.info.ClearOffsetRange(id)
	if id == h.nextID-1 {
		h.nextID--
	}
}

// macroOffset returns the offset of the IDs a macro expansion of the call
// id allocates: cel-go takes the start location (line and column) of the
// call and turns it back into an offset. This is the arithmetic of
// ast.SourceInfo's GetLocationByOffset and ComputeOffsetAbsolute, without
// the Location they allocate.
func (h *ids) macroOffset(id int64) int32 {
	r, ok := h.info.GetOffsetRange(id)
	if !ok {
		return -1
	}
	lines := h.info.LineOffsets()
	line, col := int32(1), r.Start
	for _, lo := range lines {
		if lo > r.Start {
			break
		}
		line++
		col = r.Start - lo
	}
	switch {
	case line == 1:
		return col
	case line > int32(len(lines)):
		return -1
	}
	return lines[line-2] + col
}

// exprHelper is the parser.ExprHelper given to macro expanders: every
// expression it makes gets a new ID at the offset of the call the macro
// expands (cel-go's exprHelper).
type exprHelper struct {
	h *ids
	// id is the ID of the call being expanded, off its offset.
	id  int64
	off int32
}

var _ parser.ExprHelper = (*exprHelper)(nil)

func (e *exprHelper) nextID() int64 { return e.h.id(e.off, e.off) }

// Copy copies expr with new IDs, each at the offset range of the ID it
// replaces; map entries and struct fields get IDs at the call's offset.
func (e *exprHelper) Copy(expr ast.Expr) ast.Expr {
	r, _ := e.h.info.GetOffsetRange(expr.ID())
	id := e.h.id(r.Start, r.Stop)
	fac := e.h.fac
	switch expr.Kind() {
	case ast.LiteralKind:
		return fac.NewLiteral(id, expr.AsLiteral())
	case ast.IdentKind:
		return fac.NewIdent(id, expr.AsIdent())
	case ast.SelectKind:
		sel := expr.AsSelect()
		op := e.Copy(sel.Operand())
		if sel.IsTestOnly() {
			return fac.NewPresenceTest(id, op, sel.FieldName())
		}
		return fac.NewSelect(id, op, sel.FieldName())
	case ast.CallKind:
		call := expr.AsCall()
		args := make([]ast.Expr, len(call.Args()))
		for i, a := range call.Args() {
			args[i] = e.Copy(a)
		}
		if !call.IsMemberFunction() {
			return fac.NewCall(id, call.FunctionName(), args...)
		}
		return fac.NewMemberCall(id, call.FunctionName(), e.Copy(call.Target()), args...)
	case ast.ListKind:
		list := expr.AsList()
		elems := make([]ast.Expr, len(list.Elements()))
		for i, el := range list.Elements() {
			elems[i] = e.Copy(el)
		}
		return fac.NewList(id, elems, list.OptionalIndices())
	case ast.MapKind:
		m := expr.AsMap()
		entries := make([]ast.EntryExpr, len(m.Entries()))
		for i, en := range m.Entries() {
			entry := en.AsMapEntry()
			entryID := e.nextID()
			entries[i] = fac.NewMapEntry(entryID, e.Copy(entry.Key()), e.Copy(entry.Value()), entry.IsOptional())
		}
		return fac.NewMap(id, entries)
	case ast.StructKind:
		s := expr.AsStruct()
		fields := make([]ast.EntryExpr, len(s.Fields()))
		for i, f := range s.Fields() {
			field := f.AsStructField()
			fieldID := e.nextID()
			fields[i] = fac.NewStructField(fieldID, field.Name(), e.Copy(field.Value()), field.IsOptional())
		}
		return fac.NewStruct(id, s.TypeName(), fields)
	case ast.ComprehensionKind:
		c := expr.AsComprehension()
		iterRange := e.Copy(c.IterRange())
		accuInit := e.Copy(c.AccuInit())
		cond := e.Copy(c.LoopCondition())
		step := e.Copy(c.LoopStep())
		result := e.Copy(c.Result())
		return fac.NewComprehensionTwoVar(id, iterRange, c.IterVar(), c.IterVar2(), c.AccuVar(), accuInit, cond, step, result)
	}
	return fac.NewUnspecifiedExpr(id)
}

// NewLiteral implements parser.ExprHelper.
func (e *exprHelper) NewLiteral(value ref.Val) ast.Expr {
	return e.h.fac.NewLiteral(e.nextID(), value)
}

// NewList implements parser.ExprHelper.
func (e *exprHelper) NewList(elems ...ast.Expr) ast.Expr {
	return e.h.fac.NewList(e.nextID(), elems, []int32{})
}

// NewMap implements parser.ExprHelper.
func (e *exprHelper) NewMap(entries ...ast.EntryExpr) ast.Expr {
	return e.h.fac.NewMap(e.nextID(), entries)
}

// NewMapEntry implements parser.ExprHelper.
func (e *exprHelper) NewMapEntry(key, val ast.Expr, optional bool) ast.EntryExpr {
	return e.h.fac.NewMapEntry(e.nextID(), key, val, optional)
}

// NewStruct implements parser.ExprHelper.
func (e *exprHelper) NewStruct(typeName string, fields ...ast.EntryExpr) ast.Expr {
	return e.h.fac.NewStruct(e.nextID(), typeName, fields)
}

// NewStructField implements parser.ExprHelper.
func (e *exprHelper) NewStructField(field string, init ast.Expr, optional bool) ast.EntryExpr {
	return e.h.fac.NewStructField(e.nextID(), field, init, optional)
}

// NewComprehension implements parser.ExprHelper.
func (e *exprHelper) NewComprehension(iterRange ast.Expr, iterVar, accuVar string, accuInit, condition, step, result ast.Expr) ast.Expr {
	return e.h.fac.NewComprehension(e.nextID(), iterRange, iterVar, accuVar, accuInit, condition, step, result)
}

// NewComprehensionTwoVar implements parser.ExprHelper.
func (e *exprHelper) NewComprehensionTwoVar(iterRange ast.Expr, iterVar, iterVar2, accuVar string, accuInit, condition, step, result ast.Expr) ast.Expr {
	return e.h.fac.NewComprehensionTwoVar(e.nextID(), iterRange, iterVar, iterVar2, accuVar, accuInit, condition, step, result)
}

// NewIdent implements parser.ExprHelper.
func (e *exprHelper) NewIdent(name string) ast.Expr {
	return e.h.fac.NewIdent(e.nextID(), name)
}

// NewAccuIdent implements parser.ExprHelper.
func (e *exprHelper) NewAccuIdent() ast.Expr {
	return e.h.fac.NewAccuIdent(e.nextID())
}

// AccuIdentName implements parser.ExprHelper.
func (e *exprHelper) AccuIdentName() string {
	return e.h.fac.AccuIdentName()
}

// NewCall implements parser.ExprHelper.
func (e *exprHelper) NewCall(function string, args ...ast.Expr) ast.Expr {
	return e.h.fac.NewCall(e.nextID(), function, args...)
}

// NewMemberCall implements parser.ExprHelper.
func (e *exprHelper) NewMemberCall(function string, target ast.Expr, args ...ast.Expr) ast.Expr {
	return e.h.fac.NewMemberCall(e.nextID(), function, target, args...)
}

// NewPresenceTest implements parser.ExprHelper.
func (e *exprHelper) NewPresenceTest(operand ast.Expr, field string) ast.Expr {
	return e.h.fac.NewPresenceTest(e.nextID(), operand, field)
}

// NewSelect implements parser.ExprHelper.
func (e *exprHelper) NewSelect(operand ast.Expr, field string) ast.Expr {
	return e.h.fac.NewSelect(e.nextID(), operand, field)
}

// OffsetLocation implements parser.ExprHelper.
func (e *exprHelper) OffsetLocation(exprID int64) common.Location {
	return e.h.info.GetStartLocation(exprID)
}

// NewError implements parser.ExprHelper. An error of a macro makes the
// parse fall back to cel-go's parser, which reports it.
func (e *exprHelper) NewError(exprID int64, message string) *common.Error {
	return common.NewError(exprID, message, e.OffsetLocation(exprID))
}
