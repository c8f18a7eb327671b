package celrules

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/decls"
	"github.com/google/cel-go/common/types"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/cellib"
	"github.com/crdschema/crdschema/internal/release"
)

// extended builds the node's cel.Env as the API server does: the base
// environment extended with the node's variables and provider, with a
// type checker of its own.
func extended(t *testing.T, ne *nodeEnv) *cel.Env {
	t.Helper()
	// options[0] turns off the checker of the program environment.
	e, err := ne.base.env.Extend(ne.options[1:]...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// compareNodeEnv compiles text in ne and in the cel.Env the API server
// builds for the same node, and reports any difference: issues, checked
// AST, output type, cost estimate, program creation.
func compareNodeEnv(t *testing.T, ne *nodeEnv, want *cel.Env, dt *declType, text string) (checked bool) {
	t.Helper()
	wa, wiss := want.Compile(text)
	var got string
	parsed, piss := ne.base.env.Parse(text)
	if piss.Err() != nil {
		got = "parse: " + piss.String()
	} else {
		a, iss := ne.check(parsed)
		if iss != nil || a == nil {
			got = "check: " + iss.String()
		} else {
			got = astText(t, a) + costText(ne.base.env.EstimateCost(a, newEstimator(dt))) + programText(ne.program(a))
		}
	}
	var w string
	switch {
	case wiss.Err() != nil && piss.Err() != nil:
		w = "parse: " + wiss.String()
	case wiss.Err() != nil:
		w = "check: " + wiss.String()
	default:
		w = astText(t, wa) + costText(want.EstimateCost(wa, newEstimator(dt))) + programText(want.Program(wa))
	}
	if got != w {
		t.Errorf("%q: nodeEnv gives\n%s\nthe extended cel.Env\n%s", text, got, w)
	}
	return wiss.Err() == nil
}

func newEstimator(dt *declType) *cellib.CostEstimator {
	return &cellib.CostEstimator{SizeEstimator: &sizeEstimator{root: dt}}
}

func costText(est checker.CostEstimate, err error) string {
	return fmt.Sprintf("\ncost %v %v", est, err)
}

func programText(_ cel.Program, err error) string {
	return fmt.Sprintf("\nprogram error %v", err)
}

// TestNodeEnvMatchesExtend checks that type-checking in a nodeEnv gives
// what the node's cel.Env, built by extending the base environment as the
// API server does, gives: for every rule and messageExpression of the
// corpora's nodes and the CEL library corpus (with an optional oldSelf),
// at every release, in the environments of new and stored expressions.
func TestNodeEnvMatchesExtend(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles every rule of the corpora twice per release and environment (not in -short)")
	}
	if raceEnabled {
		t.Skip("-race: compiles every rule of the corpora for minutes in one goroutine; it runs without -race")
	}
	var crds []*crdschema.CustomResourceDefinition
	sources := sharedCRDs(t)
	names := make([]string, 0, len(sources))
	for name := range sources {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		crds = append(crds, sources[name]...)
	}
	var library []string
	if data, err := os.ReadFile(filepath.Join("..", "internal", "cellib", "testdata", "upstream.tsv")); err != nil {
		t.Fatal(err)
	} else {
		for _, line := range strings.Split(string(data), "\n") {
			if fields := strings.Split(line, "\t"); !strings.HasPrefix(line, "#") && len(fields) > 1 {
				library = append(library, fields[0])
			}
		}
	}
	for rel := release.Oldest; rel <= release.Newest; rel++ {
		for _, stored := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/stored=%v", rel, stored), func(t *testing.T) {
				exprs, checked := 0, 0
				cfg := &config{minor: uint(rel.Compatibility()), release: rel, newExpressions: !stored, cache: new(Cache)}
				for _, n := range ruleNodes(crds, rel, map[string]bool{}) {
					nc := &nodeCompiler{cfg: cfg, dt: n.dt}
					ne, err := nc.buildEnv(stored, false)
					if err != nil {
						t.Fatal(err)
					}
					want := extended(t, ne)
					for _, r := range n.s.XValidations {
						for _, text := range []string{r.Rule, r.MessageExpression} {
							if text != "" {
								exprs++
								if compareNodeEnv(t, ne, want, n.dt, text) {
									checked++
								}
							}
						}
					}
				}
				// The library corpus, with its variables beside self.
				s := fuzzSchema()
				dt := newDeclType(s, true)
				base, err := baseFor(cfg.minor, rel, stored)
				if err != nil {
					t.Fatal(err)
				}
				provider := newTypeProvider(base.env.CELTypeProvider(), dt, cfg.cache.typeName(cfg.cache.types.ids(dt).decl), true)
				vars := []*decls.VariableDecl{
					decls.NewVariable("self", provider.selfType()), nil,
					decls.NewVariable("s", cel.StringType), decls.NewVariable("l", cel.ListType(cel.StringType)),
					decls.NewVariable("li", cel.ListType(cel.IntType)), decls.NewVariable("m", cel.MapType(cel.StringType, cel.IntType)),
					decls.NewVariable("b", cel.BytesType), decls.NewVariable("d", cel.DynType),
				}
				vars[1] = decls.NewVariable("oldSelf", types.NewOptionalType(provider.selfType()))
				ne, err := newNodeEnv(base, provider, vars)
				if err != nil {
					t.Fatal(err)
				}
				want := extended(t, ne)
				for _, text := range append(library, fuzzRules...) {
					exprs++
					if compareNodeEnv(t, ne, want, dt, text) {
						checked++
					}
				}
				if exprs < 1000 || checked < exprs/2 {
					t.Errorf("%d expressions, %d of them checked without errors: corpus not exercised", exprs, checked)
				}
			})
		}
	}
}
