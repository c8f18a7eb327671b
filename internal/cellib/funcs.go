package cellib

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// funcDecl is one CEL function with its overloads, kept in a slice so that
// libraries register their functions in a fixed order.
type funcDecl struct {
	name      string
	overloads []cel.FunctionOpt
}

// unary is the binding of a one-argument overload: f of the Go value that
// its argument holds, or "no such overload" when that is not a T.
func unary[T any](f func(T) ref.Val) func(ref.Val) ref.Val {
	return func(a ref.Val) ref.Val {
		x, ok := a.Value().(T)
		if !ok {
			return types.MaybeNoSuchOverloadErr(a)
		}
		return f(x)
	}
}

// valid is the binding of an isX(string) function: whether parse accepts
// the string.
func valid[T any](parse func(string) (T, error)) func(ref.Val) ref.Val {
	return unary(func(s string) ref.Val {
		_, err := parse(s)
		return types.Bool(err == nil)
	})
}

// envOptions turns function declarations into environment options.
func envOptions(decls []funcDecl, extra ...cel.EnvOption) []cel.EnvOption {
	opts := make([]cel.EnvOption, 0, len(decls)+len(extra))
	opts = append(opts, extra...)
	for _, d := range decls {
		opts = append(opts, cel.Function(d.name, d.overloads...))
	}
	return opts
}
