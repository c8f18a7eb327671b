package celparse

import (
	"fmt"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/ext"

	"github.com/crdschema/crdschema/internal/cellib"
)

// baseEnvOptions returns the options of celrules' base environment for
// compatibility version 1.minor, the rows of celrules' baseTable
// (celrules/env.go) in its order: the parser of every environment
// celrules compiles in is the parser of one of these. celrules itself is
// tested with the parser wired in (its tests and the conformance suite).
func baseEnvOptions(minor uint) []cel.EnvOption {
	type row struct {
		introduced, removed uint
		opts                func() []cel.EnvOption
	}
	rows := []row{
		{0, 0, func() []cel.EnvOption {
			return []cel.EnvOption{cel.HomogeneousAggregateLiterals(), cel.EagerlyValidateDeclarations(true), cel.DefaultUTCTimeZone(true),
				cellib.URLs(), cellib.Regex(), cel.CostEstimatorOptions(checker.PresenceTestHasCost(false))}
		}},
		{0, 37, func() []cel.EnvOption { return []cel.EnvOption{cellib.Lists(0)} }},
		{27, 0, func() []cel.EnvOption { return []cel.EnvOption{cellib.Authz()} }},
		{28, 0, func() []cel.EnvOption {
			return []cel.EnvOption{cel.CrossTypeNumericComparisons(true), cel.OptionalTypes(), cellib.Quantity()}
		}},
		{29, 0, func() []cel.EnvOption {
			return []cel.EnvOption{cel.ASTValidators(cel.ValidateDurationLiterals(), cel.ValidateTimestampLiterals(),
				cel.ValidateRegexLiterals(), cel.ValidateHomogeneousAggregateLiterals())}
		}},
		{0, 29, func() []cel.EnvOption { return []cel.EnvOption{ext.Strings(ext.StringsVersion(0))} }},
		{29, 0, func() []cel.EnvOption { return []cel.EnvOption{ext.Strings(ext.StringsVersion(2))} }},
		{29, 0, func() []cel.EnvOption { return []cel.EnvOption{ext.Sets()} }},
		{30, 0, func() []cel.EnvOption { return []cel.EnvOption{cellib.IP(), cellib.CIDR()} }},
		{31, 0, func() []cel.EnvOption { return []cel.EnvOption{cellib.Format()} }},
		{31, 0, func() []cel.EnvOption { return []cel.EnvOption{cellib.AuthzSelectors()} }},
		{32, 0, func() []cel.EnvOption { return []cel.EnvOption{ext.TwoVarComprehensions()} }},
		{33, 0, func() []cel.EnvOption { return []cel.EnvOption{cellib.Semver(1)} }},
		{34, 0, func() []cel.EnvOption { return []cel.EnvOption{ext.Lists(ext.ListsVersion(3))} }},
		{37, 0, func() []cel.EnvOption { return []cel.EnvOption{cellib.Lists(1)} }},
	}
	var opts []cel.EnvOption
	for _, r := range rows {
		if minor < r.introduced || (r.removed != 0 && minor >= r.removed) {
			continue
		}
		opts = append(opts, r.opts()...)
	}
	return opts
}

// testEnv is an environment of the differential tests, with its parser.
type testEnv struct {
	name   string
	env    *cel.Env
	parser *Parser
}

var (
	testEnvsOnce sync.Once
	testEnvsList []testEnv
)

// testEnvs returns the base environments of releases 1.33 to 1.37 with
// self and oldSelf declared as dyn, and a plain cel-go environment (no
// optional syntax, standard macros only).
func testEnvs() []testEnv {
	testEnvsOnce.Do(func() {
		decls := []cel.EnvOption{cel.Variable("self", cel.DynType), cel.Variable("oldSelf", cel.DynType)}
		for minor := uint(33); minor <= 37; minor++ {
			base, err := cel.NewEnv(baseEnvOptions(minor)...)
			if err != nil {
				panic(err)
			}
			env, err := base.Extend(decls...)
			if err != nil {
				panic(err)
			}
			testEnvsList = append(testEnvsList, testEnv{fmt.Sprintf("1.%d", minor), env, New(base)})
		}
		env, err := cel.NewEnv(decls...)
		if err != nil {
			panic(err)
		}
		testEnvsList = append(testEnvsList, testEnv{"plain", env, New(env)})
	})
	return testEnvsList
}

// parserEnvs returns one test environment of each parser configuration:
// 1.33 (optional syntax, two-variable comprehensions), 1.37 (also
// sortBy; 1.34 to 1.36 have the same macros) and plain cel-go.
func parserEnvs() []testEnv {
	envs := testEnvs()
	return []testEnv{envs[0], envs[4], envs[5]}
}
