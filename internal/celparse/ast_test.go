package celparse

import (
	"reflect"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"google.golang.org/protobuf/proto"
)

// TestLayoutGuard checks the guard of the layout conversion: it holds for
// the cel-go this module builds with, and fails for layouts that differ
// in a field's name, type or position, or in the number of fields.
func TestLayoutGuard(t *testing.T) {
	if !sameLayout {
		t.Fatal("cel.Ast is not laid out as celAst: every parse takes the slower way through protobuf; update celAst")
	}
	type renamed struct {
		src  common.Source
		impl *ast.AST
	}
	type swapped struct {
		impl   *ast.AST
		source common.Source
	}
	type retyped struct {
		source any
		impl   *ast.AST
	}
	type extra struct {
		source common.Source
		impl   *ast.AST
		more   int
	}
	want := reflect.TypeFor[celAst]()
	for _, typ := range []reflect.Type{reflect.TypeFor[renamed](), reflect.TypeFor[swapped](), reflect.TypeFor[retyped](), reflect.TypeFor[extra](), reflect.TypeFor[int]()} {
		if layoutMatches(typ, want) {
			t.Errorf("the guard accepts %v", typ)
		}
	}
	if !layoutMatches(reflect.TypeFor[cel.Ast](), want) {
		t.Error("the guard rejects cel.Ast")
	}
}

// TestViaProto checks the conversion the guard falls back to: the same
// parsed protobuf and the same checked result as cel-go's.
func TestViaProto(t *testing.T) {
	te := testEnvs()[4]
	for _, text := range append(append([]string{}, edgeCases...), loadTexts(t, "celgo_parser_inputs.json")...) {
		direct, ok := te.parser.Parse(text)
		if !ok {
			continue
		}
		a, ok := viaProto(direct.Source(), direct.NativeRep())
		if !ok {
			t.Fatalf("%q: no conversion", text)
		}
		want, iss := te.env.Parse(text)
		if iss.Err() != nil {
			t.Fatalf("%q: cel-go fails: %v", text, iss.Err())
		}
		pg, _ := cel.AstToParsedExpr(a)
		pw, _ := cel.AstToParsedExpr(want)
		if !proto.Equal(pg, pw) {
			t.Errorf("%q: differs from cel-go's", text)
		}
		_, ig := te.env.Check(a)
		_, iw := te.env.Check(want)
		if ig.String() != iw.String() {
			t.Errorf("%q: issues differ:\n got %s\nwant %s", text, ig, iw)
		}
	}
}
