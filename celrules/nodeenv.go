package celrules

import (
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common/decls"
)

// The environment of a node.
//
// The API server compiles a node's rules in its base environment extended
// with self, oldSelf and a type provider for the node's types
// (cel.Env.Extend), whose type checker merges every function declaration
// of the base once more: most of the time of compiling a schema with many
// node types. A nodeEnv runs cel-go's checker directly in the checker
// environment the extended cel.Env builds (cel.Env.initChecker): the base
// checker's validated declarations, to which merging the same functions
// again adds nothing, with self, oldSelf and the node's provider; then
// the base's AST validators, as cel.Env.Check runs them. Programs are
// planned in the extended cel.Env, built on first use without a checker.

// baseChecker is what a base environment gives the type checkers of its
// nodes.
type baseChecker struct {
	env *cel.Env
	// decls is the type checker of the base environment, whose validated
	// declarations the nodes' checkers start from.
	decls *checker.Env
	// options are the checker options cel-go derives from the base
	// environment's features.
	options []checker.Option
	// config is the configuration the AST validators give themselves.
	config cel.ValidatorConfig
}

// newBaseChecker builds the type checker of the base environment e as
// cel-go builds it: from the declarations of e (a base environment is one
// cel.Env extended once, from an environment that never built a checker,
// so the declarations are merged once, in no particular order).
func newBaseChecker(e *cel.Env) (*baseChecker, error) {
	// cel.CrossTypeNumericComparisons is a feature of e that cel-go hands
	// to its checker; its effect tells whether e has it.
	_, iss := e.Compile("1 < 1.0")
	b := &baseChecker{env: e, options: []checker.Option{
		checker.CrossTypeNumericComparisons(iss.Err() == nil),
		checker.JSONFieldNames(false), // no environment of baseTable enables it
	}}
	chk, err := checker.NewEnv(e.Container, e.CELTypeProvider(), b.options...)
	if err != nil {
		return nil, err
	}
	if err := chk.AddIdents(e.Variables()...); err != nil {
		return nil, err
	}
	for _, fn := range e.Functions() {
		if fn.IsDeclarationDisabled() {
			continue
		}
		if err := chk.AddFunctions(fn); err != nil {
			return nil, err
		}
	}
	b.decls = chk
	config := validatorConfig{cel.HomogeneousAggregateLiteralExemptFunctions: []string{}}
	for _, v := range e.Validators() {
		if c, ok := v.(cel.ASTValidatorConfigurer); ok {
			if err := c.Configure(config); err != nil {
				return nil, err
			}
		}
	}
	b.config = config
	return b, nil
}

// validatorConfig is the configuration the AST validators give themselves
// (cel.ValidatorConfig), with cel-go's defaults.
type validatorConfig map[string]any

func (c validatorConfig) GetOrDefault(name string, value any) any {
	if v, ok := c[name]; ok {
		return v
	}
	return value
}

func (c validatorConfig) Set(name string, value any) error {
	c[name] = value
	return nil
}

// nodeEnv is the environment of a node (see above).
type nodeEnv struct {
	base *lazyEnv
	chk  *checker.Env
	// options extend the base environment into the node's cel.Env.
	options []cel.EnvOption
	once    sync.Once
	env     *cel.Env
	err     error
}

// newNodeEnv builds the environment of a node whose rules see the
// variables vars, with provider for the node's types, over base.
func newNodeEnv(base *lazyEnv, provider *typeProvider, vars []*decls.VariableDecl) (*nodeEnv, error) {
	b := base.checker
	chk, err := checker.NewEnv(b.env.Container, provider, append(b.options, checker.ValidatedDeclarations(b.decls))...)
	if err != nil {
		return nil, err
	}
	if err := chk.AddIdents(vars...); err != nil {
		return nil, err
	}
	return &nodeEnv{base: base, chk: chk, options: []cel.EnvOption{
		cel.EagerlyValidateDeclarations(false),
		cel.VariableDecls(vars...),
		cel.CustomTypeProvider(provider),
		cel.CustomTypeAdapter(provider),
	}}, nil
}

// check type-checks the parsed expression a as the node's cel.Env checks
// it (cel.Env.Check), in a copy of a.
func (n *nodeEnv) check(a *cel.Ast) (*cel.Ast, *cel.Issues) {
	b := n.base.checker
	// The checker rewrites the copy's AST in place (the checked AST shares
	// its expression and source information); the copy then gets the
	// checked types and references.
	out, iss := emptyOptimizer.Optimize(b.env, a)
	if iss.Err() != nil {
		return nil, iss
	}
	parsed := out.NativeRep()
	checked, errs := checker.Check(parsed, out.Source(), n.chk)
	if len(errs.GetErrors()) > 0 {
		return nil, cel.NewIssuesWithSourceInfo(errs, parsed.SourceInfo())
	}
	for id, t := range checked.TypeMap() {
		parsed.SetType(id, t)
	}
	for id, r := range checked.ReferenceMap() {
		parsed.SetReference(id, r)
	}
	iss = cel.NewIssuesWithSourceInfo(errs, checked.SourceInfo())
	for _, v := range b.env.Validators() {
		v.Validate(b.env, b.config, checked, iss)
	}
	if iss.Err() != nil {
		return nil, iss
	}
	return out, nil
}

// emptyOptimizer copies a cel.Ast.
var emptyOptimizer, _ = cel.NewStaticOptimizer()

// program plans the checked expression a in the node's cel.Env.
func (n *nodeEnv) program(a *cel.Ast, opts ...cel.ProgramOption) (cel.Program, error) {
	n.once.Do(func() { n.env, n.err = n.base.env.Extend(n.options...) })
	if n.err != nil {
		return nil, n.err
	}
	return n.env.Program(a, opts...)
}
