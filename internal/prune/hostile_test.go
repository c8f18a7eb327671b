package prune_test

// Hostile objects for pruning, null dropping, metadata coercion and the
// decoder: bounded time and memory, clear errors, no panics; the schema is
// never modified.

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/hostile"
	"github.com/crdschema/crdschema/internal/objectmeta"
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/manifest"
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

const hostileSchema = `{"type":"object","properties":{
	"any":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
	"closed":{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}}},
	"emb":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
	"embs":{"type":"array","items":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true}},
	"list":{"type":"array","items":{"type":"object","properties":{"k":{"type":"string"},"n":{"type":"integer"}}}},
	"map":{"type":"object","additionalProperties":{"type":"integer"}},
	"nomap":{"type":"object","additionalProperties":false},
	"s":{"type":"string"}
}}`

func nestedMaps(depth int) map[string]any {
	v := map[string]any{"leaf": "x", "n": nil}
	for i := 1; i < depth; i++ {
		v = map[string]any{"a": v, "l": []any{nil, map[string]any{"x": nil}}}
	}
	return v
}

// decodeAll runs every decode-time step on obj against s, as Decoder does,
// and checks that s is not modified.
func decodeAll(t *testing.T, s *structural.Schema, obj map[string]any) (pruned []string, coerceErr *crdschema.Error, unknown []string) {
	t.Helper()
	sBefore := s.DeepCopy()
	bounded(t, hostileLimit, func() {
		pruned = prune.Prune(obj, s, true)
		prune.PruneNulls(obj, s)
		coerceErr, unknown = objectmeta.Coerce(nil, obj, s, true, objectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
	})
	if !reflect.DeepEqual(s, sBefore) {
		t.Error("the schema was modified")
	}
	return
}

// TestHostileDeepObject prunes objects nested 10,000 and 100,000 deep:
// kept below preserve-unknown-fields (nulls too: only nulls with a schema
// are dropped), pruned at once where the schema stops.
func TestHostileDeepObject(t *testing.T) {
	skipUnderRace(t)
	s := schemaOf(t, hostileSchema)
	for _, depth := range []int{10000, 100000} {
		obj := map[string]any{"any": nestedMaps(depth), "closed": nestedMaps(depth), "nomap": map[string]any{"k": nestedMaps(depth)},
			"emb": map[string]any{"apiVersion": "v1", "kind": "K", "deep": nestedMaps(depth)}}
		pruned, err, unknown := decodeAll(t, s, obj)
		if err != nil || len(unknown) > 0 {
			t.Fatalf("depth %d: Coerce: %v %q", depth, err, unknown)
		}
		want := []string{"closed.a.a", "closed.a.l", "closed.l", "nomap.k.a", "nomap.k.l"}
		if !reflect.DeepEqual(pruned, want) {
			t.Errorf("depth %d: pruned %q, want %q", depth, pruned, want)
		}
		if !reflect.DeepEqual(obj["any"], nestedMaps(depth)) {
			t.Errorf("depth %d: the preserved value changed", depth)
		}
	}
}

// TestHostileDeepMetadata: metadata whose managedFields hold a value
// nested 9,000 deep (the most a JSON request can carry there), 100,000
// labels, 10 MB annotations; and managedFields nested beyond the JSON
// decoder's limit, a clear error.
func TestHostileDeepMetadata(t *testing.T) {
	skipUnderRace(t)
	s := schemaOf(t, hostileSchema)
	labels := make(map[string]any, 100000)
	for i := range 100000 {
		labels[fmt.Sprint("l", i)] = "v"
	}
	big := strings.Repeat("a", 10<<20)
	depth := 3000 // nestedMaps nests a map and a list per level
	meta := func() map[string]any {
		return map[string]any{"name": "n", "labels": labels, "annotations": map[string]any{"a": big},
			"managedFields": []any{map[string]any{"manager": "m", "fieldsType": "FieldsV1", "fieldsV1": nestedMaps(depth)}}}
	}
	obj := map[string]any{"apiVersion": "g/v1", "kind": "K", "metadata": meta(),
		"emb": map[string]any{"apiVersion": "v1", "kind": "K", "metadata": meta()}}
	var pruned, unknown []string
	var err *crdschema.Error
	boundedAlloc(t, 512<<20, func() { pruned, err, unknown = decodeAll(t, s, obj) })
	if err != nil || len(pruned) > 0 || len(unknown) > 0 {
		t.Fatalf("pruned %q, err %v, unknown %q", pruned, err, unknown)
	}
	m, u, gerr := objectmeta.GetObjectMeta(map[string]any{"metadata": meta()}, objectmeta.MetaOptions{ReturnUnknownFieldPaths: true})
	if gerr != nil || len(u) > 0 || len(m.Labels) != 100000 || m.Annotations["a"] != big {
		t.Errorf("GetObjectMeta: %v %q", gerr, u)
	}
	out := map[string]any{}
	if err := objectmeta.SetObjectMeta(out, m); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out["metadata"].(map[string]any)["managedFields"], meta()["managedFields"]) {
		t.Error("managedFields changed on the way through ObjectMeta")
	}
	depth = 20000
	obj = map[string]any{"apiVersion": "g/v1", "kind": "K", "metadata": meta()}
	_, err, _ = decodeAll(t, s, obj)
	if err == nil || !strings.Contains(err.Detail, "exceeded max depth") {
		t.Errorf("managedFields nested %d deep: %v", depth, err)
	}
}

// TestHostileBigCollections: 100,000 list items with unknown fields, a map
// of 100,000 keys, 100,000 embedded resources, and 100,000 unknown fields.
func TestHostileBigCollections(t *testing.T) {
	skipUnderRace(t)
	s := schemaOf(t, hostileSchema)
	const n = 100000
	list, embs := make([]any, n), make([]any, n)
	m, unknownTop := make(map[string]any, n), make(map[string]any, n)
	for i := range n {
		list[i] = map[string]any{"k": "x", "n": nil, "u": int64(i)}
		embs[i] = map[string]any{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"name": "e", "bogus": int64(i)}}
		m[fmt.Sprint("k", i)] = nil
		unknownTop[fmt.Sprint("u", i)] = int64(i)
	}
	unknownTop["list"], unknownTop["embs"], unknownTop["map"] = list, embs, m
	var pruned, unknown []string
	var err *crdschema.Error
	boundedAlloc(t, 1<<30, func() { pruned, err, unknown = decodeAll(t, s, unknownTop) })
	if err != nil {
		t.Fatal(err)
	}
	if len(pruned) != 2*n || pruned[0] != "list[0].u" || pruned[n] != "u0" {
		t.Errorf("%d pruned paths, first %q", len(pruned), pruned[:2])
	}
	if len(unknown) != n || unknown[0] != "embs[0].metadata.bogus" {
		t.Errorf("%d unknown metadata fields", len(unknown))
	}
	if len(m) != 0 || len(list[n-1].(map[string]any)) != 1 {
		t.Errorf("nulls not dropped: %d map entries left, last item %v", len(m), list[n-1])
	}
}

// TestHostileValues: a 10 MB string, invalid UTF-8 keys and values, and
// numbers at the edges of int64 and float64 in metadata.
func TestHostileValues(t *testing.T) {
	skipUnderRace(t)
	s := schemaOf(t, hostileSchema)
	bad := "a\xff\xfeb"
	big := strings.Repeat("a", 10<<20)
	obj := map[string]any{"s": big, bad: bad, "closed": map[string]any{bad: big, "a": map[string]any{"b": bad}},
		"map": map[string]any{bad: int64(1)}, "emb": map[string]any{"apiVersion": bad, "kind": bad, "metadata": map[string]any{"name": bad, "labels": map[string]any{bad: bad}, bad: 1}}}
	pruned, err, unknown := decodeAll(t, s, obj)
	if err != nil {
		t.Fatal(err)
	}
	wantPruned := []string{"a\xff\xfeb", "closed.a\xff\xfeb"}
	// Metadata is decoded through JSON, which replaces invalid UTF-8 with
	// U+FFFD, as in the API server.
	if !reflect.DeepEqual(pruned, wantPruned) || !reflect.DeepEqual(unknown, []string{"emb.metadata.a\ufffd\ufffdb"}) {
		t.Errorf("pruned %q, unknown %q", pruned, unknown)
	}
	if obj["s"] != big || obj["map"].(map[string]any)[bad] != int64(1) {
		t.Error("known values changed")
	}
	for _, tc := range []struct {
		v  any
		ok bool
	}{
		{int64(9223372036854775807), true}, {int64(-9223372036854775808), true},
		{18446744073709551616.0, false}, {1e308, false}, {5e-324, false}, {1.0, true},
	} {
		for _, field := range []string{"generation", "deletionGracePeriodSeconds"} {
			meta := map[string]any{"metadata": map[string]any{"name": "n", field: tc.v}}
			var m *crdschema.ObjectMeta
			var gerr error
			bounded(t, hostileLimit, func() { m, _, gerr = objectmeta.GetObjectMeta(meta, objectmeta.MetaOptions{}) })
			if (gerr == nil) != tc.ok {
				t.Errorf("%s %v: error %v", field, tc.v, gerr)
			}
			if gerr == nil && field == "generation" && float64(m.Generation) != toFloat(tc.v) {
				t.Errorf("generation %v decoded as %d", tc.v, m.Generation)
			}
			m, _, gerr = objectmeta.GetObjectMeta(meta, objectmeta.MetaOptions{DropMalformedFields: true})
			if gerr != nil || m.Name != "n" {
				t.Errorf("%s %v, dropping malformed fields: %v", field, tc.v, gerr)
			}
		}
	}
}

func toFloat(v any) float64 {
	switch v := v.(type) {
	case int64:
		return float64(v)
	case float64:
		return v
	}
	return 0
}

// TestConcurrentDecoder decodes copies of objects with one Decoder from
// many goroutines (run with -race): the results are the sequential ones.
func TestConcurrentDecoder(t *testing.T) {
	s := schemaOf(t, hostileSchema)
	d := prune.NewDecoder(prune.DecoderOptions{Group: "g", Kind: "K", Schemas: map[string]*structural.Schema{"v1": s}})
	objs := []string{
		`{"apiVersion":"g/v1","kind":"K","metadata":{"name":"a","bogus":1},"s":"x","u":1,"list":[{"k":"a","u":2,"n":null}],"embs":[{"apiVersion":"v1","kind":"P","metadata":{"name":"e","x":1}}]}`,
		`{"apiVersion":"g/v1","kind":"K","metadata":{"name":"a","generation":"x"}}`,
		`{"apiVersion":"g/v2","kind":"K","metadata":{"name":"a"},"s":"pruned: unknown version"}`,
		`{"apiVersion":"g/v1","kind":"K","emb":{"apiVersion":1,"kind":"x"}}`,
		`{"apiVersion":"g/v1","kind":"K","closed":{"a":{"b":"x","c":[1]}},"map":{"a":null,"b":2},"nomap":{"x":{"y":1}}}`,
	}
	run := func(i int) string {
		o, err := manifest.UnmarshalObject([]byte(objs[i]))
		if err != nil {
			t.Fatal(err)
		}
		unknown, derr := d.Decode(o)
		b, _ := json.Marshal(o)
		return fmt.Sprintf("%q %v %s", unknown, derr, b)
	}
	want := make([]string, len(objs))
	for i := range objs {
		want[i] = run(i)
	}
	sBefore := s.DeepCopy()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 50 {
				i := (g + k) % len(objs)
				if got := run(i); got != want[i] {
					t.Errorf("object %d: %s\nwant %s", i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	if !reflect.DeepEqual(s, sBefore) {
		t.Error("the schema was modified")
	}
}
