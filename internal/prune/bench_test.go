package prune_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/structural"
)

// loadHTTPRoute returns the structural schema of Gateway API's HTTPRoute
// (v1, descriptions removed) and an example HTTPRoute.
func loadHTTPRoute(b *testing.B) (*structural.Schema, map[string]any) {
	data, err := os.ReadFile("testdata/httproute-schema.json")
	if err != nil {
		b.Fatal(err)
	}
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal(data, &p); err != nil {
		b.Fatal(err)
	}
	s, err := structural.New(&p)
	if err != nil {
		b.Fatal(err)
	}
	data, err = os.ReadFile("testdata/httproute.yaml")
	if err != nil {
		b.Fatal(err)
	}
	o, err := manifest.UnmarshalObject(data)
	if err != nil {
		b.Fatal(err)
	}
	// An unknown field and some metadata, as requests have them.
	o["spec"].(map[string]any)["unknownField"] = "x"
	md := o["metadata"].(map[string]any)
	md["namespace"] = "default"
	md["labels"] = map[string]any{"app": "web", "tier": "frontend"}
	md["annotations"] = map[string]any{"example.com/owner": "team-a"}
	return s, o
}

// copies runs f on b.N fresh deep copies of o, made outside the timer in
// batches.
func copies(b *testing.B, o map[string]any, f func(map[string]any)) {
	const batch = 512
	objs := make([]map[string]any, batch)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += batch {
		b.StopTimer()
		n := min(batch, b.N-i)
		for j := 0; j < n; j++ {
			objs[j] = jsonvalue.CopyMap(o)
		}
		b.StartTimer()
		for j := 0; j < n; j++ {
			f(objs[j])
		}
	}
}

func BenchmarkPrune(b *testing.B) {
	s, o := loadHTTPRoute(b)
	copies(b, o, func(o map[string]any) {
		if paths := prune.Prune(o, s, true); len(paths) != 1 {
			b.Fatalf("pruned %q", paths)
		}
	})
}

// BenchmarkDefault is package defaulting's benchmark, kept here to share
// the HTTPRoute fixture.
func BenchmarkDefault(b *testing.B) {
	s, o := loadHTTPRoute(b)
	delete(o["spec"].(map[string]any), "unknownField")
	served, err := defaulting.PruneDefaults(s)
	if err != nil {
		b.Fatal(err)
	}
	copies(b, o, func(o map[string]any) {
		defaulting.Default(o, served)
	})
}

func BenchmarkDecode(b *testing.B) {
	s, o := loadHTTPRoute(b)
	d := prune.NewDecoder(prune.DecoderOptions{Group: "gateway.networking.k8s.io", Kind: "HTTPRoute", Schemas: map[string]*structural.Schema{"v1": s}})
	copies(b, o, func(o map[string]any) {
		if unknown, err := d.Decode(o); err != nil || len(unknown) != 1 {
			b.Fatalf("unknown %q, error %v", unknown, err)
		}
	})
}

// BenchmarkPruneClean prunes an object that has nothing to prune: it does
// not allocate.
func BenchmarkPruneClean(b *testing.B) {
	s, o := loadHTTPRoute(b)
	delete(o["spec"].(map[string]any), "unknownField")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if paths := prune.Prune(o, s, true); len(paths) != 0 {
			b.Fatalf("pruned %q", paths)
		}
	}
}

func TestPruneCleanDoesNotAllocate(t *testing.T) {
	skipUnderRace(t) // the race detector drops pooled buffers at random
	var s *structural.Schema
	var o map[string]any
	testing.Benchmark(func(b *testing.B) { s, o = loadHTTPRoute(b) })
	delete(o["spec"].(map[string]any), "unknownField")
	prune.Prune(o, s, true) // warm the buffer pool
	if n := testing.AllocsPerRun(100, func() { prune.Prune(o, s, true) }); n != 0 {
		t.Errorf("Prune of an object with nothing to prune: %v allocations, want 0", n)
	}
}
