package jsonpath

import (
	"errors"
	"fmt"
	"reflect"
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

func toOperand(v any) (operand, error) {
	switch x := v.(type) {
	case string:
		return operand{kind: stringKind, s: x}, nil
	case int64:
		return operand{kind: intKind, i: x}, nil
	case int:
		return operand{kind: intKind, i: int64(x)}, nil
	case float64:
		return operand{kind: floatKind, f: x}, nil
	case bool:
		return operand{kind: boolKind, b: x}, nil
	case uint8:
		return operand{kind: uintKind, u: uint64(x)}, nil
	case nil, NoValue:
		return operand{}, errBadComparisonType
	}
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

func operands(a, b any) (x, y operand, err error) {
	if x, err = toOperand(a); err != nil {
		return x, y, err
	}
	y, err = toOperand(b)
	return x, y, err
}

func equal(a, b any) (bool, error) {
	x, y, err := operands(a, b)
	if err != nil {
		return false, err
	}
	if x.kind != y.kind {
		switch {
		case x.kind == intKind && y.kind == uintKind:
			return x.i >= 0 && uint64(x.i) == y.u, nil
		case x.kind == uintKind && y.kind == intKind:
			return y.i >= 0 && x.u == uint64(y.i), nil
		}
		return false, errBadComparison
	}
	switch x.kind {
	case boolKind:
		return x.b == y.b, nil
	case complexKind:
		return x.c == y.c, nil
	case floatKind:
		return x.f == y.f, nil
	case intKind:
		return x.i == y.i, nil
	case stringKind:
		return x.s == y.s, nil
	default:
		return x.u == y.u, nil
	}
}

func less(a, b any) (bool, error) {
	x, y, err := operands(a, b)
	if err != nil {
		return false, err
	}
	if x.kind != y.kind {
		switch {
		case x.kind == intKind && y.kind == uintKind:
			return x.i < 0 || uint64(x.i) < y.u, nil
		case x.kind == uintKind && y.kind == intKind:
			return y.i >= 0 && x.u < uint64(y.i), nil
		}
		return false, errBadComparison
	}
	switch x.kind {
	case boolKind, complexKind:
		return false, errBadComparisonType
	case floatKind:
		return x.f < y.f, nil
	case intKind:
		return x.i < y.i, nil
	case stringKind:
		return x.s < y.s, nil
	default:
		return x.u < y.u, nil
	}
}

// compare applies a filter operator.
func compare(op string, a, b any) (bool, error) {
	switch op {
	case "==":
		return equal(a, b)
	case "!=":
		eq, err := equal(a, b)
		return !eq, err
	case "<":
		return less(a, b)
	case "<=":
		lt, err := less(a, b)
		if lt || err != nil {
			return lt, err
		}
		return equal(a, b)
	case ">":
		le, err := compare("<=", a, b)
		return !le && err == nil, err
	case ">=":
		lt, err := less(a, b)
		return !lt && err == nil, err
	}
	return false, fmt.Errorf("unrecognized filter operator %s", op)
}
