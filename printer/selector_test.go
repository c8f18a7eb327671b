package printer

import (
	"reflect"
	"testing"

	"github.com/crdschema/crdschema"
)

// The Shirt example of the Kubernetes documentation on selectable fields.
var (
	shirtFields = []crdschema.SelectableField{{JSONPath: ".spec.color"}, {JSONPath: ".spec.size"}}
	shirts      = []map[string]any{
		shirt("example1", "blue", "S"),
		shirt("example2", "blue", "M"),
		shirt("example3", "green", "M"),
	}
)

func shirt(name, color, size string) map[string]any {
	return map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "Shirt",
		"metadata":   map[string]any{"name": name, "namespace": "default"},
		"spec":       map[string]any{"color": color, "size": size},
	}
}

func TestShirtFieldSelectors(t *testing.T) {
	f := NewFields(shirtFields, true)
	cases := []struct {
		selector string
		want     []string
	}{
		{"spec.color=blue", []string{"example1", "example2"}},
		{"spec.color==blue", []string{"example1", "example2"}},
		{"spec.color=green,spec.size=M", []string{"example3"}},
		{"spec.size!=M", []string{"example1"}},
		{"spec.color!=blue,spec.size=M", []string{"example3"}},
		{"spec.color=red", nil},
		{"", []string{"example1", "example2", "example3"}},
		{"metadata.name=example2", []string{"example2"}},
		{"metadata.namespace=default,spec.size=S", []string{"example1"}},
		{"metadata.namespace=other", nil},
		{",spec.color=blue,", []string{"example1", "example2"}},
	}
	for _, c := range cases {
		sel, err := f.ParseSelector(c.selector)
		if err != nil {
			t.Errorf("%q: %v", c.selector, err)
			continue
		}
		var got []string
		for _, s := range shirts {
			ok, err := f.Matches(sel, s)
			if err != nil {
				t.Fatal(err)
			}
			if ok {
				got = append(got, s["metadata"].(map[string]any)["name"].(string))
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q selects %v, want %v", c.selector, got, c.want)
		}
	}
}

func TestUnsupportedFieldLabel(t *testing.T) {
	cases := []struct {
		namespaced bool
		selector   string
		want       string
	}{
		{true, "spec.weight=1", "field label not supported: spec.weight"},
		{true, "spec.color=blue,status.x=1", "field label not supported: status.x"},
		{false, "metadata.namespace=default", "field label not supported: metadata.namespace"},
		{true, ".spec.color=blue", "field label not supported: .spec.color"},
		{true, "=x", "field label not supported: "},
	}
	for _, c := range cases {
		_, err := NewFields(shirtFields, c.namespaced).ParseSelector(c.selector)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: error %v, want %q", c.selector, err, c.want)
		}
	}
	// A term with neither field nor value is dropped before the check.
	if _, err := NewFields(shirtFields, true).ParseSelector("="); err != nil {
		t.Errorf(`"=": %v`, err)
	}
}

func TestParseSelector(t *testing.T) {
	cases := []struct {
		in, str string
		reqs    []Requirement
		err     string
	}{
		{in: "", str: ""},
		{in: "a=b", str: "a=b", reqs: []Requirement{{"a", "b", false}}},
		{in: "a==b", str: "a=b", reqs: []Requirement{{"a", "b", false}}},
		{in: "a!=b", str: "a!=b", reqs: []Requirement{{"a", "b", true}}},
		{in: "b=1,a=2", str: "a=2,b=1", reqs: []Requirement{{"a", "2", false}, {"b", "1", false}}},
		{in: "a=", str: "a=", reqs: []Requirement{{"a", "", false}}},
		{in: "a=b\\,c", str: "a=b\\,c", reqs: []Requirement{{"a", "b,c", false}}},
		{in: "a=b\\=c\\\\", str: "a=b\\=c\\\\", reqs: []Requirement{{"a", "b=c\\", false}}},
		{in: "a!==b", err: "invalid field selector: unescaped character in value: 61"},
		{in: "a===b", err: "invalid field selector: unescaped character in value: 61"},
		{in: "a=b=c", err: "invalid field selector: unescaped character in value: 61"},
		{in: "a=b\\c", err: "invalid field selector: invalid escape sequence: \\c"},
		{in: "a=b\\", err: "invalid field selector: invalid escape sequence: \\"},
		{in: "a", err: "invalid selector: 'a'; can't understand 'a'"},
		{in: "z=1,b,a", err: "invalid selector: 'z=1,b,a'; can't understand 'a'"},
		{in: "a<b", err: "invalid selector: 'a<b'; can't understand 'a<b'"},
		{in: "=", str: ""},
		{in: "=x", str: "=x", reqs: []Requirement{{"", "x", false}}},
	}
	for _, c := range cases {
		sel, err := ParseSelector(c.in)
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if sel.String() != c.str {
			t.Errorf("%q: String() = %q, want %q", c.in, sel.String(), c.str)
		}
		if got := sel.Requirements(); !reflect.DeepEqual(got, c.reqs) && !(len(got) == 0 && len(c.reqs) == 0) {
			t.Errorf("%q: requirements %#v, want %#v", c.in, got, c.reqs)
		}
		if sel.Empty() != (len(c.reqs) == 0) {
			t.Errorf("%q: Empty() = %v", c.in, sel.Empty())
		}
	}
}

func TestSelectorMatchesMissingField(t *testing.T) {
	sel, _ := ParseSelector("x!=1,y=")
	if !sel.Matches(map[string]string{}) {
		t.Error("missing fields are empty strings")
	}
	if sel.Matches(map[string]string{"x": "1"}) {
		t.Error("x!=1 matched x=1")
	}
}

func TestFieldSet(t *testing.T) {
	f := NewFields([]crdschema.SelectableField{
		{JSONPath: ".spec.s"}, {JSONPath: ".spec.i"}, {JSONPath: ".spec.b"}, {JSONPath: ".spec.f"},
		{JSONPath: ".spec.missing"}, {JSONPath: ".spec.null"}, {JSONPath: ".spec.m"},
	}, false)
	got, err := f.Set(map[string]any{
		"metadata": map[string]any{"name": "x", "namespace": "ignored"},
		"spec": map[string]any{"s": "str", "i": int64(3), "b": true, "f": 1.5, "null": nil,
			"m": map[string]any{"k": "v"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"metadata.name": "x", "spec.s": "str", "spec.i": "3", "spec.b": "true", "spec.f": "1.5",
		"spec.missing": "", "spec.null": "", "spec.m": "map[k:v]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Set = %v, want %v", got, want)
	}

	errCases := []struct {
		path, want string
	}{
		{".spec[", "unexpected error parsing jsonPath: unterminated array"},
		{".spec.list[*]", "unexpectedly received more than one JSON path result"},
		{".spec.list[5]", "unexpected error finding value with jsonPath: array index out of bounds: index 5, length 2"},
	}
	for _, c := range errCases {
		f := NewFields([]crdschema.SelectableField{{JSONPath: c.path}}, true)
		_, err := f.Set(map[string]any{"spec": map[string]any{"list": []any{"a", "b"}}})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %q", c.path, err, c.want)
		}
	}
}
