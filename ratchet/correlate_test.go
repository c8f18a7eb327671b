package ratchet_test

import (
	"encoding/json"
	"github.com/crdschema/crdschema/ratchet"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/structural"
)

func mustSchema(t testing.TB, js string) *structural.Schema {
	t.Helper()
	var props crdschema.JSONSchemaProps
	if err := json.Unmarshal([]byte(js), &props); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(&props)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustJSON(t testing.TB, js string) any {
	t.Helper()
	if js == "" {
		return nil
	}
	v, err := jsonscan.Decode([]byte(js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return v
}

const (
	listMapSchema = `{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["name"],
		"items":{"type":"object","properties":{"name":{"type":"string"},"v":{"type":"integer"}}}}`
	compositeSchema = `{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["port","protocol"],
		"items":{"type":"object","properties":{"port":{"type":"number"},"protocol":{"type":"string"},"v":{"type":"string"}}}}`
	atomicSchema = `{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}}`
	setSchema    = `{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}}`
	objectSchema = `{"type":"object","properties":{"a":{"type":"string"},"o":{"type":"object","properties":{"x":{"type":"integer"}}}}}`
	mapSchema    = `{"type":"object","additionalProperties":{"type":"integer"}}`
	anyMapSchema = `{"type":"object","additionalProperties":true}`
	unknownObj   = `{"type":"object","x-kubernetes-preserve-unknown-fields":true}`
	listOfLists  = `{"type":"array","items":{"type":"array","items":{"type":"integer"}}}`
)

func TestKey(t *testing.T) {
	tests := []struct {
		name, schema, new, old, key string
		want                        bool
	}{
		{"property in both", objectSchema, `{"a":"x"}`, `{"a":"y"}`, "a", true},
		{"property only in new", objectSchema, `{"a":"x"}`, `{}`, "a", false},
		{"property only in old", objectSchema, `{}`, `{"a":"x"}`, "a", false},
		{"null values correlate", objectSchema, `{"a":null}`, `{"a":null}`, "a", true},
		{"unknown property", objectSchema, `{"b":1}`, `{"b":1}`, "b", false},
		{"additionalProperties schema", mapSchema, `{"k":1}`, `{"k":2}`, "k", true},
		{"additionalProperties true has no schema", anyMapSchema, `{"k":1}`, `{"k":1}`, "k", false},
		{"preserved unknown fields", unknownObj, `{"k":1}`, `{"k":1}`, "k", false},
		{"old is not an object", objectSchema, `{"a":"x"}`, `["a"]`, "a", false},
		{"new is not an object", objectSchema, `"a"`, `{"a":"x"}`, "a", false},
		{"old is null", objectSchema, `{"a":"x"}`, ``, "a", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ratchet.Correlate(mustJSON(t, tt.new), mustJSON(t, tt.old), mustSchema(t, tt.schema))
			got := c.Key(tt.key)
			if (got != nil) != tt.want {
				t.Fatalf("Key(%q) = %v, want correlated %v", tt.key, got, tt.want)
			}
			if got != nil {
				nv, ov := got.Values()
				if !jsonvalue.Equal(nv, mustJSON(t, tt.new).(map[string]any)[tt.key]) || !jsonvalue.Equal(ov, mustJSON(t, tt.old).(map[string]any)[tt.key]) {
					t.Errorf("Values() = %v, %v", nv, ov)
				}
				if c.Key(tt.key) != got {
					t.Errorf("second Key(%q) returned another node", tt.key)
				}
			}
		})
	}
}

func TestIndex(t *testing.T) {
	tests := []struct {
		name, schema, new, old string
		i                      int
		wantOld                string // "" = not correlated
	}{
		{"list map by key", listMapSchema, `[{"name":"a","v":1},{"name":"b","v":2}]`, `[{"name":"b","v":3},{"name":"a","v":4}]`, 1, `{"name":"b","v":3}`},
		{"list map new item", listMapSchema, `[{"name":"c"}]`, `[{"name":"a"}]`, 0, ``},
		{"list map first duplicate wins", listMapSchema, `[{"name":"a"}]`, `[{"name":"a","v":1},{"name":"a","v":2}]`, 0, `{"name":"a","v":1}`},
		{"list map item without key", listMapSchema, `[{"v":1}]`, `[{"v":1}]`, 0, ``},
		{"list map key of object type", listMapSchema, `[{"name":{"x":1}}]`, `[{"name":{"x":1}}]`, 0, ``},
		{"single key int64 and float64 differ", listMapSchema, `[{"name":1}]`, `[{"name":1.0}]`, 0, ``},
		{"single key bool", listMapSchema, `[{"name":true}]`, `[{"name":false},{"name":true}]`, 0, `{"name":true}`},
		{"old non-object items skipped", listMapSchema, `[{"name":"a"}]`, `["x",{"name":"a"}]`, 0, `{"name":"a"}`},
		{"composite key", compositeSchema, `[{"port":80.5,"protocol":"TCP"}]`, `[{"port":80.5,"protocol":"UDP","v":"u"},{"port":80.5,"protocol":"TCP","v":"t"}]`, 0, `{"port":80.5,"protocol":"TCP","v":"t"}`},
		{"composite key needs every key", compositeSchema, `[{"port":80.5}]`, `[{"port":80.5}]`, 0, ``},
		{"composite key int64 and float64 differ", compositeSchema, `[{"port":80,"protocol":"TCP"}]`, `[{"port":80.0,"protocol":"TCP"}]`, 0, ``},
		{"composite key floats equal to six decimals", compositeSchema, `[{"port":1.0000001,"protocol":"TCP"}]`, `[{"port":1.0000002,"protocol":"TCP"}]`, 0, `{"port":1.0000002,"protocol":"TCP"}`},
		{"composite key strings are quoted", compositeSchema, `[{"port":1,"protocol":"a\u0000\"b"}]`, `[{"port":1,"protocol":"a\u0000\"b"}]`, 0, `{"port":1,"protocol":"a\u0000\"b"}`},
		{"atomic list", atomicSchema, `[{"name":"a"}]`, `[{"name":"a"}]`, 0, ``},
		{"set list", setSchema, `["a"]`, `["a"]`, 0, ``},
		{"out of range", listMapSchema, `[{"name":"a"}]`, `[{"name":"a"}]`, 1, ``},
		{"negative", listMapSchema, `[{"name":"a"}]`, `[{"name":"a"}]`, -1, ``},
		{"old not a list", listMapSchema, `[{"name":"a"}]`, `{"name":"a"}`, 0, ``},
		{"list map without keys", `{"type":"array","x-kubernetes-list-type":"map","items":{"type":"object"}}`, `[{"name":"a"}]`, `[{"name":"a"}]`, 0, ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ratchet.Correlate(mustJSON(t, tt.new), mustJSON(t, tt.old), mustSchema(t, tt.schema))
			got := c.Index(tt.i)
			if tt.wantOld == "" {
				if got != nil || c.Index(tt.i) != nil {
					t.Fatalf("Index(%d) correlated with %v, want none", tt.i, old(got))
				}
				return
			}
			if got == nil {
				t.Fatalf("Index(%d) = nil, want old %s", tt.i, tt.wantOld)
			}
			if !jsonvalue.Equal(old(got), mustJSON(t, tt.wantOld)) {
				t.Errorf("Index(%d) old = %v, want %s", tt.i, old(got), tt.wantOld)
			}
			if !jsonvalue.Equal(newValue(got), mustJSON(t, tt.new).([]any)[tt.i]) {
				t.Errorf("Index(%d) new = %v", tt.i, newValue(got))
			}
		})
	}
}

func TestUnchanged(t *testing.T) {
	tests := []struct {
		name, schema, new, old string
		want                   bool
	}{
		{"equal strings", `{"type":"string"}`, `"a"`, `"a"`, true},
		{"different strings", `{"type":"string"}`, `"a"`, `"b"`, false},
		{"int64 and float64", `{"type":"number"}`, `1`, `1.0`, false},
		{"equal floats", `{"type":"number"}`, `1.5`, `1.5`, true},
		{"two nulls", `{"type":"string"}`, `null`, `null`, true},
		{"null and value", `{"type":"string"}`, `null`, `"a"`, false},
		{"int-or-string changed type", `{"x-kubernetes-int-or-string":true}`, `"1"`, `1`, false},
		{"object equal", objectSchema, `{"a":"x","o":{"x":1}}`, `{"a":"x","o":{"x":1}}`, true},
		{"object nested change", objectSchema, `{"a":"x","o":{"x":1}}`, `{"a":"x","o":{"x":2}}`, false},
		{"object key added", objectSchema, `{"a":"x","o":{}}`, `{"a":"x"}`, false},
		{"object key renamed", mapSchema, `{"a":1}`, `{"b":1}`, false},
		{"object key without schema", objectSchema, `{"a":"x","z":1}`, `{"a":"x","z":1}`, false},
		{"empty objects without schema", unknownObj, `{}`, `{}`, true},
		{"preserved unknown fields never equal", unknownObj, `{"k":1}`, `{"k":1}`, false},
		{"additionalProperties map equal", mapSchema, `{"a":1,"b":2}`, `{"b":2,"a":1}`, true},
		{"object and list", objectSchema, `{}`, `[]`, false},
		{"list and object", atomicSchema, `[]`, `{}`, false},
		{"scalar and object", objectSchema, `"a"`, `{}`, false},
		{"list map reordered", listMapSchema, `[{"name":"a","v":1},{"name":"b"}]`, `[{"name":"b"},{"name":"a","v":1}]`, true},
		{"list map item changed", listMapSchema, `[{"name":"a","v":1}]`, `[{"name":"a","v":2}]`, false},
		{"list map item replaced", listMapSchema, `[{"name":"a"}]`, `[{"name":"b"}]`, false},
		{"list map unkeyable identical items", listMapSchema, `[{"v":1}]`, `[{"v":1}]`, false},
		{"list map duplicate keys", listMapSchema, `[{"name":"a","v":1},{"name":"a","v":2}]`, `[{"name":"a","v":1},{"name":"a","v":2}]`, false},
		{"list map length differs", listMapSchema, `[{"name":"a"}]`, `[{"name":"a"},{"name":"b"}]`, false},
		{"empty list maps", listMapSchema, `[]`, `[]`, true},
		{"composite keys reordered", compositeSchema, `[{"port":1,"protocol":"a"},{"port":1,"protocol":"b"}]`, `[{"port":1,"protocol":"b"},{"port":1,"protocol":"a"}]`, true},
		{"atomic list equal", atomicSchema, `[{"name":"a","z":1}]`, `[{"name":"a","z":1}]`, true},
		{"atomic list reordered", atomicSchema, `[{"name":"a"},{"name":"b"}]`, `[{"name":"b"},{"name":"a"}]`, false},
		{"atomic list int64 and float64", `{"type":"array","items":{"type":"number"}}`, `[1]`, `[1.0]`, false},
		{"set equal", setSchema, `["a","b"]`, `["a","b"]`, true},
		{"set reordered", setSchema, `["a","b"]`, `["b","a"]`, false},
		{"list of lists equal", listOfLists, `[[1,2],[3]]`, `[[1,2],[3]]`, true},
		{"list of lists changed", listOfLists, `[[1,2],[3]]`, `[[1,2],[4]]`, false},
		{"list map inside object", `{"type":"object","properties":{"l":` + listMapSchema + `}}`, `{"l":[{"name":"b"},{"name":"a"}]}`, `{"l":[{"name":"a"},{"name":"b"}]}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustSchema(t, tt.schema)
			c := ratchet.Correlate(mustJSON(t, tt.new), mustJSON(t, tt.old), s)
			if got := c.Unchanged(); got != tt.want {
				t.Fatalf("Unchanged() = %v, want %v", got, tt.want)
			}
			if got := c.Unchanged(); got != tt.want {
				t.Fatalf("second Unchanged() = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestUnchangedAfterChildren checks that equality computed by the parent
// reuses children found before, whatever order they were visited in.
func TestUnchangedAfterChildren(t *testing.T) {
	s := mustSchema(t, `{"type":"object","properties":{"l":`+listMapSchema+`,"a":{"type":"string"}}}`)
	c := ratchet.Correlate(mustJSON(t, `{"a":"x","l":[{"name":"b","v":1},{"name":"a"}]}`), mustJSON(t, `{"a":"x","l":[{"name":"a"},{"name":"b","v":1}]}`), s)
	l := c.Key("l")
	if l == nil || l.Index(1) == nil || !l.Index(1).Unchanged() {
		t.Fatal("l[1] should correlate and be unchanged")
	}
	if !c.Unchanged() {
		t.Fatal("object with a reordered list map should be unchanged")
	}
	if c.Key("l") != l {
		t.Fatal("Field returned a new node")
	}
}

func TestManyFields(t *testing.T) {
	s := mustSchema(t, mapSchema)
	newObj, oldObj := map[string]any{}, map[string]any{}
	for i := range 100 {
		k := string(rune('a'+i%26)) + string(rune('a'+i/26))
		newObj[k], oldObj[k] = int64(i), int64(i)
	}
	c := ratchet.Correlate(newObj, oldObj, s)
	first := c.Key("ba")
	for k := range newObj {
		if c.Key(k) == nil {
			t.Fatalf("Field(%q) = nil", k)
		}
	}
	if c.Key("ba") != first {
		t.Fatal("Field returned a new node once indexed by name")
	}
	if !c.Unchanged() {
		t.Fatal("equal maps should be unchanged")
	}
	oldObj["zz"] = int64(0)
	delete(oldObj, "aa")
	if ratchet.Correlate(newObj, oldObj, s).Unchanged() {
		t.Fatal("maps with a different key should differ")
	}
}

func TestNil(t *testing.T) {
	var c *ratchet.Correlation
	if c.Key("a") != nil || c.Index(0) != nil || c.Unchanged() || c.Key("a") != nil || c.Index(0) != nil {
		t.Fatal("nil Correlation should correlate nothing")
	}
	if n, o := c.Values(); n != nil || o != nil {
		t.Fatal("nil Correlation has values")
	}
	// Without a schema nothing correlates, but values still compare.
	c = ratchet.Correlate(map[string]any{"a": "x"}, map[string]any{"a": "x"}, nil)
	if c.Key("a") != nil || c.Unchanged() {
		t.Fatal("schemaless object correlated")
	}
	if !ratchet.Correlate([]any{int64(1)}, []any{int64(1)}, nil).Unchanged() {
		t.Fatal("schemaless equal lists should be unchanged")
	}
	// An uncorrelated child is a nil interface, never a typed nil.
	c = ratchet.Correlate(map[string]any{"a": "x"}, map[string]any{}, mustSchema(t, objectSchema))
	if v := c.Key("a"); v != nil {
		t.Fatalf("Key = %#v, want nil interface", v)
	}
	if v := c.Index(0); v != nil {
		t.Fatalf("Index = %#v, want nil interface", v)
	}
}

// Correlation must satisfy the interface package validation takes.

// old is the old value of c.
func old(c *ratchet.Correlation) any {
	_, o := c.Values()
	return o
}

// newValue is the new value of c.
func newValue(c *ratchet.Correlation) any {
	n, _ := c.Values()
	return n
}
