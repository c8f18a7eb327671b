package cellib

import (
	"fmt"
	"reflect"
	"sync/atomic"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// QuantityType is the CEL type of the values returned by quantity().
var QuantityType = cel.ObjectType("kubernetes.Quantity")

// quantityRuntimeType is the runtime type reported by Quantity values: the
// object type without the traits of an object (field tests, indexing),
// exactly what cel-go's deprecated NewTypeValue, which Kubernetes uses,
// builds.
var quantityRuntimeType = QuantityType.WithTraits(0)

// quantityVal is a resource quantity as a CEL value.
//
// Two behaviours of the Kubernetes implementation are kept because rules
// can observe them:
//   - comparing a quantity with one held as a decimal converts the
//     receiver to the decimal form for good (after which isInteger is
//     false and asInteger fails); promoted records that conversion;
//   - add and sub return a value of a different Go type, which the other
//     quantities' equality does not accept: quantity('1') ==
//     quantity('0').add(1) is a "no such overload" error, while the
//     operands the other way round compare normally; arith marks those
//     results.
type quantityVal struct {
	q        quantity
	arith    bool
	promoted atomic.Bool
}

// current returns the quantity in its present representation.
func (v *quantityVal) current() quantity {
	q := v.q
	if q.d == nil && v.promoted.Load() {
		q.d = q.i.asDecimal()
		q.i = scaledInt{}
	}
	return q
}

func (v *quantityVal) ConvertToNative(t reflect.Type) (any, error) {
	if reflect.TypeOf("").AssignableTo(t) {
		q := v.current()
		return q.String(), nil
	}
	return nil, fmt.Errorf("type conversion error from 'Quantity' to '%v'", t)
}

func (v *quantityVal) ConvertToType(t ref.Type) ref.Val {
	return convertOpaque(v, quantityRuntimeType, t)
}

// Equal reports whether two quantities have the same value.
func (v *quantityVal) Equal(other ref.Val) ref.Val {
	o, ok := other.(*quantityVal)
	if !ok || o.arith {
		return types.MaybeNoSuchOverloadErr(other)
	}
	a, b := v.current(), o.current()
	return types.Bool(a.cmp(&b) == 0)
}

func (v *quantityVal) Type() ref.Type { return quantityRuntimeType }

// Value returns the canonical text of the quantity.
func (v *quantityVal) Value() any {
	q := v.current()
	return q.String()
}

// compare compares v with o, converting v to the decimal form when either
// side is held as a decimal.
func (v *quantityVal) compare(o *quantityVal) int {
	a, b := v.current(), o.current()
	if a.d == nil && b.d != nil {
		v.promoted.Store(true)
	}
	return a.cmp(&b)
}

// quantityOptions declares the functions of the kubernetes.quantity library.
func quantityOptions() []cel.EnvOption {
	q := QuantityType
	onQuantity := func(f func(*quantityVal) ref.Val) func(ref.Val) ref.Val {
		return func(a ref.Val) ref.Val {
			x, ok := a.(*quantityVal)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			return f(x)
		}
	}
	member := func(fn, id string, result *cel.Type, f func(*quantityVal) ref.Val) funcDecl {
		return funcDecl{fn, []cel.FunctionOpt{cel.MemberOverload(id, []*cel.Type{q}, result, cel.UnaryBinding(onQuantity(f)))}}
	}
	binary := func(id string, other, result *cel.Type, f func(*quantityVal, ref.Val) ref.Val) cel.FunctionOpt {
		return cel.MemberOverload(id, []*cel.Type{q, other}, result, cel.BinaryBinding(func(a, b ref.Val) ref.Val {
			x, ok := a.(*quantityVal)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			return f(x, b)
		}))
	}
	compare := func(f func(int) ref.Val) func(*quantityVal, ref.Val) ref.Val {
		return func(x *quantityVal, b ref.Val) ref.Val {
			y, ok := b.(*quantityVal)
			if !ok {
				return types.MaybeNoSuchOverloadErr(x)
			}
			return f(x.compare(y))
		}
	}
	arith := func(neg bool) func(*quantityVal, ref.Val) ref.Val {
		return func(x *quantityVal, b ref.Val) ref.Val {
			var y quantity
			switch b := b.(type) {
			case *quantityVal:
				y = b.current()
			case types.Int:
				y = quantity{i: scaledInt{value: int64(b)}, fmt: decimalExponent}
			default:
				return types.MaybeNoSuchOverloadErr(x)
			}
			r := x.current()
			return &quantityVal{q: r.plus(&y, neg), arith: true}
		}
	}
	return envOptions([]funcDecl{
		{"quantity", []cel.FunctionOpt{cel.Overload("string_to_quantity", []*cel.Type{cel.StringType}, q, cel.UnaryBinding(unary(stringToQuantity)))}},
		{"isQuantity", []cel.FunctionOpt{cel.Overload("is_quantity_string", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(valid(parseQuantity)))}},
		{"sign", []cel.FunctionOpt{cel.Overload("quantity_sign", []*cel.Type{q}, cel.IntType, cel.UnaryBinding(onQuantity(func(x *quantityVal) ref.Val {
			c := x.current()
			return types.Int(c.sign())
		})))}},
		{"isGreaterThan", []cel.FunctionOpt{binary("quantity_is_greater_than", q, cel.BoolType, compare(func(c int) ref.Val { return types.Bool(c == 1) }))}},
		{"isLessThan", []cel.FunctionOpt{binary("quantity_is_less_than", q, cel.BoolType, compare(func(c int) ref.Val { return types.Bool(c == -1) }))}},
		{"compareTo", []cel.FunctionOpt{binary("quantity_compare_to", q, cel.IntType, compare(func(c int) ref.Val { return types.Int(c) }))}},
		member("asApproximateFloat", "quantity_get_float", cel.DoubleType, func(x *quantityVal) ref.Val {
			c := x.current()
			return types.Double(c.approxFloat64())
		}),
		member("asInteger", "quantity_get_int", cel.IntType, func(x *quantityVal) ref.Val {
			c := x.current()
			i, ok := c.asInt64()
			if !ok {
				return types.NewErr("cannot convert value to integer")
			}
			return types.Int(i)
		}),
		member("isInteger", "quantity_is_integer", cel.BoolType, func(x *quantityVal) ref.Val {
			c := x.current()
			_, ok := c.asInt64()
			return types.Bool(ok)
		}),
		{"add", []cel.FunctionOpt{
			binary("quantity_add", q, q, arith(false)),
			binary("quantity_add_int", cel.IntType, q, arith(false)),
		}},
		{"sub", []cel.FunctionOpt{
			binary("quantity_sub", q, q, arith(true)),
			binary("quantity_sub_int", cel.IntType, q, arith(true)),
		}},
	})
}

func stringToQuantity(s string) ref.Val {
	q, err := parseQuantity(s)
	if err != nil {
		return types.WrapErr(err)
	}
	return &quantityVal{q: q}
}
