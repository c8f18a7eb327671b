package cellib

import (
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
)

func BenchmarkParseQuantity(b *testing.B) {
	for _, in := range []string{"500Mi", "1.5", "100m", "123456789012345678901234567890"} {
		b.Run(in, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parseQuantity(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkCompareQuantity(b *testing.B) {
	for _, pair := range [][2]string{{"500Mi", "1Gi"}, {"1.5", "1500m"}, {"1Ei", "2Ei"}, {"1e4096", "1"}} {
		x, _ := parseQuantity(pair[0])
		y, _ := parseQuantity(pair[1])
		b.Run(pair[0]+"_vs_"+pair[1], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				x.cmp(&y)
			}
		})
	}
}

// BenchmarkQuantityRule evaluates a typical CRD rule on a compiled program.
func BenchmarkQuantityRule(b *testing.B) {
	env, err := cel.NewEnv(Quantity(), cel.Variable("self", cel.StringType))
	if err != nil {
		b.Fatal(err)
	}
	ast, iss := env.Compile(`quantity(self).isLessThan(quantity("1Gi"))`)
	if iss.Err() != nil {
		b.Fatal(iss.Err())
	}
	prg, err := env.Program(ast, cel.EvalOptions(cel.OptOptimize), cel.CostTracking(&CostEstimator{}))
	if err != nil {
		b.Fatal(err)
	}
	vars := map[string]any{"self": "512Mi"}
	b.ReportAllocs()
	for b.Loop() {
		if out, _, err := prg.Eval(vars); err != nil || out != types.True {
			b.Fatal(out, err)
		}
	}
}
