package manifest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"sigs.k8s.io/yaml"
)

func TestCRDYAMLRoundTrip(t *testing.T) {
	in := []byte(crontabYAML)
	crd, unknown, err := UnmarshalCRD(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(unknown) != 0 {
		t.Errorf("unknown fields %v", unknown)
	}
	out, err := yaml.Marshal(crd)
	if err != nil {
		t.Fatal(err)
	}
	crd2, _, err := UnmarshalCRD(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(crd, crd2) {
		t.Errorf("YAML round trip changed the CRD:\n%s", out)
	}
	d := crd2.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["cronSpec"].Default
	if d == nil || d.Value != "* * * * */5" {
		t.Errorf("default lost: %#v", d)
	}
	n := crd2.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["note"].Default
	if n != nil {
		t.Errorf("default: null decoded as %#v, want absent (as the API server decodes it)", n)
	}
}

const crontabYAML = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                cronSpec:
                  type: string
                  default: "* * * * */5"
                image:
                  type: string
                note:
                  type: string
                  nullable: true
                  default: null
                replicas:
                  type: integer
                  minimum: 1
                  maximum: 10
      subresources:
        status: {}
        scale:
          specReplicasPath: .spec.replicas
          statusReplicasPath: .status.replicas
      additionalPrinterColumns:
      - name: Spec
        type: string
        jsonPath: .spec.cronSpec
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
`

func BenchmarkUnmarshalCRD(b *testing.B) {
	// A schema nested 20 levels deep with 10 properties per level, as large
	// real CRDs are: decoding must not scan the bytes once per level.
	var build func(depth int) map[string]any
	build = func(depth int) map[string]any {
		props := map[string]any{}
		for i := 0; i < 10; i++ {
			props[fmt.Sprintf("p%d", i)] = map[string]any{"type": "string", "maxLength": 10, "description": "a field"}
		}
		if depth > 0 {
			props["next"] = build(depth - 1)
		}
		return map[string]any{"type": "object", "properties": props}
	}
	crd := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "as.example.com"},
		"spec": map[string]any{"group": "example.com", "scope": "Cluster",
			"names":    map[string]any{"plural": "as", "kind": "A"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true, "schema": map[string]any{"openAPIV3Schema": build(20)}}}},
	}
	data, err := json.Marshal(crd)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, err := UnmarshalCRD(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnmarshalCRDCorpus decodes every CRD of each project of
// bench/testdata/crds (one op = all of a project's CRDs).
func BenchmarkUnmarshalCRDCorpus(b *testing.B) {
	for _, p := range corpusProjects(b) {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				for _, body := range p.bodies {
					if _, _, err := UnmarshalCRD(body); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
