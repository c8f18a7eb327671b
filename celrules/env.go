package celrules

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"

	"github.com/crdschema/crdschema/internal/cellib"
	"github.com/crdschema/crdschema/internal/release"
)

// Evaluation limits of the API server.
const (
	// PerCallLimit is the largest cost one evaluation of a rule or
	// messageExpression may reach.
	PerCallLimit = 1000000
	// RuntimeBudget is the cost all rules of one object may spend together.
	RuntimeBudget = 10000000
	// StaticCostLimit is the largest estimated cost of one expression,
	// multiplied by its cardinality, that CRD validation accepts.
	StaticCostLimit = 10000000
	// StaticCRDCostLimit is the largest estimated total cost of all
	// expressions of one schema that CRD validation accepts.
	StaticCRDCostLimit = 100000000
	// maxMessageExpressionSize is the largest evaluated messageExpression,
	// in bytes, that is used as an error detail.
	maxMessageExpressionSize = 5120
	// checkFrequency is how many comprehension steps pass between checks
	// of the context.
	checkFrequency = 100
)

// defaultMinor is the default compatibility version's minor number: a
// 1.37 API server's minimum compatibility version.
const defaultMinor = 36

// maxMinor bounds the compatibility versions this package knows; later
// minors get the environment of maxMinor.
const maxMinor = 99

// versionedOptions is one row of the API server's base environment table:
// options introduced in 1.introduced and, when removed is non-zero, gone
// from 1.removed on.
type versionedOptions struct {
	introduced, removed uint
	env                 func() []cel.EnvOption
	program             []cel.ProgramOption
	// declaresFunctionsOnly marks a row whose options declare functions
	// (with their implementations) and nothing else: environments that
	// differ only in such rows share type-checks (see share.go).
	declaresFunctionsOnly bool
}

// baseTable lists the base environment's options in the API server's
// order.
var baseTable = []versionedOptions{
	{introduced: 0, env: func() []cel.EnvOption {
		return []cel.EnvOption{
			cel.ASTValidators(homogeneousLiterals()), // cel.HomogeneousAggregateLiterals()
			cel.EagerlyValidateDeclarations(true),
			cel.DefaultUTCTimeZone(true),
			cellib.URLs(),
			cellib.Regex(),
			cel.CostEstimatorOptions(checker.PresenceTestHasCost(false)),
		}
	}, program: []cel.ProgramOption{
		// The cost tracking options are not the environment's: programs
		// add them (trackingOptions), so that the same environment also
		// makes untracked programs (see bounded.go).
		cel.EvalOptions(cel.OptOptimize),
	}},
	{introduced: 0, removed: 37, env: func() []cel.EnvOption { return []cel.EnvOption{cellib.Lists(0)} }, declaresFunctionsOnly: true},
	{introduced: 27, env: func() []cel.EnvOption { return []cel.EnvOption{cellib.Authz()} }},
	{introduced: 28, env: func() []cel.EnvOption {
		return []cel.EnvOption{cel.CrossTypeNumericComparisons(true), cel.OptionalTypes(), cellib.Quantity()}
	}},
	{introduced: 29, env: func() []cel.EnvOption {
		return []cel.EnvOption{extendedValidators()} // cel.ExtendedValidations()
	}},
	{introduced: 0, removed: 29, env: func() []cel.EnvOption { return []cel.EnvOption{ext.Strings(ext.StringsVersion(0))} }},
	{introduced: 29, env: func() []cel.EnvOption { return []cel.EnvOption{ext.Strings(ext.StringsVersion(2))} }},
	{introduced: 29, env: func() []cel.EnvOption { return []cel.EnvOption{ext.Sets()} }},
	{introduced: 30, env: func() []cel.EnvOption { return []cel.EnvOption{cellib.IP(), cellib.CIDR()} }},
	{introduced: 31, env: func() []cel.EnvOption { return []cel.EnvOption{cellib.Format()} }},
	{introduced: 31, env: func() []cel.EnvOption { return []cel.EnvOption{cellib.AuthzSelectors()} }},
	{introduced: 32, env: func() []cel.EnvOption { return []cel.EnvOption{ext.TwoVarComprehensions()} }},
	{introduced: 33, env: func() []cel.EnvOption { return []cel.EnvOption{cellib.Semver(1)} }},
	{introduced: 34, env: func() []cel.EnvOption { return []cel.EnvOption{ext.Lists(ext.ListsVersion(3))} }},
	{introduced: 37, env: func() []cel.EnvOption { return []cel.EnvOption{cellib.Lists(1)} }, declaresFunctionsOnly: true},
}

// trackingOptions are the API server's cost tracking options of every
// program: the per-call limit, presence tests at no cost. The program adds
// the runtime cost estimator (cellib.CostEstimator) itself.
var trackingOptions = []cel.ProgramOption{
	cel.EvalOptions(cel.OptTrackCost),
	cel.CostLimit(PerCallLimit),
	cel.CostTrackerOptions(interpreter.PresenceTestHasCost(false)),
}

// envLib carries a set of compile and program options as one cel.Lib.
type envLib struct {
	env     []cel.EnvOption
	program []cel.ProgramOption
}

func (l *envLib) CompileOptions() []cel.EnvOption     { return l.env }
func (l *envLib) ProgramOptions() []cel.ProgramOption { return l.program }

// buildBaseEnv builds the base environment for compatibility version
// 1.minor (for stored expressions, the minor of the release).
func buildBaseEnv(minor uint) (*cel.Env, error) {
	lib := &envLib{}
	for _, row := range baseTable {
		if minor < row.introduced || (row.removed != 0 && minor >= row.removed) {
			continue
		}
		if row.env != nil {
			lib.env = append(lib.env, row.env()...)
		}
		lib.program = append(lib.program, row.program...)
	}
	e, err := cel.NewEnv()
	if err != nil {
		return nil, err
	}
	return e.Extend(cel.Lib(lib))
}

// lazyEnv is a base environment built on first use.
type lazyEnv struct {
	once sync.Once
	env  *cel.Env
	err  error
	// parser identifies the environment's parser (see parserOf).
	parser string
	// profile is what of the environment reaches the type checker.
	profile *checkProfile
	// checker is the environment's type checker (see nodeEnv).
	checker *baseChecker
}

func (l *lazyEnv) get(minor uint) (*cel.Env, error) {
	l.once.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				l.err = fmt.Errorf("building the CEL environment: %v", r)
			}
		}()
		l.env, l.err = buildBaseEnv(minor)
		if l.err == nil {
			l.parser = parserOf(l.env)
			l.profile = newCheckProfile(minor, l.env, l.parser)
			l.checker, l.err = newBaseChecker(l.env)
		}
	})
	return l.env, l.err
}

// parserOf describes what of a base environment's configuration reaches
// its parser: the macros and whether optional syntax is on. The options of
// baseTable set nothing else of the parser (no features, no limits), so
// base environments with the same description parse every text alike.
func parserOf(e *cel.Env) string {
	keys := make([]string, 0, 16)
	for _, m := range e.Macros() {
		keys = append(keys, m.MacroKey())
	}
	sort.Strings(keys)
	if e.HasLibrary("cel.lib.optional") {
		keys = append(keys, "optional syntax")
	}
	return strings.Join(keys, "\n")
}

// The base environments never change once built; building them is
// expensive, so each is built once, on first use, and shared.
var (
	newExprEnvs [maxMinor + 1]lazyEnv
	// storedEnvs are the environments of stored expressions by release:
	// every option that release's API server knows.
	storedEnvs [release.Newest + 1]lazyEnv
)

// baseFor returns the built base environment for new expressions at
// compatibility version 1.minor, or for stored expressions.
func baseFor(minor uint, rel release.Minor, stored bool) (*lazyEnv, error) {
	var l *lazyEnv
	if stored {
		if !rel.Valid() {
			rel = release.Default
		}
		minor = uint(rel)
		l = &storedEnvs[rel]
	} else {
		minor = min(minor, maxMinor)
		l = &newExprEnvs[minor]
	}
	if _, err := l.get(minor); err != nil {
		return nil, err
	}
	return l, nil
}
