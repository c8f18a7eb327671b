package defaulting_test

// Hostile objects and defaults: bounded time and memory, no panics, the
// schema never modified, results never sharing memory with the schema.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/internal/hostile"
	"github.com/crdschema/crdschema/prune"
	"github.com/crdschema/crdschema/structural"
)

// The harness of the hostile-input tests (package internal/hostile).
const hostileLimit = hostile.Limit

var (
	bounded       = hostile.Run
	boundedAlloc  = hostile.RunAlloc
	skipUnderRace = hostile.SkipUnderRace
)

func schemaOf(t testing.TB, j string) *structural.Schema {
	t.Helper()
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal([]byte(j), &p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(&p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func nestedMaps(depth int) map[string]any {
	v := map[string]any{"leaf": nil}
	for i := 1; i < depth; i++ {
		v = map[string]any{"a": v, "n": nil}
	}
	return v
}

// defaultAll runs PruneNulls and Default on x and checks that s is not
// modified.
func defaultAll(t *testing.T, s *structural.Schema, x any) {
	t.Helper()
	before := s.DeepCopy()
	bounded(t, hostileLimit, func() {
		prune.PruneNulls(x, s)
		defaulting.Default(x, s)
	})
	if !reflect.DeepEqual(s, before) {
		t.Error("the schema was modified")
	}
}

const defaultsSchema = `{"type":"object","properties":{
	"any":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"default":{"d":1}},
	"list":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string","default":"k"},"m":{"type":"object","default":{"a":1,"b":[1,2],"c":{"d":"e"}},"x-kubernetes-preserve-unknown-fields":true}}}},
	"map":{"type":"object","additionalProperties":{"type":"integer","default":9223372036854775807}},
	"f":{"type":"number","default":1e308},
	"i":{"type":"integer","default":-9223372036854775808},
	"s":{"type":"string","default":"a\ufffdb"}
}}`

// TestHostileDeepObject defaults objects nested 10,000 and 100,000 deep
// below a preserve-unknown-fields node: untouched, nulls included.
func TestHostileDeepObject(t *testing.T) {
	skipUnderRace(t)
	s := schemaOf(t, defaultsSchema)
	for _, depth := range []int{10000, 100000} {
		obj := map[string]any{"any": nestedMaps(depth)}
		defaultAll(t, s, obj)
		if !reflect.DeepEqual(obj["any"], nestedMaps(depth)) {
			t.Errorf("depth %d: the preserved value changed", depth)
		}
		if obj["f"] != 1e308 || obj["i"] != int64(-9223372036854775808) || obj["s"] != "a\ufffdb" {
			t.Errorf("depth %d: defaults %v %v %q", depth, obj["f"], obj["i"], obj["s"])
		}
	}
}

// TestHostileDeepSchema: a schema nested 1,000 deep with a default at
// every level, on an object that goes all the way down and on an empty one.
func TestHostileDeepSchema(t *testing.T) {
	skipUnderRace(t)
	const depth = 1000
	j := `{"type":"string","default":"bottom"}`
	for range depth {
		j = `{"type":"object","default":{},"properties":{"a":` + j + `,"n":{"type":"integer","default":1}}}`
	}
	s := schemaOf(t, `{"type":"object","properties":{"spec":`+j+`}}`)
	obj := map[string]any{}
	defaultAll(t, s, obj)
	v := obj["spec"]
	for i := range depth {
		m, ok := v.(map[string]any)
		if !ok || m["n"] != int64(1) {
			t.Fatalf("level %d not defaulted: %v", i, v)
		}
		v = m["a"]
	}
	if v != "bottom" {
		t.Errorf("bottom %v", v)
	}
	var pruned *structural.Schema
	var err error
	bounded(t, hostileLimit, func() { pruned, err = defaulting.PruneDefaults(s) })
	if err != nil {
		t.Fatal(err)
	}
	obj2 := map[string]any{}
	defaultAll(t, pruned, obj2)
	if mustJSON(t, obj2) != mustJSON(t, obj) {
		t.Error("the pruned defaults default differently")
	}
}

// TestHostileBigCollections: a list of 100,000 items and a map of 100,000
// null values, each defaulted with its own copy.
func TestHostileBigCollections(t *testing.T) {
	skipUnderRace(t)
	s := schemaOf(t, defaultsSchema)
	const n = 100000
	list := make([]any, n)
	m := make(map[string]any, n)
	for i := range n {
		list[i] = map[string]any{}
		m[fmt.Sprint("k", i)] = nil
	}
	obj := map[string]any{"list": list, "map": m}
	boundedAlloc(t, 1<<30, func() { defaultAll(t, s, obj) })
	first, last := list[0].(map[string]any), list[n-1].(map[string]any)
	if last["k"] != "k" || m["k99999"] != int64(9223372036854775807) {
		t.Fatalf("not defaulted: %v %v", last, m["k99999"])
	}
	// Every item has its own copy of the default.
	first["m"].(map[string]any)["c"].(map[string]any)["d"] = "changed"
	if last["m"].(map[string]any)["c"].(map[string]any)["d"] != "e" {
		t.Error("items share their default")
	}
}

// TestHostileDefaults: huge, deep and invalid defaults through
// PruneDefaults and Default.
func TestHostileDefaults(t *testing.T) {
	skipUnderRace(t)
	big := strings.Repeat("a", 10<<20)
	deep := nestedMaps(10000)
	longList := make([]any, 100000)
	for i := range longList {
		longList[i] = map[string]any{"k": fmt.Sprint(i), "unknown": i}
	}
	bad := "a\xff\xfeb"
	for _, tc := range []struct {
		name string
		p    crdschema.JSONSchemaProps
		want any // the default after PruneDefaults
	}{
		{"10 MB string", crdschema.JSONSchemaProps{Type: "string", Default: &crdschema.JSON{Value: big}}, big},
		{"deep preserved", crdschema.JSONSchemaProps{Type: "object", XPreserveUnknownFields: ptr(true), Default: &crdschema.JSON{Value: deep}}, deep},
		{"deep pruned", crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{"leaf": {Type: "string"}}, Default: &crdschema.JSON{Value: deep}}, map[string]any{}},
		{"long list", crdschema.JSONSchemaProps{Type: "array", Items: &crdschema.JSONSchemaPropsOrArray{Schema: &crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{"k": {Type: "string"}}}}, Default: &crdschema.JSON{Value: longList}}, nil},
		{"invalid UTF-8", crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{bad: {Type: "string"}}, Default: &crdschema.JSON{Value: map[string]any{bad: bad, "x" + bad: 1}}}, map[string]any{bad: bad}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := &crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{"f": tc.p}}
			s, err := structural.New(root)
			if err != nil {
				t.Fatal(err)
			}
			before := s.DeepCopy()
			var pruned *structural.Schema
			boundedAlloc(t, 512<<20, func() { pruned, err = defaulting.PruneDefaults(s) })
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(s, before) {
				t.Error("PruneDefaults modified its input")
			}
			got := pruned.Properties["f"].Default.Value
			if tc.want != nil && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("pruned default %.200v, want %.200v", got, tc.want)
			}
			if tc.name == "long list" {
				l := got.([]any)
				if len(l) != 100000 || len(l[99999].(map[string]any)) != 1 {
					t.Errorf("list default not pruned")
				}
			}
			obj := map[string]any{}
			defaultAll(t, pruned, obj)
			if !reflect.DeepEqual(obj["f"], got) {
				t.Error("the default was not applied")
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// TestConcurrentDefault defaults objects with one schema from many
// goroutines, each then changing its result (run with -race): results
// equal the sequential one, and nothing is shared with the schema.
func TestConcurrentDefault(t *testing.T) {
	s := schemaOf(t, defaultsSchema)
	pruned, err := defaulting.PruneDefaults(s)
	if err != nil {
		t.Fatal(err)
	}
	obj := func() map[string]any {
		return map[string]any{"list": []any{map[string]any{}, map[string]any{"k": "x"}, nil}, "map": map[string]any{"a": nil, "b": int64(2)}, "any": nil}
	}
	run := func(s *structural.Schema) string {
		o := obj()
		prune.PruneNulls(o, s)
		defaulting.Default(o, s)
		out := mustJSON(t, o)
		// Change everything the defaults put there.
		for _, it := range o["list"].([]any) {
			if m, ok := it.(map[string]any); ok {
				m["m"].(map[string]any)["b"].([]any)[0] = "changed"
				m["m"].(map[string]any)["c"].(map[string]any)["d"] = "changed"
			}
		}
		o["any"].(map[string]any)["d"] = "changed"
		return out
	}
	want := run(s)
	if want != run(pruned) {
		t.Fatal("pruned defaults differ")
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				sch := s
				if g%2 == 1 {
					sch = pruned
				}
				if got := run(sch); got != want {
					t.Errorf("concurrent result differs:\n%s\nwant\n%s", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}
