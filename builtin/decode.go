package builtin

import (
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/cellib"
)

// decoder walks an object as the API server's JSON decoder reads it into
// the kind's Go types: it keeps the first decoding error (the one the
// API server reports) and every unknown field. Keys are visited in sorted
// order; where a body has several decoding errors, the API server reports
// the first in the body's order, which a decoded object no longer has.
type decoder struct {
	err        error
	unknown    []string
	duplicates []string // keys given twice in a body, in its order
	strict     []string // the strict decoding errors, in the body's order
}

// typeError is the text of Go's json.UnmarshalTypeError as the API
// server reports it (without "json: ").
func typeError(value, structName, field, goType string) error {
	if structName != "" || field != "" {
		return errors.New("cannot unmarshal " + value + " into Go struct field " + structName + "." + field + " of type " + goType)
	}
	return errors.New("json: cannot unmarshal " + value + " into Go value of type " + goType)
}

// jsonKind names a value's JSON type as Go's decoder does in its errors.
func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "bool"
	case map[string]any, *bodyObject:
		return "object"
	case []any:
		return "array"
	case int64, float64, number:
		return "number"
	}
	return "value"
}

// numberLiteral writes a number as the body most likely wrote it.
func numberLiteral(v any) string {
	switch v := v.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s
	}
	return ""
}

// goTypeOf names the Go type of a node as the decoder's errors do.
func goTypeOf(n *node) string {
	switch n.special {
	case quantity:
		return "resource.Quantity"
	case intOrString:
		return "intstr.IntOrString"
	case timeValue:
		return "v1.Time"
	case microTime:
		return "v1.MicroTime"
	}
	if n.ref != "" && n.typ == "object" {
		return n.goType
	}
	switch n.typ {
	case "string":
		if n.format == "byte" {
			return "[]uint8"
		}
		return "string"
	case "boolean":
		return "bool"
	case "integer":
		if n.format == "int32" {
			return "int32"
		}
		return "int64"
	case "number":
		return "float64"
	case "array":
		if n.items != nil {
			return "[]" + goTypeOf(n.items)
		}
		return "[]interface {}"
	case "object":
		if n.additional != nil {
			return "map[string]" + goTypeOf(n.additional)
		}
	}
	return "interface {}"
}

// structName is the name Go's decoder gives the struct a field is in.
func structName(n *node) string {
	t := n.goType
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		return t[i+1:]
	}
	return t
}

// walk decodes v into n. structName and field are the decoder's error
// context: the innermost struct and the dotted field names from the root.
// sp is the path as the strict decoding errors write it (map keys after
// a dot).
func (d *decoder) walk(v any, n *node, path *crdschema.Path, sname, field, sp string) {
	if v == nil || n == nil {
		return // null decodes to the zero value anywhere
	}
	switch n.special {
	case anyValue:
		return
	case quantity:
		var s string
		switch v := v.(type) {
		case string:
			s = v
		case int64, float64:
			s = numberLiteral(v)
		case number:
			s = string(v)
		default:
			d.fail(cellib.CheckQuantity("{")) // not a quantity's form
			return
		}
		if err := cellib.CheckQuantity(strings.TrimSpace(s)); err != nil {
			d.fail(err)
		}
		return
	case intOrString:
		// IntOrString's UnmarshalJSON decodes a non-string into an
		// int32; its errors carry the field's context.
		if _, ok := v.(string); !ok {
			d.integer(v, true, sname, field)
		}
		return
	case timeValue, microTime:
		s, ok := v.(string)
		if !ok {
			d.fail(typeError(jsonKind(v), "", "", "string"))
			return
		}
		layout := time.RFC3339
		if n.special == microTime {
			layout = "2006-01-02T15:04:05.000000Z07:00"
		}
		if _, err := time.Parse(layout, s); err != nil {
			d.fail(err)
		}
		return
	}
	mismatch := func() { d.fail(typeError(jsonKind(v), sname, field, goTypeOf(n))) }
	switch n.typ {
	case "object":
		keys, vals, ok := entries(v)
		if !ok {
			mismatch()
			return
		}
		dups := map[string]bool{}
		seen := make(map[string]bool, len(keys))
		for i, k := range keys {
			ksp := k
			if sp != "" {
				ksp = sp + "." + k
			}
			if seen[k] && !dups[k] {
				dups[k] = true
				d.duplicates = append(d.duplicates, ksp)
				d.strict = append(d.strict, fmt.Sprintf("duplicate field %q", ksp))
			}
			seen[k] = true
			if n.props == nil && n.additional != nil {
				d.walk(vals[i], n.additional, path.Key(k), sname, field, ksp)
				continue
			}
			p, ok := n.props[k]
			if !ok {
				if !n.preserve && !dups[k] {
					d.unknown = append(d.unknown, path.Child(k).String())
					d.strict = append(d.strict, fmt.Sprintf("unknown field %q", ksp))
				}
				continue
			}
			f := k
			if field != "" {
				f = field + "." + k
			}
			d.walk(vals[i], p, path.Child(k), structName(n), f, ksp)
		}
	case "array":
		l, ok := v.([]any)
		if !ok {
			mismatch()
			return
		}
		for i, e := range l {
			d.walk(e, n.items, path.Index(i), sname, field, sp+"["+strconv.Itoa(i)+"]")
		}
	case "string":
		s, ok := v.(string)
		if !ok {
			mismatch()
			return
		}
		if n.format == "byte" {
			if _, err := base64.StdEncoding.DecodeString(s); err != nil {
				d.fail(err)
			}
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			mismatch()
		}
	case "integer":
		d.integer(v, n.format == "int32", sname, field)
	case "number":
		switch x := v.(type) {
		case number:
			if _, err := strconv.ParseFloat(string(x), 64); err != nil {
				d.fail(typeError("number "+string(x), sname, field, goTypeOf(n)))
			}
		case int64, float64:
		default:
			mismatch()
		}
	}
}

// fail keeps err unless an error came before.
func (d *decoder) fail(err error) {
	if d.err == nil {
		d.err = err
	}
}

// integer decodes v into an int64, or with int32 into an int32, as
// walk's integer fields.
func (d *decoder) integer(v any, int32 bool, sname, field string) {
	goType, bits := "int64", 64
	if int32 {
		goType, bits = "int32", 32
	}
	switch x := v.(type) {
	case int64:
		if int32 && (x < math.MinInt32 || x > math.MaxInt32) {
			d.fail(typeError("number "+numberLiteral(x), sname, field, goType))
		}
	case float64:
		if !integral(x, int32) {
			d.fail(typeError("number "+numberLiteral(x), sname, field, goType))
		}
	case number:
		if _, err := strconv.ParseInt(string(x), 10, bits); err != nil {
			d.fail(typeError("number "+string(x), sname, field, goType))
		}
	default:
		d.fail(typeError(jsonKind(v), sname, field, goType))
	}
}

// entries are the keys and values of an object: of a body's object in
// its order (duplicates included), of a decoded one sorted (the order
// kubectl sends, encoding a decoded file).
func entries(v any) ([]string, []any, bool) {
	switch x := v.(type) {
	case *bodyObject:
		return x.keys, x.vals, true
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		vals := make([]any, len(keys))
		for i, k := range keys {
			vals[i] = x[k]
		}
		return keys, vals, true
	}
	return nil, nil, false
}

// integral reports whether a float is a whole number in range. A decoded
// object no longer says whether 1.0 was written 1 or 1.0 (the YAML of
// kubectl may send either), so a whole float is given the benefit of the
// doubt: only a fraction or a value out of range is refused.
func integral(f float64, int32Range bool) bool {
	if f != math.Trunc(f) || math.IsInf(f, 0) {
		return false
	}
	if int32Range {
		return f >= math.MinInt32 && f <= math.MaxInt32
	}
	return f >= -(1<<63) && f < 1<<63
}
