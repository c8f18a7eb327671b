package cellib_test

import (
	"fmt"

	"github.com/google/cel-go/cel"

	"github.com/crdschema/crdschema/internal/cellib"
)

// Example compiles a rule that uses the quantity and IP libraries, prices
// it, and evaluates it with runtime cost tracking.
func Example() {
	env, err := cel.NewEnv(
		cellib.Quantity(), cellib.IP(), cellib.CIDR(),
		cel.Variable("memory", cel.StringType),
		cel.Variable("addr", cel.StringType),
	)
	if err != nil {
		panic(err)
	}
	ast, iss := env.Compile(`quantity(memory).isLessThan(quantity("1Gi")) && cidr("10.0.0.0/8").containsIP(addr)`)
	if iss.Err() != nil {
		panic(iss.Err())
	}
	estimator := &cellib.CostEstimator{}
	est, err := env.EstimateCost(ast, estimator)
	if err != nil {
		panic(err)
	}
	fmt.Println("estimated cost:", est.Min, "to", est.Max)

	prg, err := env.Program(ast, cel.CostTracking(estimator))
	if err != nil {
		panic(err)
	}
	for _, in := range []map[string]any{
		{"memory": "512Mi", "addr": "10.1.2.3"},
		{"memory": "2G", "addr": "10.1.2.3"},
		{"memory": "512MB", "addr": "10.1.2.3"},
	} {
		out, det, err := prg.Eval(in)
		if err != nil {
			fmt.Println("error:", err, "cost", *det.ActualCost())
			continue
		}
		fmt.Println(out, "cost", *det.ActualCost())
	}
	// Output:
	// estimated cost: 3 to 3689348814741910537
	// true cost 8
	// false cost 4
	// error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' cost 8
}
