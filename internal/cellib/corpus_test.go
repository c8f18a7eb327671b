package cellib_test

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"

	"github.com/crdschema/crdschema/internal/cellib"
)

// corpusEnv is the environment in which testdata/upstream.tsv was recorded:
// the options of the API server's CEL environment, every Kubernetes
// library, and a few variables whose sizes come from fixedSizes. self and
// oldSelf are declared but unbound: the corpus includes rules of real CRDs,
// which check compilation and static estimates.
func corpusEnv(t testing.TB) *cel.Env {
	t.Helper()
	env, err := cel.NewEnv(
		cel.HomogeneousAggregateLiterals(), cel.EagerlyValidateDeclarations(true), cel.DefaultUTCTimeZone(true),
		cel.CrossTypeNumericComparisons(true), cel.OptionalTypes(),
		ext.Strings(ext.StringsVersion(2)), ext.Sets(), ext.TwoVarComprehensions(), ext.Lists(ext.ListsVersion(3)),
		cellib.URLs(), cellib.Regex(), cellib.Lists(1), cellib.Authz(), cellib.Quantity(),
		cellib.IP(), cellib.CIDR(), cellib.Format(), cellib.AuthzSelectors(), cellib.Semver(1),
		cel.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
		cel.Variable("s", cel.StringType), cel.Variable("l", cel.ListType(cel.StringType)),
		cel.Variable("li", cel.ListType(cel.IntType)), cel.Variable("m", cel.MapType(cel.StringType, cel.IntType)),
		cel.Variable("b", cel.BytesType), cel.Variable("d", cel.DynType),
		cel.Variable("self", cel.DynType), cel.Variable("oldSelf", cel.DynType),
	)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

var corpusVars = map[string]any{
	"s": "hello world", "l": []string{"a", "bb", "ccc"}, "li": []int64{3, 1, 2},
	"m": map[string]int64{"a": 1, "bb": 2}, "b": []byte("bytes"), "d": []any{"x", int64(1)},
}

// fixedSizes sizes list elements 1..7, s 2..50 and other variables 0..30.
type fixedSizes struct{}

func (fixedSizes) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	p := n.Path()
	switch {
	case len(p) == 0:
		return nil
	case p[len(p)-1] == "@items":
		return &checker.SizeEstimate{Min: 1, Max: 7}
	case p[0] == "s":
		return &checker.SizeEstimate{Min: 2, Max: 50}
	}
	return &checker.SizeEstimate{Min: 0, Max: 30}
}

func (fixedSizes) EstimateCallCost(string, string, *checker.AstNode, []checker.AstNode) *checker.CallEstimate {
	return nil
}

// showVal renders a result deterministically (maps sorted by entry).
func showVal(v ref.Val) string {
	switch x := v.(type) {
	case *types.Optional:
		if x.HasValue() {
			return "optional(" + showVal(x.GetValue()) + ")"
		}
		return "optional.none()"
	case types.String:
		return fmt.Sprintf("%q", string(x))
	case traits.Lister:
		var parts []string
		for it := x.Iterator(); it.HasNext() == types.True; {
			parts = append(parts, showVal(it.Next()))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case traits.Mapper:
		var parts []string
		for it := x.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			parts = append(parts, showVal(k)+": "+showVal(x.Get(k)))
		}
		sort.Strings(parts)
		return "{" + strings.Join(parts, ", ") + "}"
	}
	if v.Type().TypeName() == "kubernetes.NamedFormat" {
		return "format"
	}
	nv := v.Value()
	if s, ok := nv.(fmt.Stringer); ok {
		return fmt.Sprintf("%q", s.String())
	}
	if s, ok := nv.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%v", nv)
}

// evalCase compiles, estimates and evaluates expr as the recording did and
// returns the estimate column, the result column and the runtime cost.
func evalCase(env *cel.Env, expr string, optimize bool) (est, result string, cost uint64) {
	ast, iss := env.Compile(expr)
	if iss.Err() != nil {
		return "COMPILE", fmt.Sprintf("%q", iss.Err().Error()), 0
	}
	ce, err := env.EstimateCost(ast, &cellib.CostEstimator{SizeEstimator: fixedSizes{}})
	if err != nil {
		return "ESTERR", err.Error(), 0
	}
	opts := cel.EvalOptions(cel.OptTrackCost)
	if optimize {
		opts = cel.EvalOptions(cel.OptOptimize, cel.OptTrackCost)
	}
	prg, err := env.Program(ast, opts, cel.CostTracking(&cellib.CostEstimator{}),
		cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false)))
	if err != nil {
		return "PROGERR", fmt.Sprintf("%q", err.Error()), 0
	}
	val, det, err := prg.Eval(corpusVars)
	if det != nil && det.ActualCost() != nil {
		cost = *det.ActualCost()
	}
	est = fmt.Sprintf("est=[%d,%d]", ce.Min, ce.Max)
	if err != nil {
		return est, fmt.Sprintf("ERR %q", err.Error()), cost
	}
	return est, fmt.Sprintf("VAL %s %s", showVal(val), val.Type().TypeName()), cost
}

// TestUpstreamCorpus checks results, error texts, static estimates and
// runtime costs against those recorded from the Kubernetes libraries.
func TestUpstreamCorpus(t *testing.T) {
	f, err := os.Open("testdata/upstream.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env := corpusEnv(t)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 5 {
			t.Fatalf("malformed line %q", line)
		}
		n++
		expr, wantEst, wantResult := fields[0], fields[1], fields[2]
		for i, optimize := range []bool{true, false} {
			est, result, cost := evalCase(env, expr, optimize)
			if est != wantEst || result != wantResult {
				t.Errorf("%s (optimize=%v):\n got  %s\t%s\n want %s\t%s", expr, optimize, est, result, wantEst, wantResult)
				continue
			}
			if want := fields[3+i]; want != "-" && fmt.Sprintf("cost=%d", cost) != want {
				t.Errorf("%s (optimize=%v): runtime cost=%d, want %s", expr, optimize, cost, want)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 900 {
		t.Fatalf("only %d cases read", n)
	}
}
