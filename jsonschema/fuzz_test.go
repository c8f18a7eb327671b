package jsonschema

import (
	"encoding/json"
	"testing"

	"github.com/crdschema/crdschema/manifest"
)

// FuzzVersion converts arbitrary CRDs: no panic, and every schema
// marshals to JSON.
func FuzzVersion(f *testing.F) {
	f.Add([]byte(widgets))
	f.Add([]byte(`{"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"oneOf":[{"not":{"properties":{"a":{"enum":[null]}}}}],"properties":{"a":{"default":1,"type":"integer"}}}}}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		def, _, err := manifest.UnmarshalCRD(data)
		if err != nil {
			return
		}
		for _, v := range def.Spec.Versions {
			s, err := Version(def, v.Name)
			if err != nil {
				continue
			}
			if _, err := json.Marshal(s); err != nil {
				t.Fatalf("version %s: %v", v.Name, err)
			}
		}
	})
}
