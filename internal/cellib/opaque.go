package cellib

import (
	"fmt"
	"reflect"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// opaque is a value of one of the libraries' types that hold a Go value x
// (IP, CIDR, Semver, URL); kind says how the type converts, compares and
// sizes it.
type opaque[T fmt.Stringer] struct {
	x    T
	kind *opaqueKind[T]
}

// opaqueKind describes one type of opaque values.
type opaqueKind[T fmt.Stringer] struct {
	typ      *types.Type       // the runtime type
	name     string            // the name conversion errors give
	toString bool              // string() converts the value to its text
	equal    func(a, b T) bool // the type's equality
	size     func(T) int       // the size runtime costs use, 1 when nil
}

// ConvertToNative gives the Go value itself, or its text, where t takes
// either.
func (v opaque[T]) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf(v.x).AssignableTo(t) {
		return v.x, nil
	}
	if reflect.TypeOf("").AssignableTo(t) {
		return v.x.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from '%s' to '%v'", v.kind.name, t)
}

func (v opaque[T]) ConvertToType(t ref.Type) ref.Val {
	if v.kind.toString && t == types.StringType {
		return types.String(v.x.String())
	}
	return convertOpaque(v, v.kind.typ, t)
}

func (v opaque[T]) Equal(other ref.Val) ref.Val {
	o, ok := other.(opaque[T])
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(v.kind.equal(v.x, o.x))
}

func (v opaque[T]) Type() ref.Type { return v.kind.typ }
func (v opaque[T]) Value() any     { return v.x }

// Size is the value's size for runtime costs: 1, as for a value without a
// size, unless its kind says otherwise.
func (v opaque[T]) Size() ref.Val {
	if v.kind.size == nil {
		return types.IntOne
	}
	return types.Int(v.kind.size(v.x))
}

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
