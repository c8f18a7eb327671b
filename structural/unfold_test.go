package structural

import (
	"testing"

	"github.com/crdschema/crdschema"
)

func TestUnfold(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"adds anyOf", `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true}}}`,
			`{"type":"object","properties":{"a":{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true}}}`},
		{"prepends allOf when anyOf exists", `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"anyOf":[{"pattern":"^a"}],"allOf":[{"maxLength":3}]}}}`,
			`{"type":"object","properties":{"a":{"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]},{"maxLength":3}],"anyOf":[{"pattern":"^a"}],"x-kubernetes-int-or-string":true}}}`},
		{"keeps the anyOf pattern", `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}]}}}`,
			`{"type":"object","properties":{"a":{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true}}}`},
		{"keeps the allOf pattern", `{"type":"object","properties":{"a":{"x-kubernetes-int-or-string":true,"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]}],"anyOf":[{"pattern":"a"}]}}}`,
			`{"type":"object","properties":{"a":{"allOf":[{"anyOf":[{"type":"integer"},{"type":"string"}]}],"anyOf":[{"pattern":"a"}],"x-kubernetes-int-or-string":true}}}`},
		{"everywhere", `{"type":"object","properties":{"l":{"type":"array","items":{"x-kubernetes-int-or-string":true}},"m":{"type":"object","additionalProperties":{"x-kubernetes-int-or-string":true}}}}`,
			`{"type":"object","properties":{"l":{"type":"array","items":{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true}},"m":{"type":"object","additionalProperties":{"anyOf":[{"type":"integer"},{"type":"string"}],"x-kubernetes-int-or-string":true}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustNew(t, tt.in)
			before := mustJSON(t, s.ToJSONSchemaProps())
			u := s.Unfold()
			if got := mustJSON(t, u.ToJSONSchemaProps()); got != tt.want {
				t.Errorf("Unfold:\ngot  %s\nwant %s", got, tt.want)
			}
			if after := mustJSON(t, s.ToJSONSchemaProps()); after != before {
				t.Error("Unfold modified its receiver")
			}
			if errs := Validate(nil, u, Options{}); len(errs) != 0 {
				t.Errorf("unfolded schema is not structural: %v", errs)
			}
		})
	}
	if (*Schema)(nil).Unfold() != nil {
		t.Error("nil Unfold")
	}
}

func TestWalk(t *testing.T) {
	s := mustNew(t, `{"type":"object","properties":{"b":{"type":"array","items":{"type":"string"}},"a":{"type":"object","additionalProperties":{"type":"string","not":{"pattern":"x"}},"allOf":[{"properties":{"q":{"anyOf":[{"maxLength":1}]}}}]}}}`)
	var got []string
	s.Walk(crdschema.NewPath("root"), func(p *crdschema.Path, n *Schema) bool {
		got = append(got, p.String()+"="+n.Type)
		return n.Type != "array"
	})
	want := "root=object root.properties[a]=object root.properties[a].additionalProperties=string root.properties[b]=array"
	if g := joinSpace(got); g != want {
		t.Errorf("Walk:\ngot  %s\nwant %s", g, want)
	}
}

func joinSpace(l []string) string {
	out := ""
	for i, s := range l {
		if i > 0 {
			out += " "
		}
		out += s
	}
	return out
}
