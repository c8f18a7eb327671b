package cellib

import (
	"regexp"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/interpreter"
)

// regexOptions declares the functions of the kubernetes.regex library.
func regexOptions() []cel.EnvOption {
	find, findAll := finder(false, nil), finder(true, nil)
	return envOptions([]funcDecl{
		{"find", []cel.FunctionOpt{cel.MemberOverload("string_find_string", []*cel.Type{cel.StringType, cel.StringType}, cel.StringType,
			cel.BinaryBinding(func(s, re ref.Val) ref.Val { return find(s, re) }))}},
		{"findAll", []cel.FunctionOpt{
			cel.MemberOverload("string_find_all_string", []*cel.Type{cel.StringType, cel.StringType}, cel.ListType(cel.StringType),
				cel.BinaryBinding(func(s, re ref.Val) ref.Val { return findAll(s, re) })),
			cel.MemberOverload("string_find_all_string_int", []*cel.Type{cel.StringType, cel.StringType, cel.IntType}, cel.ListType(cel.StringType),
				cel.FunctionBinding(findAll)),
		}},
	})
}

// regexProgramOptions compiles constant patterns once, when the program is
// planned; a constant pattern that does not compile fails the planning.
func regexProgramOptions() []cel.ProgramOption {
	return []cel.ProgramOption{cel.OptimizeRegex(
		&interpreter.RegexOptimization{Function: "find", RegexIndex: 1, Factory: precompiled(false)},
		&interpreter.RegexOptimization{Function: "findAll", RegexIndex: 1, Factory: precompiled(true)},
	)}
}

// finder returns find (findAll with all) of a string, the pattern and, for
// findAll, an optional match limit: with the pattern re, or without it
// (nil) with the pattern argument compiled on each call.
func finder(all bool, re *regexp.Regexp) func(args ...ref.Val) ref.Val {
	return func(args ...ref.Val) ref.Val {
		if len(args) < 2 || len(args) > 3 || !all && len(args) != 2 {
			return types.NoSuchOverloadErr()
		}
		s, ok := args[0].Value().(string)
		if !ok {
			return types.MaybeNoSuchOverloadErr(args[0])
		}
		n := int64(-1)
		if len(args) == 3 {
			if n, ok = args[2].Value().(int64); !ok {
				return types.MaybeNoSuchOverloadErr(args[2])
			}
		}
		r := re
		if r == nil {
			pattern, ok := args[1].Value().(string)
			if !ok {
				return types.MaybeNoSuchOverloadErr(args[1])
			}
			var err error
			if r, err = regexp.Compile(pattern); err != nil {
				return types.NewErr("Illegal regex: %v", err.Error())
			}
		}
		if !all {
			return types.String(r.FindString(s))
		}
		return types.NewStringList(types.DefaultTypeAdapter, r.FindAllString(s, int(n)))
	}
}

// precompiled is the factory of the calls of find (findAll with all) with
// a constant pattern.
func precompiled(all bool) func(interpreter.InterpretableCall, string) (interpreter.InterpretableCall, error) {
	return func(call interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, err
		}
		return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), finder(all, re)), nil
	}
}
