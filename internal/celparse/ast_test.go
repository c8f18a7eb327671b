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
	src, impl := reflect.TypeFor[common.Source](), reflect.TypeFor[*ast.AST]()
	field := func(name string, typ reflect.Type) reflect.StructField {
		return reflect.StructField{Name: name, Type: typ, PkgPath: "github.com/crdschema/crdschema/internal/celparse"}
	}
	renamed := reflect.StructOf([]reflect.StructField{field("src", src), field("impl", impl)})
	swapped := reflect.StructOf([]reflect.StructField{field("impl", impl), field("source", src)})
	retyped := reflect.StructOf([]reflect.StructField{field("source", reflect.TypeFor[any]()), field("impl", impl)})
	extra := reflect.StructOf([]reflect.StructField{field("source", src), field("impl", impl), field("more", reflect.TypeFor[int]())})
	same := reflect.StructOf([]reflect.StructField{field("source", src), field("impl", impl)})
	if !layoutMatches(same, reflect.TypeFor[celAst]()) {
		t.Error("the guard rejects a struct of the same layout")
	}
	want := reflect.TypeFor[celAst]()
	for _, typ := range []reflect.Type{renamed, swapped, retyped, extra, reflect.TypeFor[int]()} {
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
