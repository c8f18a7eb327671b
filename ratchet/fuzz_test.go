package ratchet_test

import (
	"context"
	"github.com/crdschema/crdschema/ratchet"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// totalSchema correlates every object key (its additionalProperties is
// itself) and no list item: under it, Unchanged is plain deep equality.
func totalSchema() *structural.Schema {
	s := &structural.Schema{}
	s.AdditionalProperties = &structural.SchemaOrBool{Schema: s, Bool: true}
	s.Items = s
	return s
}

// keyedSchema makes every list a list-type map keyed by "k".
func keyedSchema() *structural.Schema {
	listMap := "map"
	s := &structural.Schema{}
	s.Type = "array"
	s.XListType = &listMap
	s.XListMapKeys = []string{"k"}
	s.AdditionalProperties = &structural.SchemaOrBool{Schema: s, Bool: true}
	s.Items = s
	return s
}

// uniquelyKeyed reports whether every list in v holds objects with
// distinct scalar values of "k".
func uniquelyKeyed(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			if !uniquelyKeyed(x) {
				return false
			}
		}
	case []any:
		seen := map[any]bool{}
		for _, it := range v {
			m, ok := it.(map[string]any)
			if !ok {
				return false
			}
			k, ok := m["k"]
			if !ok {
				return false
			}
			switch k.(type) {
			case bool, int64, float64, string:
			default:
				return false
			}
			if seen[k] {
				return false
			}
			seen[k] = true
			if !uniquelyKeyed(m) {
				return false
			}
		}
	}
	return true
}

// walk visits every node of the correlation the way a validator does.
func walk(c *ratchet.Correlation, depth int) {
	if c == nil || depth > 50 {
		return
	}
	nv, _ := c.Values()
	switch v := nv.(type) {
	case map[string]any:
		for k := range v {
			walk(c.Key(k), depth+1)
			_ = c.Key(k)
		}
	case []any:
		for i := range v {
			walk(c.Index(i), depth+1)
			_ = c.Index(i)
		}
	}
	c.Unchanged()
}

func FuzzCorrelate(f *testing.F) {
	seeds := [][2]string{
		{`{"spec":{"image":"a","replicas":1}}`, `{"spec":{"image":"a","replicas":2}}`},
		{`[{"k":"a","v":1},{"k":"b"}]`, `[{"k":"b"},{"k":"a","v":1}]`},
		{`[{"k":1},{"k":1.0}]`, `[{"k":1.0},{"k":1}]`},
		{`[{"k":"a"},{"k":"a"}]`, `[{"k":"a"},{"k":"a"}]`},
		{`{"a":[[1,2],[3]],"b":null}`, `{"a":[[1,2],[3]],"b":null}`},
		{`{"a":{}}`, `{"a":[]}`},
		{`1`, `1.0`},
		{`null`, `{}`},
		{`{"spec":{"names":["long"],"limits":{"a":20},"tags":["a","a"],"emb":{"metadata":{}}}}`, `{"spec":{"names":["long","x"],"limits":{"a":3},"tags":["a"],"phase":"bad"}}`},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	total, keyed := totalSchema(), keyedSchema()
	s := mustSchema(f, `{"type":"object","properties":{"spec":{"type":"object","properties":{
		"image":{"type":"string","maxLength":5},
		"names":{"type":"array","maxItems":10,"items":{"type":"string","maxLength":10,"x-kubernetes-validations":[{"rule":"self.size() < 3"}]}},
		"limits":{"type":"object","maxProperties":10,"additionalProperties":{"type":"integer",
			"x-kubernetes-validations":[{"rule":"oldSelf.hasValue() || self > 10","optionalOldSelf":true},{"rule":"self >= oldSelf"}]}},
		"ports":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k","p"],"items":{"type":"object","properties":{"k":{"type":"string"},"p":{"type":"integer"}}}},
		"tags":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"string"}},
		"emb":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
		"phase":{"type":"string","maxLength":10,"x-kubernetes-validations":[{"rule":"self != 'bad'"}]}},
		"anyOf":[{"properties":{"image":{"maxLength":3}}},{"required":["phase"]}]},
		"status":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}`)
	v, err := validation.New(s)
	if err != nil {
		f.Fatal(err)
	}
	rules, err := celrules.Compile(s, true)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, newJSON, oldJSON string) {
		newObj, err := jsonscan.Decode([]byte(newJSON))
		if err != nil {
			return
		}
		oldObj, err := jsonscan.Decode([]byte(oldJSON))
		if err != nil {
			return
		}
		want := reflect.DeepEqual(newObj, oldObj)
		if got := ratchet.Correlate(newObj, oldObj, total).Unchanged(); got != want {
			t.Fatalf("total correlation: Unchanged() = %v, reflect.DeepEqual = %v", got, want)
		}
		// Walking the children first must not change the answer.
		ct := ratchet.Correlate(newObj, oldObj, total)
		walk(ct, 0)
		if got := ct.Unchanged(); got != want {
			t.Fatalf("total correlation after walk: Unchanged() = %v, reflect.DeepEqual = %v", got, want)
		}
		// The same value is unchanged.
		if !ratchet.Correlate(newObj, newObj, total).Unchanged() {
			t.Fatal("a value differs from itself")
		}
		ck := ratchet.Correlate(newObj, oldObj, keyed)
		walk(ck, 0)
		if want && uniquelyKeyed(newObj) && !ck.Unchanged() {
			t.Fatal("keyed correlation: equal, uniquely keyed values differ")
		}
		// Validation of arbitrary updates never panics.
		newMap, _ := newObj.(map[string]any)
		oldMap, _ := oldObj.(map[string]any)
		if newMap != nil {
			c := ratchet.Correlate(newMap, oldMap, s)
			v.ValidateUpdate(nil, newMap, c)
			v.ValidateUpdate(nil, newMap, c.Status(s))
			rules.Validate(context.Background(), nil, newMap, oldMap, celrules.WithRatcheting(c))
		}
	})
}
