package jsonvalue

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
)

// GoSyntax renders v as fmt's %#v prints it, the way Kubernetes 1.33
// printed the bad value of a field error that is not a number, boolean,
// string or Stringer:
//
//	map[string]interface {}{"labels":map[string]interface {}{"a":"x", "b":42}}
//
// It walks the JSON values (map[string]any, []any, string, int64, float64,
// bool, nil) itself, at any depth: map keys sorted, entries and elements
// separated by ", ", a nil inside a map or list as interface {}(nil),
// strings quoted by strconv.Quote, floats in their shortest form. A value
// of any other type, at the top or nested, is printed by fmt itself, as
// %#v prints it inside an interface value.
func GoSyntax(v any) string {
	if v == nil {
		return "<nil>" // as fmt prints a nil interface
	}
	return string(appendGoSyntax(nil, v))
}

func appendGoSyntax(b []byte, v any) []byte {
	switch t := v.(type) {
	case nil:
		return append(b, "interface {}(nil)"...)
	case string:
		return strconv.AppendQuote(b, t)
	case bool:
		return strconv.AppendBool(b, t)
	case int64:
		return strconv.AppendInt(b, t, 10)
	case float64:
		if math.IsInf(t, 0) || math.IsNaN(t) {
			return fmt.Appendf(b, "%#v", t)
		}
		return strconv.AppendFloat(b, t, 'g', -1, 64)
	case map[string]any:
		b = append(b, "map[string]interface {}"...)
		if t == nil {
			return append(b, "(nil)"...)
		}
		b = append(b, '{')
		for i, k := range slices.Sorted(maps.Keys(t)) {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = strconv.AppendQuote(b, k)
			b = append(b, ':')
			b = appendGoSyntax(b, t[k])
		}
		return append(b, '}')
	case []any:
		b = append(b, "[]interface {}"...)
		if t == nil {
			return append(b, "(nil)"...)
		}
		b = append(b, '{')
		for i, e := range t {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendGoSyntax(b, e)
		}
		return append(b, '}')
	}
	return fmt.Appendf(b, "%#v", v)
}
