package printer

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/printer/jsonpath"
)

// Fields computes the field sets of objects of one CRD version, against
// which field selectors are matched: metadata.name, metadata.namespace
// (namespaced resources only) and the version's selectableFields. It is
// immutable and safe for concurrent use.
type Fields struct {
	namespaced bool
	selectable []selectableField
}

type selectableField struct {
	name string // the JSONPath without its leading "."
	path *jsonpath.Template
	err  error // the parse error of the JSONPath, reported by Set
}

// NewFields compiles a version's selectableFields. namespaced tells whether
// the CRD's scope is Namespaced.
func NewFields(selectable []crdschema.SelectableField, namespaced bool) *Fields {
	f := &Fields{namespaced: namespaced, selectable: make([]selectableField, len(selectable))}
	for i, sf := range selectable {
		f.selectable[i].name = strings.TrimPrefix(sf.JSONPath, ".")
		t, err := jsonpath.Parse("selectableField", "{"+sf.JSONPath+"}")
		if err != nil {
			f.selectable[i].err = err
			continue
		}
		f.selectable[i].path = t.AllowMissingKeys(true)
	}
	return f
}

// Set returns the field set of obj as the API server computes it for field
// selection. A selectable field that is missing or null is "", other values
// are formatted as fmt.Sprint formats them ("blue", "3", "true"). It fails
// if a selectable field's JSONPath does not parse or finds several values.
func (f *Fields) Set(obj map[string]any) (map[string]string, error) {
	set := make(map[string]string, 2+len(f.selectable))
	meta, _ := obj["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	set["metadata.name"] = name
	if f.namespaced {
		ns, _ := meta["namespace"].(string)
		set["metadata.namespace"] = ns
	}
	for _, sf := range f.selectable {
		if sf.err != nil {
			return nil, fmt.Errorf("unexpected error parsing jsonPath: %w", sf.err)
		}
		results, err := sf.path.FindResults(obj)
		if err != nil {
			return nil, fmt.Errorf("unexpected error finding value with jsonPath: %w", err)
		}
		var v any
		if len(results) > 0 && len(results[0]) > 0 {
			if len(results) > 1 || len(results[0]) > 1 {
				return nil, errors.New("unexpectedly received more than one JSON path result")
			}
			v = results[0][0]
		}
		if v == nil {
			set[sf.name] = ""
		} else {
			set[sf.name] = fmt.Sprint(v)
		}
	}
	return set, nil
}

// Supports reports whether the API server accepts field as a field selector
// label for this version: metadata.name, metadata.namespace for namespaced
// resources, and the selectable fields.
func (f *Fields) Supports(field string) bool {
	return field == "metadata.name" || (f.namespaced && field == "metadata.namespace") ||
		slices.ContainsFunc(f.selectable, func(sf selectableField) bool { return sf.name == field })
}

// ParseSelector parses a field selector for this version and rejects any
// field it does not support with the API server's error
// "field label not supported: <field>".
func (f *Fields) ParseSelector(s string) (Selector, error) {
	sel, err := ParseSelector(s)
	if err != nil {
		return Selector{}, err
	}
	for _, r := range sel.reqs {
		if !f.Supports(r.Field) {
			return Selector{}, fmt.Errorf("field label not supported: %s", r.Field)
		}
	}
	return sel, nil
}

// Matches computes obj's field set and matches the selector against it.
func (f *Fields) Matches(sel Selector, obj map[string]any) (bool, error) {
	set, err := f.Set(obj)
	if err != nil {
		return false, err
	}
	return sel.Matches(set), nil
}
