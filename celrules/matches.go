package celrules

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/overloads"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"

	"github.com/crdschema/crdschema/internal/pattern"
)

// matchesConstants is the program option that compiles the constant
// pattern of matches (s.matches('^[a-z]+$'), matches(s, '...')) into an
// internal/pattern Matcher, which answers as the *regexp.Regexp cel-go's
// own optimization compiles it into, and fails to compile with the same
// error, but runs the usual Kubernetes patterns on a byte automaton.
//
// cel-go's optimization (which OptOptimize adds) applies by function
// name; these apply by the overload IDs of matches, which cel-go looks up
// first, so they take precedence where the checker resolved the overload,
// and cel-go's applies elsewhere, with the same answers.
var matchesConstants = cel.OptimizeRegex(
	&interpreter.RegexOptimization{Function: overloads.Matches, OverloadID: overloads.Matches, RegexIndex: 1, Factory: matchesCall},
	&interpreter.RegexOptimization{Function: overloads.Matches, OverloadID: overloads.MatchesString, RegexIndex: 1, Factory: matchesCall},
)

// matchesCall is the call of matches with the constant pattern expr.
func matchesCall(call interpreter.InterpretableCall, expr string) (interpreter.InterpretableCall, error) {
	m, err := pattern.Compile(expr)
	if err != nil {
		return nil, err
	}
	if matchesHook != nil {
		matchesHook(expr)
	}
	return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), func(values ...ref.Val) ref.Val {
		if len(values) != 2 {
			return types.NoSuchOverloadErr()
		}
		in, ok := values[0].Value().(string)
		if !ok {
			return types.NoSuchOverloadErr()
		}
		return types.Bool(m.MatchString(in))
	}), nil
}

// matchesHook, when set (by tests), is called with every pattern
// matchesCall compiles.
var matchesHook func(expr string)
