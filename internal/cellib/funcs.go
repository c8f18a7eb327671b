package cellib

import "github.com/google/cel-go/cel"

// funcDecl is one CEL function with its overloads, kept in a slice so that
// libraries register their functions in a fixed order.
type funcDecl struct {
	name      string
	overloads []cel.FunctionOpt
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
