package cellib

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// elemType pairs the name used in overload IDs with the element type.
type elemType struct {
	name string
	t    *cel.Type
}

// orderedElemTypes are the list element types with a total order.
var orderedElemTypes = []elemType{
	{"int", cel.IntType}, {"uint", cel.UintType}, {"double", cel.DoubleType},
	{"bool", cel.BoolType}, {"duration", cel.DurationType},
	{"timestamp", cel.TimestampType}, {"string", cel.StringType}, {"bytes", cel.BytesType},
}

// summableElemTypes are the list element types that sum() accepts, with
// the sum of an empty list.
var summableElemTypes = []struct {
	elemType
	zero ref.Val
}{
	{elemType{"int", cel.IntType}, types.Int(0)},
	{elemType{"uint", cel.UintType}, types.Uint(0)},
	{elemType{"double", cel.DoubleType}, types.Double(0)},
	{elemType{"duration", cel.DurationType}, types.Duration{}},
}

// listsOptions declares the functions of the kubernetes.lists library at version.
func listsOptions(version uint32) []cel.EnvOption {
	var isSorted, sum, maxO, minO []cel.FunctionOpt
	for _, e := range orderedElemTypes {
		lt := []*cel.Type{cel.ListType(e.t)}
		isSorted = append(isSorted, cel.MemberOverload("list_"+e.name+"_is_sorted_bool", lt, cel.BoolType, cel.UnaryBinding(listIsSorted)))
		maxO = append(maxO, cel.MemberOverload("list_"+e.name+"_max_"+e.name, lt, e.t, cel.UnaryBinding(listExtreme("max", types.IntNegOne))))
		minO = append(minO, cel.MemberOverload("list_"+e.name+"_min_"+e.name, lt, e.t, cel.UnaryBinding(listExtreme("min", types.IntOne))))
	}
	for _, e := range summableElemTypes {
		zero := e.zero
		sum = append(sum, cel.MemberOverload("list_"+e.name+"_sum_"+e.name, []*cel.Type{cel.ListType(e.t)}, e.t,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return listSum(zero, v) })))
	}
	a := cel.TypeParamType("A")
	decls := []funcDecl{
		{"isSorted", isSorted},
		{"sum", sum},
		{"max", maxO},
		{"min", minO},
		{"indexOf", []cel.FunctionOpt{cel.MemberOverload("list_a_index_of_int", []*cel.Type{cel.ListType(a), a}, cel.IntType, cel.BinaryBinding(listIndex(false)))}},
		{"lastIndexOf", []cel.FunctionOpt{cel.MemberOverload("list_a_last_index_of_int", []*cel.Type{cel.ListType(a), a}, cel.IntType, cel.BinaryBinding(listIndex(true)))}},
	}
	if version >= 1 {
		decls = append(decls, funcDecl{"includes", []cel.FunctionOpt{cel.MemberOverload("list_includes_dyn_dyn", []*cel.Type{cel.DynType, cel.DynType}, cel.BoolType, cel.BinaryBinding(includes))}})
	}
	return envOptions(decls)
}

// listIsSorted reports whether no element is greater than its successor.
func listIsSorted(v ref.Val) ref.Val {
	it, ok := v.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	var prev traits.Comparer
	for i := it.Iterator(); i.HasNext() == types.True; {
		next := i.Next()
		c, ok := next.(traits.Comparer)
		if !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		if prev != nil && prev.Compare(next) == types.IntOne {
			return types.False
		}
		prev = c
	}
	return types.True
}

// listSum adds the elements of a list to zero.
func listSum(zero, v ref.Val) ref.Val {
	it, ok := v.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(v)
	}
	acc := zero.(traits.Adder)
	for i := it.Iterator(); i.HasNext() == types.True; {
		next := i.Next()
		if _, ok := next.(traits.Adder); !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		s := acc.Add(next)
		a, ok := s.(traits.Adder)
		if !ok {
			return types.MaybeNoSuchOverloadErr(s)
		}
		acc = a
	}
	return acc.(ref.Val)
}

// listExtreme returns the function that picks the element that compares to
// the current candidate as prefer (min: candidate > next, max: candidate <
// next); the first such element wins ties.
func listExtreme(name string, prefer ref.Val) func(ref.Val) ref.Val {
	return func(v ref.Val) ref.Val {
		it, ok := v.(traits.Iterable)
		if !ok {
			return types.MaybeNoSuchOverloadErr(v)
		}
		var best traits.Comparer
		for i := it.Iterator(); i.HasNext() == types.True; {
			next := i.Next()
			c, ok := next.(traits.Comparer)
			if !ok {
				return types.MaybeNoSuchOverloadErr(next)
			}
			if best == nil || best.Compare(next) == prefer {
				best = c
			}
		}
		if best == nil {
			return types.NewErr("%s called on empty list", name)
		}
		return best.(ref.Val)
	}
}

// listIndex returns indexOf, or with last lastIndexOf: the index of the
// first (last) element equal to item, or -1.
func listIndex(last bool) func(list, item ref.Val) ref.Val {
	return func(list, item ref.Val) ref.Val {
		l, ok := list.(traits.Lister)
		if !ok {
			return types.MaybeNoSuchOverloadErr(list)
		}
		n := l.Size().(types.Int)
		for i := range n {
			if last {
				i = n - 1 - i
			}
			if l.Get(i).Equal(item) == types.True {
				return i
			}
		}
		return types.Int(-1)
	}
}

// includes reports whether a list target holds arg, or whether a non-list
// target equals arg.
func includes(target, arg ref.Val) ref.Val {
	if l, ok := target.(traits.Lister); ok {
		for i := l.Iterator(); i.HasNext() == types.True; {
			if i.Next().Equal(arg) == types.True {
				return types.True
			}
		}
		return types.False
	}
	return types.Bool(target.Equal(arg) == types.True)
}
