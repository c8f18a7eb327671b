package celparse

import (
	"testing"

	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
)

// benchRules are typical rules of real CRDs.
var benchRules = map[string]string{
	"short":  "self.minReplicas <= self.maxReplicas",
	"has":    "!has(self.spec) || self.spec.size() > 0 && self.spec.matches('^[a-z]+$')",
	"macros": "self.all(x, x.name != '' && x.values.exists(v, v in ['a', 'b', 'c']))",
	"long": `self.requirements.filter(r, r.key == 'karpenter.sh/capacity-type').all(r, r.operator == 'In' ? r.values.size() > 0 : true) && ` +
		`(!has(self.limits) || self.limits.cpu.matches('^[0-9]+m?$')) && self.taints.map(t, t.key).exists_one(k, k.startsWith('node.'))`,
}

// BenchmarkParse compares the parser with cel-go's env.Parse.
func BenchmarkParse(b *testing.B) {
	te := testEnvs()[4]
	for name, text := range benchRules {
		if _, ok := te.parser.Parse(text); !ok {
			b.Fatalf("%s: the parser declines", name)
		}
		b.Run(name+"/celparse", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				te.parser.Parse(text)
			}
		})
		b.Run(name+"/cel-go", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				te.env.Parse(text)
			}
		})
	}
}

// BenchmarkToCelAst compares the two ways of making a *cel.Ast of a
// parsed AST: the layout conversion and the way through protobuf.
func BenchmarkToCelAst(b *testing.B) {
	te := testEnvs()[4]
	a, ok := te.parser.Parse(benchRules["long"])
	if !ok {
		b.Fatal("the parser declines")
	}
	src := common.NewTextSource(benchRules["long"])
	impl := a.NativeRep()
	b.Run("layout", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			toCelAst(src, impl)
		}
	})
	b.Run("proto", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			viaProto(src, impl)
		}
	})
	_ = ast.NewAST
}
