package validation

import (
	"testing"

	"github.com/crdschema/crdschema/internal/objectcheck"
)

func TestValidateEmbeddedMeta(t *testing.T) {
	schema := specSchema(`{
		"emb":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
		"list":{"type":"array","items":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}}
	}`)
	s := mustStructural(t, []byte(schema))
	tests := []struct {
		name string
		obj  string
		root bool
		want []string
	}{
		{"ok, name optional", `{"spec":{"emb":{"apiVersion":"v1","kind":"Pod","metadata":{"namespace":"ns"}}}}`, false, nil},
		{"missing apiVersion and kind", `{"spec":{"emb":{}}}`, false, []string{
			"spec.emb.apiVersion: Required value",
			"spec.emb.kind: Required value",
		}},
		{"bad apiVersion and kind", `{"spec":{"list":[{"apiVersion":"a/b/c","kind":"Bad_Kind"},{"apiVersion":"","kind":""},{"apiVersion":1,"kind":true}]}}`, false, []string{
			`spec.list[0].apiVersion: Invalid value: "a/b/c": unexpected GroupVersion string: a/b/c`,
			`spec.list[0].kind: Invalid value: "Bad_Kind": may have mixed case, but should otherwise match: ` + msgLabel1035,
			`spec.list[1].apiVersion: Invalid value: "": must not be empty`,
			`spec.list[1].kind: Invalid value: "": must not be empty`,
			"spec.list[2].apiVersion: Invalid value: 1: must be a string",
			"spec.list[2].kind: Invalid value: true: must be a string",
		}},
		{"metadata", `{"spec":{"emb":{"apiVersion":"v1","kind":"Pod","metadata":{"name":"..","generateName":"a%","namespace":"Bad","Name":"ignored"}}}}`, false, []string{
			`spec.emb.metadata.generateName: Invalid value: "a%": may not contain '%'`,
			`spec.emb.metadata.name: Invalid value: "..": may not be '..'`,
			`spec.emb.metadata.namespace: Invalid value: "Bad": ` + msgLabel1123,
		}},
		{"undecodable metadata", `{"spec":{"emb":{"apiVersion":"v1","kind":"Pod","metadata":{"labels":["x"]}}}}`, false, []string{
			`spec.emb.metadata: Invalid value: {"labels":["x"]}: json: cannot unmarshal array into Go struct field ObjectMeta.labels of type map[string]string`,
		}},
		{"root as resource", `{"spec":{}}`, true, []string{
			"apiVersion: Required value",
			"kind: Required value",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErrors(t, objectcheck.EmbeddedMeta(nil, mustObject(t, tt.obj), s, tt.root), tt.want)
		})
	}
}
