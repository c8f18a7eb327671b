package cellib

import (
	"fmt"
	"reflect"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// convertOpaque is ConvertToType of a value v whose runtime type is typ:
// v itself for typ, typ for the type of types, and a conversion error
// otherwise, as Kubernetes' CEL libraries give them.
func convertOpaque(v ref.Val, typ *types.Type, t ref.Type) ref.Val {
	switch t {
	case typ:
		return v
	case types.TypeType:
		return typ
	}
	return types.NewErr("type conversion error from '%s' to '%s'", typ, t)
}

// nativeOrString is ConvertToNative of a value that holds x and is called
// name in errors: x itself, or its text, where t takes either.
func nativeOrString(x fmt.Stringer, name string, t reflect.Type) (any, error) {
	if reflect.TypeOf(x).AssignableTo(t) {
		return x, nil
	}
	if reflect.TypeOf("").AssignableTo(t) {
		return x.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from '%s' to '%v'", name, t)
}
