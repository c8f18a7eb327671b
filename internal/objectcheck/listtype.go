package objectcheck

import (
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/pathstack"
	"github.com/crdschema/crdschema/structural"
)

// ListSetsAndMaps checks the uniqueness rules of the lists in obj
// whose schema sets x-kubernetes-list-type: in a "set" every item must be
// unique, in a "map" every item must be an object with a unique
// combination of the x-kubernetes-list-map-keys fields. Like the API
// server, it reports only the second occurrence of a repeated value, and
// compares scalars by type and value (1 and 1.0 differ) but objects and
// lists by their JSON text. obj is a custom resource (the API server
// checks a whole one) or any value below one, whose schema is s.
func ListSetsAndMaps(fldPath *crdschema.Path, obj any, s *structural.Schema) crdschema.ErrorList {
	if s == nil {
		return nil
	}
	w := objectWalker{loc: pathstack.New(fldPath)}
	defer w.loc.Release()
	w.value(s, obj)
	sortErrors(w.errs)
	return w.errs
}

// objectWalker walks an object for ListSetsAndMaps and
// EmbeddedMeta, keeping its location as a stack.
type objectWalker struct {
	loc  pathstack.Stack
	errs crdschema.ErrorList
}

// path returns the path of the current location.
func (w *objectWalker) path() *crdschema.Path { return w.loc.Path() }

func (w *objectWalker) object(s *structural.Schema, obj map[string]any) {
	if s == nil || obj == nil {
		return
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		for k, v := range obj {
			if isContainer(v) {
				w.loc.Key(k)
				w.value(s.AdditionalProperties.Schema, v)
				w.loc.Pop()
			}
		}
	}
	if s.Properties != nil {
		for k, v := range obj {
			if sub, ok := s.Properties[k]; ok && sub != nil && isContainer(v) {
				w.loc.Child(k)
				w.value(sub, v)
				w.loc.Pop()
			}
		}
	}
}

// isContainer says whether v is an object or a list, the only values with
// something below them to check.
func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

func (w *objectWalker) value(s *structural.Schema, v any) {
	switch x := v.(type) {
	case []any:
		w.array(s, x)
	case map[string]any:
		w.object(s, x)
	}
}

func (w *objectWalker) array(s *structural.Schema, a []any) {
	if s.XListType != nil {
		switch *s.XListType {
		case "set":
			dups, err := repeatedItems(w, a)
			if err != nil {
				w.errs = append(w.errs, err)
			} else if len(dups) > 0 {
				fldPath := w.path()
				for _, i := range dups {
					w.errs = append(w.errs, crdschema.Duplicate(fldPath.Index(i), a[i]))
				}
			}
		case "map":
			w.errs = append(w.errs, listMap(w, s, a)...)
		}
	}
	if s.Items != nil {
		for i, x := range a {
			if isContainer(x) {
				w.loc.Index(i)
				w.value(s.Items, x)
				w.loc.Pop()
			}
		}
	}
}

// unspecifiedKey stands for a missing key field, or a null item, in a
// single-key list map; such items collide with each other.
type unspecifiedKey struct{}

// repeatedItems returns the index of the second occurrence of every value
// that occurs more than once.
// The walker w gives the path of the list for an error.
func repeatedItems(w *objectWalker, a []any) ([]int, *crdschema.Error) {
	if len(a) <= 1 {
		return nil, nil
	}
	scalars := make(map[any]int, len(a))
	var compounds map[string]int
	var dups []int
	for i, x := range a {
		switch x.(type) {
		case map[string]any, []any:
			b, err := json.Marshal(x)
			if err != nil {
				return nil, crdschema.Invalid(w.path().Index(i), x, "internal error")
			}
			if compounds == nil {
				compounds = make(map[string]int, len(a))
			}
			seen := compounds[string(b)]
			compounds[string(b)] = seen + 1
			if seen == 1 {
				dups = append(dups, i)
			}
		default:
			if !hashable(x) {
				return nil, crdschema.Invalid(w.path().Index(i), x, "internal error")
			}
			seen := scalars[x]
			scalars[x] = seen + 1
			if seen == 1 {
				dups = append(dups, i)
			}
		}
	}
	return dups, nil
}

// hashable guards the scalar map against values of unexpected Go types.
func hashable(x any) bool {
	switch x.(type) {
	case nil, string, int64, float64, bool, unspecifiedKey, int, int32, float32:
		return true
	}
	return false
}

func listMap(w *objectWalker, s *structural.Schema, a []any) crdschema.ErrorList {
	for i, x := range a {
		if _, ok := x.(map[string]any); x != nil && !ok {
			return crdschema.ErrorList{crdschema.Invalid(w.path().Index(i), x, "must be an object for an array of list-type map")}
		}
	}
	if len(a) <= 1 {
		return nil
	}
	if len(s.XListMapKeys) == 1 {
		keyField := s.XListMapKeys[0]
		keys := make([]any, 0, len(a))
		for _, x := range a {
			m, _ := x.(map[string]any)
			k, ok := m[keyField]
			if !ok {
				k = unspecifiedKey{}
			}
			keys = append(keys, k)
		}
		dups, err := repeatedItems(w, keys)
		if err != nil {
			return crdschema.ErrorList{err}
		}
		if len(dups) == 0 {
			return nil
		}
		var errs crdschema.ErrorList
		fldPath := w.path()
		for _, i := range dups {
			if _, ok := keys[i].(unspecifiedKey); ok {
				errs = append(errs, crdschema.Duplicate(fldPath.Index(i), map[string]any{}))
			} else {
				errs = append(errs, crdschema.Duplicate(fldPath.Index(i), map[string]any{keyField: keys[i]}))
			}
		}
		return errs
	}
	keys := make([]any, 0, len(a))
	for _, x := range a {
		key := map[string]any{}
		if m, ok := x.(map[string]any); ok {
			for _, f := range s.XListMapKeys {
				if k, ok := m[f]; ok {
					key[f] = k
				}
			}
		}
		keys = append(keys, key)
	}
	dups, err := repeatedItems(w, keys)
	if err != nil {
		return crdschema.ErrorList{err}
	}
	var errs crdschema.ErrorList
	for _, i := range dups {
		errs = append(errs, crdschema.Duplicate(w.path().Index(i), keys[i]))
	}
	return errs
}

// sortErrors puts errors in a deterministic order, by field and then
// text, where upstream's order follows Go map iteration.
func sortErrors(errs crdschema.ErrorList) {
	slices.SortStableFunc(errs, func(a, b *crdschema.Error) int {
		return cmp.Or(strings.Compare(a.Field, b.Field), strings.Compare(a.Error(), b.Error()))
	})
}
