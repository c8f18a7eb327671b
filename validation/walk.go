package validation

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/ratchet"
)

// state collects the failures of one validation. Sub-validations append to
// the same list; a junctor remembers where its branches' failures start so
// that it can tell which branches passed and keep only the failures that
// the API server keeps.
type state struct {
	fails    []failure
	stack    []pathElem
	stackBuf [32]pathElem

	// For updates with ratcheting: the correlation of the value being
	// validated with the old object (nil when there is none), and whether
	// it is the root's.
	corr     *ratchet.Correlation
	corrRoot bool
	warnings bool // some failures were turned into warnings
}

func (st *state) add(f failure) { st.fails = append(st.fails, f) }

// kinds of values, as the validator tells them apart.
const (
	kindNull = iota
	kindBool
	kindString
	kindInt
	kindFloat
	kindArray
	kindObject
	kindOther
)

func kindOf(v any) int {
	switch v.(type) {
	case nil:
		return kindNull
	case bool:
		return kindBool
	case string:
		return kindString
	case int64:
		return kindInt
	case float64:
		return kindFloat
	case []any:
		return kindArray
	case map[string]any:
		return kindObject
	}
	return kindOther
}

// validate checks v against n and returns the match count, the API
// server's measure of how well a value fits a schema, which decides which
// failing anyOf or oneOf branch is reported. The count follows the
// validator's bookkeeping exactly: one per check that applies, plus what
// the checks themselves count.
func (n *node) validate(v any, st *state) int {
	v = normalize(v)
	if num, ok := v.(json.Number); ok {
		var done bool
		if v, done = n.fromJSONNumber(num, st); done {
			return 1
		}
	}
	kind := kindOf(v)
	if kind == kindNull {
		mc := 0
		if len(n.types) > 0 && !n.nullable {
			st.add(invalidType(st.path(), n.typeList, "null"))
		} else {
			mc = 1
		}
		if len(n.enum) > 0 {
			st.add(n.enumFailure(st, nil))
		}
		return mc
	}

	mc := 0
	if n.checkType {
		mc += 1 + n.validateType(v, kind, st)
	}
	mc += 1 + n.validateJunctors(v, st)
	if kind == kindString {
		n.validateString(v.(string), st)
		mc++
		if n.formatFunc != nil {
			if s := v.(string); !n.formatFunc(s) {
				st.add(invalidType(st.path(), n.format, s))
			}
			mc++
		}
	}
	if kind == kindInt || kind == kindFloat {
		n.validateNumber(v, kind, st)
		mc += 2
	}
	if kind == kindArray {
		mc += 1 + n.validateArray(v.([]any), st)
	}
	if len(n.enum) > 0 && !n.enumMatches(v) {
		st.add(n.enumFailure(st, v))
	}
	mc++
	if kind == kindObject {
		mc += 1 + n.validateObject(v.(map[string]any), st)
	}
	return mc + 1
}

// fromJSONNumber turns a json.Number (of a decoder with UseNumber) into
// the number the schema's type asks for. Under a schema that is not
// numeric, the API server's validator takes it for a string that is not
// one, and reports only that.
func (n *node) fromJSONNumber(num json.Number, st *state) (any, bool) {
	var x any
	var err error
	switch {
	case n.hasType("integer"):
		x, err = num.Int64()
	case n.hasType("number"):
		x, err = num.Float64()
	default:
		st.add(failure{code: codeInvalidType, path: st.path(), msg: st.path() + " in body must be of type string", value: num})
		return nil, true
	}
	if err != nil {
		st.add(failure{path: st.path(), msg: fmt.Sprintf("invalid type conversion in %s: %v ", st.path(), err)})
		return nil, true
	}
	return x, false
}

func invalidType(path, typeName, actual string) failure {
	return failure{
		code:  codeInvalidType,
		path:  path,
		msg:   fmt.Sprintf("%s in body must be of type %s: %q", path, typeName, actual),
		value: actual,
	}
}

func (n *node) hasType(t string) bool { return slices.Contains(n.types, t) }

// validateType checks the Go kind of v against the schema's type and, for
// non-string values, its format. It counts 1 when v passes.
func (n *node) validateType(v any, kind int, st *state) int {
	var schType, format string
	switch kind {
	case kindBool:
		schType = "boolean"
	case kindString:
		schType = "string"
	case kindInt:
		schType, format = "integer", "int64"
	case kindFloat:
		schType, format = "number", "float64"
	case kindArray:
		schType = "array"
	case kindObject:
		schType = "object"
	}
	isFloatInt := kind == kindFloat && n.isJSONInteger(v.(float64)) && n.hasType("integer")
	isIntFloat := kind == kindInt && n.hasType("number")
	if kind != kindString && kind != kindArray && n.format != "" && !n.untypedNumFormat &&
		!(n.hasType(schType) || format == n.format || isFloatInt || isIntFloat) {
		st.add(invalidType(st.path(), n.format, format))
		return 0
	}
	if !(n.hasType("number") || n.hasType("integer")) && n.format != "" && (kind == kindString || kind == kindArray) {
		return 1
	}
	if !(n.hasType(schType) || isFloatInt || isIntFloat) {
		st.add(invalidType(st.path(), n.typeList, schType))
		return 0
	}
	return 1
}

// isJSONInteger says whether f is an integer that JSON can carry exactly,
// as the API server's validator of n's release decides it.
func (n *node) isJSONInteger(f float64) bool {
	if n.legacyInteger {
		return isJSONIntegerBefore137(f)
	}
	return isJSONInteger(f)
}

// isJSONInteger says whether f is an integer that JSON can carry exactly,
// allowing a relative error of 1e-9 of the nearest integer, as the API
// server's validator does from 1.37 on (go-openapi/swag v0.25 and later).
func isJSONInteger(f float64) bool {
	const maxJSON = float64(1<<53 - 1)
	if math.IsNaN(f) || math.IsInf(f, 0) || f < -maxJSON || f > maxJSON {
		return false
	}
	r := math.Round(f)
	if f == r {
		return true
	}
	if r == 0 {
		return false
	}
	diff := math.Abs(f - r)
	if diff == 0 {
		return true
	}
	return diff < 1e-9*math.Abs(r)
}

// isJSONIntegerBefore137 is isJSONInteger as the API server's validator
// had it before 1.37 (go-openapi/swag v0.23): f is compared with its
// truncation converted to uint64 as amd64 converts it (a negative value
// wraps around, so that a negative f is whole only when it is exactly an
// integer), within a relative error of 1e-9 of the sum of both
// magnitudes. So 11.999999999999998 (13.2/1.1) is not whole, and
// -112.99999999999999 (-1.13/0.01) is not either.
func isJSONIntegerBefore137(f float64) bool {
	const maxJSON = float64(1<<53 - 1)
	if math.IsNaN(f) || math.IsInf(f, 0) || f < -maxJSON || f > maxJSON {
		return false
	}
	g := float64(uint64(int64(f)))
	diff := math.Abs(f - g)
	switch {
	case f == g, f == float64(int64(f)):
		return true
	case f == 0 || g == 0 || diff < math.SmallestNonzeroFloat64:
		return diff < 1e-9*math.SmallestNonzeroFloat64
	}
	return diff/math.Min(math.Abs(f)+math.Abs(g), math.MaxFloat64) < 1e-9
}

// validateString checks maxLength, minLength and pattern, and reports only
// the first that fails. Lengths count runes.
func (n *node) validateString(s string, st *state) {
	if n.maxLength != nil || n.minLength != nil {
		l := int64(utf8.RuneCountInString(s))
		if n.maxLength != nil && l > *n.maxLength {
			path := st.path()
			st.add(failure{code: codeTooLong, path: path, value: s, limit: *n.maxLength,
				msg: path + " in body should be at most " + strconv.FormatInt(*n.maxLength, 10) + " chars long"})
			return
		}
		if n.minLength != nil && l < *n.minLength {
			path := st.path()
			st.add(failure{code: codeTooShort, path: path, value: s, limit: *n.minLength,
				msg: path + " in body should be at least " + strconv.FormatInt(*n.minLength, 10) + " chars long"})
			return
		}
	}
	if n.pattern != "" {
		if n.reErr != nil {
			path := st.path()
			st.add(failure{code: codePattern, path: path, value: s,
				msg: path + " in body should match '" + n.pattern + ", but pattern is invalid: " + n.reErr.Error() + "'"})
			return
		}
		if !n.re.MatchString(s) {
			path := st.path()
			st.add(failure{code: codePattern, path: path, value: s,
				msg: path + " in body should match '" + n.pattern + "'"})
		}
	}
}

// validateArray checks the items, then minItems, maxItems and uniqueItems.
func (n *node) validateArray(a []any, st *state) int {
	mc := 0
	if n.items != nil {
		for i, x := range a {
			mc += st.child(n.items, pathElem{index: i, kind: pathIndex}, x)
		}
	}
	size := int64(len(a))
	if n.minItems != nil && size < *n.minItems {
		path := st.path()
		st.add(failure{code: codeMinItems, path: path, value: size, limit: *n.minItems,
			msg: fmt.Sprintf("%s in body should have at least %d items", path, *n.minItems)})
	}
	if n.maxItems != nil && size > *n.maxItems {
		path := st.path()
		st.add(failure{code: codeMaxItems, path: path, value: size, limit: *n.maxItems,
			msg: fmt.Sprintf("%s in body should have at most %d items", path, *n.maxItems)})
	}
	if n.uniqueItems && hasDuplicates(a) {
		path := st.path()
		st.add(failure{code: codeUnique, path: path, msg: path + " in body shouldn't contain duplicates"})
	}
	return mc + 1
}

func hasDuplicates(a []any) bool {
	for i := 1; i < len(a); i++ {
		for j := 0; j < i; j++ {
			if jsonvalue.Equal(a[i], a[j]) {
				return true
			}
		}
	}
	return false
}

// validateObject checks minProperties, maxProperties, additional
// properties, the properties and required. It counts what the properties
// count.
func (n *node) validateObject(m map[string]any, st *state) int {
	mc := 0
	size := int64(len(m))
	if n.minProperties != nil && size < *n.minProperties {
		path := st.path()
		st.add(failure{code: codeTooFewProps, path: path, value: size, limit: *n.minProperties,
			msg: fmt.Sprintf("%s in body should have at least %d properties", path, *n.minProperties)})
	}
	if n.maxProperties != nil && size > *n.maxProperties {
		path := st.path()
		st.add(failure{code: codeTooManyProps, path: path, value: size, limit: *n.maxProperties,
			msg: fmt.Sprintf("%s in body should have at most %d properties", path, *n.maxProperties)})
	}
	// The API server visits the keys of an object in Go's map order, so
	// the order of the failures of two keys is not stable there; here the
	// failures of the keys of each loop are put in key order (byKey).
	var segs []keySegment
	if n.noAdditional || n.additional != nil {
		for k, x := range m {
			if _, ok := n.properties[k]; ok {
				continue
			}
			from := len(st.fails)
			if n.noAdditional {
				path := st.path()
				st.add(failure{code: codeUnallowedProp, path: path, value: k,
					msg: path + "." + k + " in body is a forbidden property"})
			} else {
				mc += st.child(n.additional, pathElem{name: k, kind: pathKey}, x)
			}
			if len(st.fails) > from {
				segs = append(segs, keySegment{key: k, from: from, to: len(st.fails)})
			}
		}
		segs = st.byKey(segs)
	}
	if len(n.properties) > 0 {
		if len(m) < len(n.propertyNames) {
			// Fewer keys than properties: look the keys up.
			for k, x := range m {
				if pn, ok := n.properties[k]; ok {
					from := len(st.fails)
					mc += st.child(pn, pathElem{name: k, kind: pathProperty}, x)
					if len(st.fails) > from {
						segs = append(segs, keySegment{key: k, from: from, to: len(st.fails)})
					}
				}
			}
			st.byKey(segs)
		} else {
			for _, k := range n.propertyNames {
				if x, ok := m[k]; ok {
					mc += st.child(n.properties[k], pathElem{name: k, kind: pathProperty}, x)
				}
			}
		}
	}
	for _, k := range n.required {
		if _, ok := m[k]; !ok {
			path := st.keyPath(k)
			st.add(failure{code: codeRequired, path: path, msg: path + " in body is required"})
		}
	}
	return mc
}

// keySegment is the failures st.fails[from:to] of one key of an object.
type keySegment struct {
	key      string
	from, to int
}

// byKey reorders the failures of segs, which are adjacent and together end
// st.fails, in the order of their keys, so that the failures of an object's
// keys come in the same order whatever the map order they were found in.
// It returns segs emptied for reuse.
func (st *state) byKey(segs []keySegment) []keySegment {
	if len(segs) < 2 {
		return segs[:0]
	}
	sort.Slice(segs, func(i, j int) bool { return segs[i].key < segs[j].key })
	start := segs[0].from
	for _, s := range segs {
		start = min(start, s.from)
	}
	old := append([]failure(nil), st.fails[start:]...)
	out := st.fails[:start]
	for _, s := range segs {
		out = append(out, old[s.from-start:s.to-start]...)
	}
	st.fails = out
	return segs[:0]
}
