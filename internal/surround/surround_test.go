package surround_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema/internal/surround"
)

func TestSurrounding(t *testing.T) {
	sur := surround.Surrounding{}.WithTypeMeta("validation/v1", "Validation").Child("spec").Index().Child("x")
	o, err := sur.Wrap("v")
	if err != nil {
		t.Fatal(err)
	}
	if want := obj(t, `{"apiVersion":"validation/v1","kind":"Validation","spec":[{"x":"v"}]}`); !reflect.DeepEqual(o, want) {
		t.Errorf("Wrap: %v", o)
	}
	if v, found, err := sur.Extract(o); v != "v" || !found || err != nil {
		t.Errorf("Extract: %v %v %v", v, found, err)
	}
	if _, err := (surround.Surrounding{}).Wrap([]any{}); err == nil || err.Error() != "object root default value must be of object type" {
		t.Errorf("root error %v", err)
	}
	root := surround.Surrounding{}.WithTypeMeta("validation/v1", "Validation")
	if o, _ := root.Wrap(map[string]any{"kind": "Pod"}); o["kind"] != "Pod" || o["apiVersion"] != "validation/v1" {
		t.Errorf("type meta: %v", o)
	}
	tests := []struct {
		sur  surround.Surrounding
		obj  string
		want string
	}{
		{surround.Surrounding{}.Child("a").Child("b").Child("c"), `{"a":"s"}`, ".c.b must be of object type"},
		{surround.Surrounding{}.Child("a").Index(), `{"a":{}}`, "[] must be of array type"},
		{surround.Surrounding{}.Child("a").Child("b").Index().Child("c"), `{"a":{"b":5}}`, ".c[] must be of array type"},
		{surround.Surrounding{}.Child("a").Index().Child("b"), `{"a":[]}`, ""},
		{surround.Surrounding{}.Child("a").Child("b"), `{"a":{}}`, ""},
	}
	for _, tt := range tests {
		v, found, err := tt.sur.Extract(obj(t, tt.obj))
		if tt.want == "" {
			if v != nil || found || err != nil {
				t.Errorf("%s: %v %v %v, want not found", tt.obj, v, found, err)
			}
			continue
		}
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: error %v, want %s", tt.obj, err, tt.want)
		}
	}
}

func obj(t *testing.T, js string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(js), &m); err != nil {
		t.Fatal(err)
	}
	return m
}
