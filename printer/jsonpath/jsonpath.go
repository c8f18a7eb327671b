package jsonpath

import (
	"fmt"
	"io"
	"strings"
)

// A Template is a parsed Kubernetes JSONPath template. It is immutable and
// safe for concurrent use: parse it once and evaluate it on many values.
type Template struct {
	name         string
	root         *listNode
	allowMissing bool
	// fields is set when the template is a single action made of field
	// names only ("{.spec.replicas}"), which is evaluated without the
	// general machinery.
	fields []string
}

// NoValue stands for "no value at all", as opposed to a JSON null (a nil
// interface). It appears in results only when a template is evaluated on nil
// data (or on a null element inside {range}), and prints as "<no value>".
type NoValue struct{}

// Parse parses a template: plain text with JSONPath expressions in braces,
// such as "{.metadata.name}" or "{range .items[*]}{.name}{end}". The name
// is the template's Name, as client-go's jsonpath.New takes it; nothing else
// uses it.
func Parse(name, text string) (*Template, error) {
	root, err := parseTemplate(text, 0)
	if err != nil {
		return nil, err
	}
	return &Template{name: name, root: root, fields: fieldChain(root)}, nil
}

// fieldChain returns the field names of a template that is exactly one
// action of fields, or nil.
func fieldChain(root *listNode) []string {
	if len(root.nodes) != 1 {
		return nil
	}
	action, ok := root.nodes[0].(*listNode)
	if !ok || len(action.nodes) == 0 {
		return nil
	}
	names := make([]string, len(action.nodes))
	for i, n := range action.nodes {
		f, ok := n.(*fieldNode)
		if !ok {
			return nil
		}
		names[i] = f.name
	}
	return names
}

// lookup evaluates a field chain: the value, whether it was found, and the
// error of a missing field when missing keys are not allowed.
func (t *Template) lookup(data any) (any, bool, error) {
	cur := data
	for _, name := range t.fields {
		m, _ := cur.(map[string]any)
		v, ok := m[name]
		if !ok {
			if t.allowMissing {
				return nil, false, nil
			}
			return nil, false, fmt.Errorf("%s is not found", name)
		}
		cur = v
	}
	return cur, true, nil
}

// MustParse is like Parse but panics if the template cannot be parsed. It is
// meant for templates written in the program's source.
func MustParse(name, text string) *Template {
	t, err := Parse(name, text)
	if err != nil {
		panic(fmt.Sprintf("jsonpath: Parse(%q): %v", text, err))
	}
	return t
}

// Name returns the name given to Parse.
func (t *Template) Name() string { return t.name }

// AllowMissingKeys returns a copy of t that, when allow is true, yields no
// result instead of the error "<key> is not found" when a field is missing.
func (t *Template) AllowMissingKeys(allow bool) *Template {
	c := *t
	c.allowMissing = allow
	return &c
}

// FindResults evaluates the template on data and returns one slice of
// results per text node and per action (or per action inside each
// iteration of a {range}).
//
// data is a JSON value as encoding/json or sigs.k8s.io/json decode it into
// an any: map[string]any, []any, string, float64, int64, bool or nil. Other
// scalar types are allowed and compared and printed as Go values. The
// elements of a map are visited in the order of their sorted keys (upstream
// uses Go's random map order).
func (t *Template) FindResults(data any) ([][]any, error) {
	if t.fields != nil {
		v, ok, err := t.lookup(data)
		if err != nil {
			return nil, err
		}
		if !ok {
			return [][]any{{}}, nil
		}
		return [][]any{{v}}, nil
	}
	e := evaluation{t: t, lastEnd: -1}
	if data == nil {
		data = NoValue{}
	}
	return e.find(data, 0)
}

// First returns the first value of the first group of results, which is
// all a printer column or a selectable field uses. found is false when
// there is no such value.
func (t *Template) First(data any) (v any, found bool, err error) {
	if t.fields != nil {
		return t.lookup(data)
	}
	all, err := t.FindResults(data)
	if err != nil || len(all) == 0 || len(all[0]) == 0 {
		return nil, false, err
	}
	return all[0][0], true, nil
}

// Execute evaluates the template on data and writes the results to w as
// PrintResults does.
func (t *Template) Execute(w io.Writer, data any) error {
	all, err := t.FindResults(data)
	if err != nil {
		return err
	}
	for _, results := range all {
		if err := PrintResults(w, results); err != nil {
			return err
		}
	}
	return nil
}

// ExecuteString is Execute into a string.
func (t *Template) ExecuteString(data any) (string, error) {
	var b strings.Builder
	err := t.Execute(&b, data)
	return b.String(), err
}
