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
	once               sync.Once
	program, message   cel.Program
	programErr, msgErr error
}

// trackedProgram returns the rule's program with cost tracking, making it
// if the compilation deferred it.
func (cr *compiledRule) trackedProgram() (cel.Program, error) {
	if cr.program != nil {
		return cr.program, nil
	}
	t := cr.deferredPrograms()
	return t.program, t.programErr
}

// trackedMessage returns the messageExpression's program with cost
// tracking, making it if the compilation deferred it.
func (cr *compiledRule) trackedMessage() (cel.Program, error) {
	if cr.message != nil {
		return cr.message, nil
	}
	t := cr.deferredPrograms()
	return t.message, t.msgErr
}

// deferredPrograms makes the programs the compilation of cr deferred.
func (cr *compiledRule) deferredPrograms() *trackedPrograms {
	t := cr.tracked
	if t == nil {
		return &trackedPrograms{programErr: errNoProgram, msgErr: errNoProgram}
	}
	t.once.Do(func() {
		estimator := &cellib.CostEstimator{SizeEstimator: &sizeEstimator{root: cr.dt}}
		if cr.compiled && cr.program == nil {
			t.program, t.programErr = makeProgram(cr.env, cr.ast, estimator)
		}
		if cr.messageCompiled && cr.message == nil {
			t.message, t.msgErr = makeProgram(cr.messageEnv, cr.messageAST, estimator)
		}
	})
	return t
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
