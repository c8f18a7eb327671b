package structural

import (
	"strings"
	"testing"
)

func TestFieldPath(t *testing.T) {
	s := mustNew(t, `{"type":"object","properties":{
		"spec":{"type":"object","properties":{"replicas":{"type":"integer"},"a.b":{"type":"string"},"it's":{"type":"string"}}},
		"labels":{"type":"object","additionalProperties":{"type":"string"}},
		"any":{"type":"object","additionalProperties":true},
		"list":{"type":"array","items":{"type":"string"}}}}`)
	tests := []struct {
		path    string
		noArray bool
		want    string // the path, or the error
		typ     string // the found schema's type; "nil" for no schema
	}{
		{"", false, "<nil>", "object"},
		{".spec", false, "spec", "object"},
		{".spec.replicas", false, "spec.replicas", "integer"},
		{".spec['replicas']", false, "spec.replicas", "integer"},
		{"['spec']['a.b']", false, "spec.a.b", "string"},
		{`.spec['it\'s']`, false, "spec.it's", "string"},
		{".labels.app", false, "labels[app]", "string"},
		{".labels['app.kubernetes.io/name']", false, "labels[app.kubernetes.io/name]", "string"},
		{".any.x", false, "any[x]", "nil"},
		{".any.x.y", false, "does not refer to a valid field", ""},
		{".spec.nope", false, "does not refer to a valid field", ""},
		{".list.x", false, "does not refer to a valid field", ""},
		{".spec.replicas.x", false, "does not refer to a valid field", ""},
		{".spec['replicas']", true, "array notation is not allowed", ""},
		{".spec.", false, "unexpected end of JSON path", ""},
		{".spec[", false, "unexpected end of JSON path", ""},
		{".spec['replicas'", false, "unexpected end of JSON path", ""},
		{".spec[replicas]", false, "expected single quoted string but got replicas", ""},
		{".spec['replicas'.", false, "expected ] but got .", ""},
		{"spec", false, "expected [ or . but got: spec", ""},
		{".spec]", false, "expected [ or . but got: ]", ""},
		{`.spec['\q']`, false, `invalid string literal: invalid escape char \q`, ""},
		{`.spec['\q\é']`, false, `invalid string literal: invalid escape char \é`, ""},
		{".spec..replicas", false, "does not refer to a valid field", ""},
		// The API server's scanner stops quietly at a token longer than
		// 64KiB; the path read so far is valid then (upstream behaviour,
		// pinned by conformance cases).
		{".labels['x']" + strings.Repeat("z", 65535), false, "expected [ or . but got: " + strings.Repeat("z", 65535), ""},
		{".labels['x']" + strings.Repeat("z", 65536), false, "labels[x]", "string"},
		{".labels['x']" + strings.Repeat("z", 65535) + ".q", false, "expected [ or . but got: " + strings.Repeat("z", 65535), ""},
		{".labels['x']" + strings.Repeat("z", 65536) + ".q", false, "labels[x]", "string"},
		{".labels['" + strings.Repeat("z", 65534) + "']", false, "labels[" + strings.Repeat("z", 65534) + "]", "string"},
		{".labels['" + strings.Repeat("z", 65535) + "']", false, "unexpected end of JSON path", ""},
	}
	for _, tt := range tests {
		p, found, err := s.FieldPath(tt.path, !tt.noArray)
		name := tt.path
		if len(name) > 40 {
			name = name[:40] + "..."
		}
		if tt.typ == "" {
			if err == nil || err.Error() != tt.want {
				t.Errorf("FieldPath(%q) = %v, %v; want error %q", name, p, err, tt.want)
			}
			continue
		}
		if err != nil || p.String() != tt.want {
			t.Errorf("FieldPath(%q) = %v, %v; want %s", name, p, err, tt.want)
			continue
		}
		typ := "nil"
		if found != nil {
			typ = found.Type
		}
		if typ != tt.typ {
			t.Errorf("FieldPath(%q) found a %s schema, want %s", name, typ, tt.typ)
		}
	}
}

func TestFieldPathNilSchema(t *testing.T) {
	if _, _, err := (*Schema)(nil).FieldPath(".a", true); err == nil {
		t.Error("a path into a nil schema is valid")
	}
	p, s, err := (*Schema)(nil).FieldPath("", true)
	if p != nil || s != nil || err != nil {
		t.Errorf("empty path into nil schema = %v, %v, %v", p, s, err)
	}
}

func TestFieldPathEscapes(t *testing.T) {
	names := []string{"\a\b\f\n\r\t\v", `a'b\c`, "x\\\ny", "plain"}
	m := map[string]*Schema{}
	for _, n := range names {
		m[n] = &Schema{Generic: Generic{Type: "string"}}
	}
	s := &Schema{Generic: Generic{Type: "object"}, Properties: m}
	tests := map[string]string{
		`['\a\b\f\n\r\t\v']`: "\a\b\f\n\r\t\v",
		`['a\'b\\c']`:        `a'b\c`,
		"['x\\\ny']":         "x\\\ny", // a backslash before a line feed stays
		`['plain']`:          "plain",
	}
	for path, want := range tests {
		p, found, err := s.FieldPath(path, true)
		if err != nil || found == nil || p.String() != want {
			t.Errorf("FieldPath(%q) = %q, %v; want %q", path, p.String(), err, want)
		}
	}
	// The last invalid escape is the one reported.
	if _, _, err := s.FieldPath(`['\x\y']`, true); err == nil || err.Error() != `invalid string literal: invalid escape char \y` {
		t.Errorf("two invalid escapes: %v", err)
	}
}
