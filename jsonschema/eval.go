package jsonschema

import (
	"maps"
	"regexp"
	"slices"
	"unicode/utf8"
)

// satisfies evaluates the schemas this package writes inside junctors on
// a value, for the keywords that carry over from value validations: enum,
// type, pattern, lengths, not, allOf, anyOf, oneOf, properties and
// required. known is false when the schema uses anything else.
func satisfies(s schema, v any) (ok, known bool) {
	for k, x := range s {
		switch k {
		case "description", "default", "x-kubernetes-validations":
		case "enum":
			if !slices.ContainsFunc(x.([]any), func(e any) bool { return equal(e, v) }) {
				return false, true
			}
		case "type":
			if !slices.ContainsFunc(types(x), func(t any) bool { return hasType(t.(string), v) }) {
				return false, true
			}
		case "pattern":
			str, isStr := v.(string)
			re, err := regexp.Compile(x.(string))
			if err != nil {
				return false, false
			}
			if isStr && !re.MatchString(str) {
				return false, true
			}
		case "minLength", "maxLength":
			str, isStr := v.(string)
			if !isStr {
				continue
			}
			n := int64(utf8.RuneCountInString(str))
			if k == "minLength" && n < x.(int64) || k == "maxLength" && n > x.(int64) {
				return false, true
			}
		case "not":
			ok, known := satisfies(x.(schema), v)
			if !known {
				return false, false
			}
			if ok {
				return false, true
			}
		case "allOf", "anyOf", "oneOf":
			n := 0
			for _, sub := range x.([]any) {
				ok, known := satisfies(sub.(schema), v)
				if !known {
					return false, false
				}
				if ok {
					n++
				}
			}
			all := len(x.([]any))
			if k == "allOf" && n != all || k == "anyOf" && n == 0 || k == "oneOf" && n != 1 {
				return false, true
			}
		case "properties":
			m, isObj := v.(map[string]any)
			if !isObj {
				continue
			}
			for name, sub := range x.(map[string]any) {
				if pv, ok := m[name]; ok {
					ok, known := satisfies(sub.(schema), pv)
					if !known || !ok {
						return ok, known
					}
				}
			}
		case "required":
			m, isObj := v.(map[string]any)
			if !isObj {
				continue
			}
			for _, r := range types(x) {
				if _, ok := m[r.(string)]; !ok {
					return false, true
				}
			}
		default:
			return false, false
		}
	}
	return true, true
}

func hasType(t string, v any) bool {
	switch v.(type) {
	case nil:
		return t == "null"
	case bool:
		return t == "boolean"
	case string:
		return t == "string"
	case int64:
		return t == "integer" || t == "number"
	case float64:
		return t == "number"
	case []any:
		return t == "array"
	case map[string]any:
		return t == "object"
	}
	return false
}

// equal compares decoded JSON values; integers and floats of the same
// value are equal, as in JSON Schema.
func equal(a, b any) bool {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		return ok && maps.EqualFunc(a, b, equal)
	case []any:
		b, ok := b.([]any)
		return ok && slices.EqualFunc(a, b, equal)
	case int64:
		switch b := b.(type) {
		case int64:
			return a == b
		case float64:
			return float64(a) == b
		}
		return false
	case float64:
		switch b := b.(type) {
		case int64:
			return a == float64(b)
		case float64:
			return a == b
		}
		return false
	}
	return a == b
}
