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
	return envOptions([]funcDecl{
		{"find", []cel.FunctionOpt{cel.MemberOverload("string_find_string", []*cel.Type{cel.StringType, cel.StringType}, cel.StringType, cel.BinaryBinding(find))}},
		{"findAll", []cel.FunctionOpt{
			cel.MemberOverload("string_find_all_string", []*cel.Type{cel.StringType, cel.StringType}, cel.ListType(cel.StringType),
				cel.BinaryBinding(func(s, re ref.Val) ref.Val { return findAll(s, re, types.Int(-1)) })),
			cel.MemberOverload("string_find_all_string_int", []*cel.Type{cel.StringType, cel.StringType, cel.IntType}, cel.ListType(cel.StringType),
				cel.FunctionBinding(findAll)),
		}},
	})
}

// regexProgramOptions compiles constant patterns once, when the program is
// planned; a constant pattern that does not compile fails the planning.
func regexProgramOptions() []cel.ProgramOption {
	return []cel.ProgramOption{cel.OptimizeRegex(
		&interpreter.RegexOptimization{Function: "find", RegexIndex: 1, Factory: precompiledFind},
		&interpreter.RegexOptimization{Function: "findAll", RegexIndex: 1, Factory: precompiledFindAll},
	)}
}

func find(sv, rv ref.Val) ref.Val {
	s, ok := sv.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(sv)
	}
	pattern, ok := rv.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(rv)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return types.NewErr("Illegal regex: %v", err.Error())
	}
	return types.String(re.FindString(s))
}

// findAllArgs checks the arguments of findAll and returns the string and
// the match limit.
func findAllArgs(args []ref.Val) (string, int, ref.Val) {
	if len(args) < 2 || len(args) > 3 {
		return "", 0, types.NoSuchOverloadErr()
	}
	s, ok := args[0].Value().(string)
	if !ok {
		return "", 0, types.MaybeNoSuchOverloadErr(args[0])
	}
	n := int64(-1)
	if len(args) == 3 {
		if n, ok = args[2].Value().(int64); !ok {
			return "", 0, types.MaybeNoSuchOverloadErr(args[2])
		}
	}
	return s, int(n), nil
}

func findAll(args ...ref.Val) ref.Val {
	s, n, errv := findAllArgs(args)
	if errv != nil {
		return errv
	}
	pattern, ok := args[1].Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(args[1])
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return types.NewErr("Illegal regex: %v", err.Error())
	}
	return types.NewStringList(types.DefaultTypeAdapter, re.FindAllString(s, n))
}

func precompiledFind(call interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), func(args ...ref.Val) ref.Val {
		if len(args) != 2 {
			return types.NoSuchOverloadErr()
		}
		s, ok := args[0].Value().(string)
		if !ok {
			return types.MaybeNoSuchOverloadErr(args[0])
		}
		return types.String(re.FindString(s))
	}), nil
}

func precompiledFindAll(call interpreter.InterpretableCall, pattern string) (interpreter.InterpretableCall, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	return interpreter.NewCall(call.ID(), call.Function(), call.OverloadID(), call.Args(), func(args ...ref.Val) ref.Val {
		s, n, errv := findAllArgs(args)
		if errv != nil {
			return errv
		}
		return types.NewStringList(types.DefaultTypeAdapter, re.FindAllString(s, n))
	}), nil
}
