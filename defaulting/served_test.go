package defaulting_test

import (
	"encoding/json"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/structural"
)

// TestPruneDefaultsServed: PruneDefaults gives the defaults the API server
// serves, as it reads the CRD back from storage: a whole-number float is
// an integer, a fraction stays a float; s is not modified.
func TestPruneDefaultsServed(t *testing.T) {
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal([]byte(`{"type":"object","properties":{
		"replicas":{"type":"integer","default":13.0},
		"ratio":{"type":"number","default":0.5},
		"obj":{"type":"object","properties":{"n":{"type":"number"}},"default":{"n":2.0}}}}`), &p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(&p)
	if err != nil {
		t.Fatal(err)
	}
	served, err := defaulting.PruneDefaults(s)
	if err != nil {
		t.Fatal(err)
	}
	if v := served.Properties["replicas"].Default.Value; v != int64(13) {
		t.Errorf("replicas default %#v, want int64(13)", v)
	}
	if v := served.Properties["ratio"].Default.Value; v != 0.5 {
		t.Errorf("ratio default %#v, want 0.5", v)
	}
	if v := served.Properties["obj"].Default.Value.(map[string]any)["n"]; v != int64(2) {
		t.Errorf("obj.n default %#v, want int64(2)", v)
	}
	if v := s.Properties["replicas"].Default.Value; v != 13.0 {
		t.Errorf("the input changed: %#v", v)
	}
	obj := map[string]any{}
	defaulting.Default(obj, served)
	if obj["replicas"] != int64(13) {
		t.Errorf("defaulted %#v", obj)
	}
}
