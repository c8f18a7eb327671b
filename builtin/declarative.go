package builtin

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"unicode/utf8"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/k8snames"
)

// rule is one declarative validation tag of a field (+k8s:minimum=0, in
// k8s.io/api) that the release makes authoritative and a schema can
// express, as tools/builtingen writes it.
type rule struct {
	Minimum   *int64   `json:"minimum"`
	Maximum   *int64   `json:"maximum"`
	MaxItems  *int     `json:"maxItems"`
	MaxLength *int     `json:"maxLength"`
	Format    string   `json:"format"`
	Enum      []string `json:"enum"`
	Immutable bool     `json:"immutable"`
	Each      bool     `json:"each"`     // for each item of a list, or value of a map
	Subfield  string   `json:"subfield"` // for this field of the value
	Pointer   bool     `json:"pointer"`  // a pointer field: its zero value is checked too
}

// declarative checks the rules of one field, with the texts of
// k8s.io/apimachinery/pkg/api/validate. old is the field's old value on
// an update (hasOld), where the API server checks only what changed
// (declarative validation ratchets) and refuses a change of an immutable
// field. Where the API server's verdict depends on what this package
// cannot see (defaults, the zero value of a non-pointer field, which
// means "unset"), nothing is refused.
func (s *schemaWalk) declarative(rules []rule, v, old any, hasOld bool, path *crdschema.Path) {
	if s.update && hasOld && reflect.DeepEqual(v, old) {
		return
	}
	for _, r := range rules {
		v, old, hasOld, path := v, old, hasOld, path
		if r.Subfield != "" {
			m, _ := v.(map[string]any)
			om, _ := old.(map[string]any)
			v, path = m[r.Subfield], path.Child(r.Subfield)
			old, hasOld = om[r.Subfield], hasOld && om != nil
			r.Pointer = false // not known: the zero value is not checked
			if s.update && hasOld && reflect.DeepEqual(v, old) {
				continue
			}
		}
		if !r.Each {
			s.apply(r, v, old, hasOld, path)
			continue
		}
		r.Pointer = false
		switch x := v.(type) {
		case []any:
			ol, _ := old.([]any)
			for i, e := range x {
				var oe any
				if i < len(ol) {
					oe = ol[i]
				}
				if !(s.update && i < len(ol) && reflect.DeepEqual(e, oe)) {
					s.apply(r, e, nil, false, path.Index(i))
				}
			}
		case map[string]any:
			om, _ := old.(map[string]any)
			for _, k := range slices.Sorted(maps.Keys(x)) {
				if oe, ok := om[k]; !(s.update && ok && reflect.DeepEqual(x[k], oe)) {
					s.apply(r, x[k], nil, false, path.Key(k))
				}
			}
		}
	}
}

// apply checks one rule on one value.
func (s *schemaWalk) apply(r rule, v, old any, hasOld bool, path *crdschema.Path) {
	if v == nil || (!r.Pointer && isZero(v)) {
		return
	}
	add := func(e *crdschema.Error) { s.declErrs = append(s.declErrs, e) }
	if r.Minimum != nil || r.Maximum != nil {
		n, ok := integer(v)
		if !ok {
			return
		}
		if r.Minimum != nil && n < *r.Minimum {
			add(crdschema.Invalid(path, n, fmt.Sprintf("must be greater than or equal to %d", *r.Minimum)))
		}
		if r.Maximum != nil && n > *r.Maximum {
			add(crdschema.Invalid(path, n, fmt.Sprintf("must be less than or equal to %d", *r.Maximum)))
		}
	}
	if r.MaxItems != nil {
		if l, ok := v.([]any); ok && len(l) > *r.MaxItems {
			add(crdschema.TooMany(path, len(l), *r.MaxItems))
		}
	}
	str, isString := v.(string)
	if r.MaxLength != nil && isString && utf8.RuneCountInString(str) > *r.MaxLength {
		e := crdschema.TooLong(path, str, *r.MaxLength)
		e.Detail = fmt.Sprintf("may not be more than %d characters", *r.MaxLength)
		add(e)
	}
	if r.Format != "" && isString {
		var msgs []string
		switch r.Format {
		case "k8s-short-name":
			msgs = k8snames.IsDNS1123Label(str)
		case "k8s-long-name":
			msgs = k8snames.IsDNS1123Subdomain(str)
		case "k8s-label-key":
			msgs = k8snames.IsQualifiedName(str)
		}
		for _, m := range msgs {
			add(crdschema.Invalid(path, str, m))
		}
	}
	if r.Enum != nil && isString && !slices.Contains(r.Enum, str) {
		add(crdschema.NotSupported(path, str, r.Enum))
	}
	if r.Immutable && s.update && hasOld && old != nil && scalarValue(v) && scalarValue(old) && !sameScalar(v, old) {
		add(crdschema.Invalid(path, nil, "field is immutable"))
	}
}

// isZero reports whether v is the zero value of its Go field.
func isZero(v any) bool {
	switch x := v.(type) {
	case string:
		return x == ""
	case bool:
		return !x
	case int64:
		return x == 0
	case float64:
		return x == 0
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// integer returns a whole number (the decoding layer has refused any
// other value of an integer field).
func integer(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case float64:
		if integral(x, false) {
			return int64(x), true
		}
	}
	return 0, false
}

func scalarValue(v any) bool {
	switch v.(type) {
	case string, bool, int64, float64:
		return true
	}
	return false
}

// sameScalar compares two decoded scalars as their Go field would hold
// them (1 and 1.0 are the same integer).
func sameScalar(a, b any) bool {
	if x, ok := integer(a); ok {
		if y, ok := integer(b); ok {
			return x == y
		}
	}
	return reflect.DeepEqual(a, b)
}
