package jsonpath

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
)

// The comparison rules are those of text/template's eq, lt, ...: operands
// must be of the same basic kind, except that signed and unsigned integers
// compare with each other. So 1 (an integer literal) equals int64(1) but
// not float64(1).

var (
	errBadComparisonType = errors.New("invalid type for comparison")
	errBadComparison     = errors.New("incompatible types for comparison")
)

type basicKind int

const (
	invalidKind basicKind = iota
	boolKind
	complexKind
	intKind
	floatKind
	stringKind
	uintKind
)

// operand is a comparable scalar, decomposed by kind.
type operand struct {
	kind basicKind
	b    bool
	i    int64
	u    uint64
	f    float64
	c    complex128
	s    string
}

// toOperand decomposes v; nil, NoValue and other values that are not
// scalars have no kind.
func toOperand(v any) (operand, error) {
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Bool:
		return operand{kind: boolKind, b: r.Bool()}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return operand{kind: intKind, i: r.Int()}, nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return operand{kind: uintKind, u: r.Uint()}, nil
	case reflect.Float32, reflect.Float64:
		return operand{kind: floatKind, f: r.Float()}, nil
	case reflect.Complex64, reflect.Complex128:
		return operand{kind: complexKind, c: r.Complex()}, nil
	case reflect.String:
		return operand{kind: stringKind, s: r.String()}, nil
	}
	return operand{}, errBadComparisonType
}

// order reports whether a is less than b and whether they are equal, as
// text/template's lt and eq decide; ordered is false for booleans and
// complex numbers, which only equality compares.
func order(a, b any) (lt, eq, ordered bool, err error) {
	x, err := toOperand(a)
	if err != nil {
		return false, false, false, err
	}
	y, err := toOperand(b)
	if err != nil {
		return false, false, false, err
	}
	switch {
	case x.kind == intKind && y.kind == uintKind:
		return x.i < 0 || uint64(x.i) < y.u, x.i >= 0 && uint64(x.i) == y.u, true, nil
	case x.kind == uintKind && y.kind == intKind:
		return y.i >= 0 && x.u < uint64(y.i), y.i >= 0 && x.u == uint64(y.i), true, nil
	case x.kind != y.kind:
		return false, false, false, errBadComparison
	}
	switch x.kind {
	case boolKind:
		return false, x.b == y.b, false, nil
	case complexKind:
		return false, x.c == y.c, false, nil
	case floatKind:
		return x.f < y.f, x.f == y.f, true, nil
	case intKind:
		return x.i < y.i, x.i == y.i, true, nil
	case stringKind:
		return x.s < y.s, x.s == y.s, true, nil
	}
	return x.u < y.u, x.u == y.u, true, nil
}

// compare applies a filter operator.
func compare(op string, a, b any) (bool, error) {
	if !slices.Contains([]string{"==", "!=", "<", "<=", ">", ">="}, op) {
		return false, fmt.Errorf("unrecognized filter operator %s", op)
	}
	lt, eq, ordered, err := order(a, b)
	switch {
	case err != nil:
		return false, err
	case op == "==":
		return eq, nil
	case op == "!=":
		return !eq, nil
	case !ordered:
		return false, errBadComparisonType
	case op == "<":
		return lt, nil
	case op == "<=":
		return lt || eq, nil
	case op == ">":
		return !lt && !eq, nil
	}
	return !lt, nil
}
