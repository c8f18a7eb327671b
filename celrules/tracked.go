package celrules

import (
	"fmt"
	"sync"

	"github.com/google/cel-go/cel"

	"github.com/crdschema/crdschema/internal/cellib"
)

// trackedPrograms are the programs with cost tracking of a rule and its
// messageExpression when a lazy compilation deferred them: compiling a
// node makes the programs whose creation could fail at once (so that the
// failure is the rule's compile error, as in the API server) and leaves
// the others (plansSafely) to their first use. Objects whose cost is
// bounded (bounded.go) run the untracked programs and never need these.
// They are made once, for every copy of the rule a cache hands out.
type trackedPrograms struct {
	once sync.Once
	// programs and errs are those of the rule's expression and of its
	// messageExpression, in that order.
	programs [2]cel.Program
	errs     [2]error
}

// trackedProgram returns the program with cost tracking of the rule's
// expression, or with message of its messageExpression, making it if the
// compilation deferred it.
func (cr *compiledRule) trackedProgram(message bool) (cel.Program, error) {
	e := &cr.rule
	if message {
		e = &cr.message
	}
	if e.program != nil {
		return e.program, nil
	}
	t := cr.tracked
	if t == nil {
		return nil, errNoProgram
	}
	t.once.Do(func() {
		estimator := &cellib.CostEstimator{SizeEstimator: &sizeEstimator{root: cr.dt}}
		for i, e := range [...]*compiledExpr{&cr.rule, &cr.message} {
			if e.compiled && e.program == nil {
				t.programs[i], t.errs[i] = makeProgram(e.env, e.ast, estimator)
			}
		}
	})
	return t.programs[b2i(message)], t.errs[b2i(message)]
}

// errNoProgram reports a rule without a program: not compiled.
var errNoProgram = fmt.Errorf("no program: the expression was not compiled")

// makeProgram is newTrackedProgram turning a panic into an error.
func makeProgram(env *nodeEnv, a *cel.Ast, estimator *cellib.CostEstimator) (prog cel.Program, err error) {
	defer func() {
		if p := recover(); p != nil {
			prog, err = nil, fmt.Errorf("unexpected program instantiation error: %v", p)
		}
	}()
	if env == nil || a == nil {
		return nil, errNoProgram
	}
	return newTrackedProgram(env, a, estimator)
}
