package bench

// Side-by-side benchmarks. Every benchmark has the sub-benchmarks
// .../crdschema and .../upstream, run on the same input bytes through the
// same steps; what the API server builds once per CRD (crd.Resource on one
// side, the serving set-up on the other, compiled CEL rules) is built
// before the timer starts. bench/run runs them and prints the ratios.

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/openapi"
	"github.com/crdschema/crdschema/structural"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// BenchmarkValidateCRD measures CRD validation of every CRD of each
// project (one op = all of the project's CRDs): the request body decoded
// and validated, as a CRD create request (manifest.UnmarshalCRD and
// crd.Validate; upstream's strict decoder, preparation and
// ValidateCustomResourceDefinition through rest.ValidateCreate).
func BenchmarkValidateCRD(b *testing.B) {
	for _, fam := range families(b) {
		b.Run(fam.name, func(b *testing.B) {
			b.Run("crdschema", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for _, c := range fam.crds {
						if _, err := crdschemaValidateCRD(c.body); err != nil {
							b.Fatalf("%s: %v", c.file, err)
						}
					}
				}
			})
			b.Run("upstream", func(b *testing.B) {
				r := newUpstreamCRDRequest()
				b.ReportAllocs()
				for b.Loop() {
					for _, c := range fam.crds {
						if _, _, err := r.create(c.body); err != nil {
							b.Fatalf("%s: %v", c.file, err)
						}
					}
				}
			})
		})
	}
}

// BenchmarkValidateCRDCached measures a CRD validated again, as crdtest,
// the fake client and crdcheck validate CRDs they have decoded: each
// project's CRDs, decoded before the timer starts, validated with a
// crd.WithCache that one validation of the same CRDs filled (so that what
// is measured is the digest of each CRD's values that finds its verdict),
// against upstream's validation of the same decoded CRDs (the create
// request of BenchmarkValidateCRD after its decoding: system fields,
// preparation, validation), which has no such cache and does all its work
// every time. Decoding, the same for a first and a later validation, is
// BenchmarkDecodeCRD.
func BenchmarkValidateCRDCached(b *testing.B) {
	for _, fam := range families(b) {
		b.Run(fam.name, func(b *testing.B) {
			b.Run("crdschema", func(b *testing.B) {
				ctx := context.Background()
				cache := crd.WithCache(new(celrules.Cache))
				defs := make([]*crdschema.CustomResourceDefinition, len(fam.crds))
				for i, c := range fam.crds {
					def, _, err := manifest.UnmarshalCRD(c.body)
					if err != nil {
						b.Fatalf("%s: %v", c.file, err)
					}
					defs[i] = def
					cold := crd.Validate(ctx, def)
					warm := crd.Validate(ctx, def, cache)
					if again := crd.Validate(ctx, def, cache); fmt.Sprint(cold.ToAggregate()) != fmt.Sprint(warm.ToAggregate()) ||
						fmt.Sprint(again.ToAggregate()) != fmt.Sprint(warm.ToAggregate()) {
						b.Fatalf("%s: validated with a cache: %v, then %v; without: %v", c.file, warm, again, cold)
					}
				}
				b.ReportAllocs()
				for b.Loop() {
					for _, def := range defs {
						crd.Validate(ctx, def, cache)
					}
				}
			})
			b.Run("upstream", func(b *testing.B) {
				r := newUpstreamCRDRequest()
				defs := make([]*apiextensions.CustomResourceDefinition, len(fam.crds))
				for i, c := range fam.crds {
					def, err := r.decode(c.body)
					if err != nil {
						b.Fatalf("%s: %v", c.file, err)
					}
					defs[i] = def
					first, err := r.validate(def)
					if err != nil {
						b.Fatalf("%s: %v", c.file, err)
					}
					if again, _ := r.validate(def); fmt.Sprint(again) != fmt.Sprint(first) {
						b.Fatalf("%s: validated again: %v; first: %v", c.file, again, first)
					}
				}
				b.ReportAllocs()
				for b.Loop() {
					for i, def := range defs {
						if _, err := r.validate(def); err != nil {
							b.Fatalf("%s: %v", fam.crds[i].file, err)
						}
					}
				}
			})
		})
	}
}

// BenchmarkDecodeCRD measures the decoding part of BenchmarkValidateCRD
// alone: manifest.UnmarshalCRD; upstream's strict decoder with v1
// defaulting and conversion to the internal type.
func BenchmarkDecodeCRD(b *testing.B) {
	for _, fam := range families(b) {
		b.Run(fam.name, func(b *testing.B) {
			b.Run("crdschema", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for _, c := range fam.crds {
						if _, _, err := manifest.UnmarshalCRD(c.body); err != nil {
							b.Fatalf("%s: %v", c.file, err)
						}
					}
				}
			})
			b.Run("upstream", func(b *testing.B) {
				r := newUpstreamCRDRequest()
				b.ReportAllocs()
				for b.Loop() {
					for _, c := range fam.crds {
						if _, err := r.decode(c.body); err != nil {
							b.Fatalf("%s: %v", c.file, err)
						}
					}
				}
			})
		})
	}
}

// BenchmarkServe measures what is done once per CRD version before
// serving it: crd.New; upstream's serving set-up (structural schemas with
// pruned defaults, schema validators, strategies with CEL compilation,
// converter).
func BenchmarkServe(b *testing.B) {
	for _, ex := range examples {
		b.Run(ex.name, func(b *testing.B) {
			s := serve(b, ex)
			b.Run("crdschema", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := newResource(s.def, s.version); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("upstream", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := newUpstreamServer(s.upCRD, s.version); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkCreate measures the create pipeline on the example objects: the
// JSON request body decoded, pruned, defaulted, prepared and validated
// (schema, metadata, CEL rules).
func BenchmarkCreate(b *testing.B) {
	for _, ex := range examples {
		b.Run(ex.name, func(b *testing.B) {
			s := serve(b, ex)
			b.Run("crdschema", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := crdschemaCreate(s.res, s.body); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("upstream", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := s.up.create(s.body); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// ratchetCase is an update of an HTTPRoute whose stored form breaks rules
// of the current CRD in fields the update does not touch.
type ratchetCase struct {
	*served
	update  []byte // the request body
	stored  []byte // the object as stored
	old     map[string]any
	upStore *unstructured.Unstructured // upstream: the stored object, decoded once
}

func newRatchetCase(tb testing.TB) *ratchetCase {
	tb.Helper()
	s := serve(tb, examples[0])
	c := &ratchetCase{served: s, update: objectBody(tb, "httproute-update.yaml"), stored: objectBody(tb, "httproute-stored.yaml")}
	var err error
	if c.old, err = decodeObject(c.stored); err != nil {
		tb.Fatal(err)
	}
	if c.upStore, err = s.up.decodeStored(c.stored); err != nil {
		tb.Fatal(err)
	}
	return c
}

// BenchmarkUpdateRatchet measures an update whose stored object breaks
// schema and CEL rules in fields the update leaves as they are, so that
// only ratcheting lets it through. The stored object is decoded once, as
// the API server's watch cache holds it decoded; upstream validates a
// copy of it, crdschema's Update reads it (copy, storage decoding,
// defaulting) on every call.
func BenchmarkUpdateRatchet(b *testing.B) {
	c := newRatchetCase(b)
	b.Run("HTTPRoute", func(b *testing.B) {
		b.Run("crdschema", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := crdschemaUpdate(c.res, c.update, c.old); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("upstream", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := c.up.update(c.update, c.upStore.DeepCopy()); err != nil {
					b.Fatal(err)
				}
			}
		})
	})
}

// celInput is an example's created object with the version's CEL rules
// compiled on both sides.
type celInput struct {
	obj      map[string]any
	compiled *celrules.Compiled
	upRules  func(map[string]any) int // upstream: validate, return the number of errors
}

func newCELInput(tb testing.TB, ex example) *celInput {
	tb.Helper()
	s := serve(tb, ex)
	r, err := crdschemaCreate(s.res, s.body)
	if err != nil {
		tb.Fatal(err)
	}
	props, _ := crd.VersionSchema(s.def, s.version)
	ss, err := structural.New(props)
	if err != nil {
		tb.Fatal(err)
	}
	compiled, err := celrules.Compile(ss, true)
	if err != nil {
		tb.Fatal(err)
	}
	v, us, err := upstreamRules(s.upCRD, s.version)
	if err != nil {
		tb.Fatal(err)
	}
	return &celInput{
		obj:      r.Object,
		compiled: compiled,
		upRules:  func(obj map[string]any) int { return len(upstreamValidateRules(v, us, obj)) },
	}
}

// BenchmarkCEL measures the evaluation of a version's CEL rules alone on
// the created example object (rules compiled once, the whole object
// validated with the per-object runtime budget).
func BenchmarkCEL(b *testing.B) {
	for _, ex := range examples {
		b.Run(ex.name, func(b *testing.B) {
			in := newCELInput(b, ex)
			ctx := context.Background()
			b.Run("crdschema", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					in.compiled.Validate(ctx, nil, in.obj, nil)
				}
			})
			b.Run("upstream", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					in.upRules(in.obj)
				}
			})
		})
	}
}

// BenchmarkOpenAPIV3 measures publishing a CRD version as the OpenAPI v3
// document of /openapi/v3/apis/<group>/<version>: built and marshaled to
// JSON.
func BenchmarkOpenAPIV3(b *testing.B) {
	for _, ex := range examples {
		b.Run(ex.name, func(b *testing.B) {
			s := serve(b, ex)
			b.Run("crdschema", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := crdschemaOpenAPIV3(s.def, s.version); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.Run("upstream", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := upstreamOpenAPIV3(s.upCRD, s.version); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

func crdschemaOpenAPIV3(def *crdschema.CustomResourceDefinition, version string) ([]byte, error) {
	doc, err := openapi.V3(def, version, openapi.Options{})
	if err != nil {
		return nil, err
	}
	return doc.MarshalJSON()
}

// headlineObjects is the number of HTTPRoutes of the headline benchmark.
const headlineObjects = 2000

// BenchmarkHeadline creates 2,000 HTTPRoute example objects, each under a
// name of its own, with all CEL rules: one op is all 2,000 (ns/op is the
// wall time), serially on one goroutine, and in parallel on GOMAXPROCS
// goroutines sharing one Resource (one serving set-up upstream). The
// parallel run is repeated with GOMAXPROCS=1 ("parallel-1core"): how much
// faster "parallel" is shows how the work scales with cores (the serial
// run is no baseline for that: the garbage collector uses the idle cores).
func BenchmarkHeadline(b *testing.B) {
	s := serve(b, examples[0])
	bodies := uniqueBodies(b, s.body, headlineObjects)
	sides := []struct {
		name   string
		create func([]byte) error
	}{
		{"crdschema", func(body []byte) error { _, err := crdschemaCreate(s.res, body); return err }},
		{"upstream", func(body []byte) error { _, _, err := s.up.create(body); return err }},
	}
	for _, mode := range []struct {
		name string
		run  func([][]byte, func([]byte) error) error
	}{{"serial", serially}, {"parallel", inParallel}, {"parallel-1core", onOneCore(inParallel)}} {
		b.Run(mode.name, func(b *testing.B) {
			for _, side := range sides {
				b.Run(side.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if err := mode.run(bodies, side.create); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(b.N*len(bodies))/b.Elapsed().Seconds(), "objects/s")
				})
			}
		})
	}
}

func serially(bodies [][]byte, create func([]byte) error) error {
	for _, body := range bodies {
		if err := create(body); err != nil {
			return err
		}
	}
	return nil
}

// onOneCore runs run with GOMAXPROCS=1.
func onOneCore(run func([][]byte, func([]byte) error) error) func([][]byte, func([]byte) error) error {
	return func(bodies [][]byte, create func([]byte) error) error {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
		return run(bodies, create)
	}
}

// inParallel creates the bodies on GOMAXPROCS goroutines, each taking the
// next body not yet taken.
func inParallel(bodies [][]byte, create func([]byte) error) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(bodies) {
					return
				}
				if err := create(bodies[i]); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return firstErr
}
