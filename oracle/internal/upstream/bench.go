package upstream

// Benchmark mode: how fast upstream is on the conformance cases, the inputs
// the library is measured on too.
//
//	oracle -bench [-benchtime 1s] [-count 5] PATH...
//	oracle -bench [-count 5] -object OBJECT.yaml [-n 2000] CASE.yaml
//
// For each case the oracle first runs the case as the normal mode does (so a
// malformed case is reported, not measured, and everything is warmed up),
// then measures with testing.Benchmark, -count times each, the stages below.
// What the server builds once and caches is built once per case, outside the
// measurement.
//
//   - CRD: the CRD request: decoding (runtime.Decode into the internal type),
//     preparation and validation (ValidateCustomResourceDefinition through
//     rest.ValidateCreate/ValidateUpdate), as runCRDStep does it; not the CEL
//     cost report or the conversion to v1, which are the oracle's own work.
//     For an update, the stored oldCRD is decoded once and copied per request,
//     as the watch cache hands out copies.
//   - Serve: newServingInfo for the case's version (structural schemas of all
//     versions, schema validators, strategies with CEL compilation, converter,
//     table convertor), as the custom resource handler builds it on the first
//     request for the CRD.
//   - Create, Update: each create (update) request of the case once per
//     iteration, through what runRequest does up to and including validation:
//     decoding from the JSON body (serializer, coercer with pruning,
//     defaulting), the API version check, preparation and validation with
//     CEL. Not the table, nor recording the result. The stored object of an
//     update is decoded once and copied per request. Figures are per request.
//
// With -object, instead of the stages: -n creates of the object (a YAML file
// with one custom resource), each under a name of its own, through the
// serving set-up of the case, on one goroutine; the line gives the total wall
// time besides the per-create figures.
//
// Each measurement is one line in the Go benchmark format (benchstat reads
// it), named after the stage and the case path without .yaml, relative to
// the conformance cases folder:
//
//	BenchmarkCreate/realworld/karpenter/karpenter.sh_nodepools/upstream  1200  98765 ns/op  54321 B/op  678 allocs/op

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apiserver"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
)

type BenchOptions struct {
	Benchtime string // as go test's -benchtime: a duration, or Nx
	Count     int
	Object    string // -object: the create stream instead of the stages
	N         int    // -object: the number of creates
}

// benchStage is one measured step of a case. run performs it once; ops is
// the number of operations one run counts for (the case's requests).
type benchStage struct {
	stage string // CRD, Serve, Create, Update
	ops   int
	run   func() error
}

// RunBench measures the cases and writes the results to stdout. It returns
// the exit status: 2 when a case could not be measured.
func RunBench(files []string, opts BenchOptions) int {
	if opts.Count < 1 {
		fmt.Fprintln(os.Stderr, "oracle: -count must be at least 1")
		return 2
	}
	testing.Init() // registers test.benchtime, read by testing.Benchmark
	if err := flag.Set("test.benchtime", opts.Benchtime); err != nil {
		fmt.Fprintf(os.Stderr, "oracle: -benchtime %s: %v\n", opts.Benchtime, err)
		return 2
	}
	printBenchConfig()

	if opts.Object != "" {
		if len(files) != 1 {
			fmt.Fprintln(os.Stderr, "oracle: -object needs exactly one case file")
			return 2
		}
		if err := benchStream(files[0], opts); err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			return 2
		}
		return 0
	}

	failed := 0
	for _, f := range files {
		if err := benchCase(f, opts); err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "oracle: %d of %d cases could not be measured\n", failed, len(files))
		return 2
	}
	return 0
}

// benchCase measures the stages of one case, each -count times.
func benchCase(path string, opts BenchOptions) error {
	stages, err := benchStages(path)
	if err != nil {
		return err
	}
	for _, st := range stages {
		if err := st.run(); err != nil { // warm-up
			return fmt.Errorf("%s: %s: %w", path, st.stage, err)
		}
		name := "Benchmark" + st.stage + "/" + benchCaseName(path) + "/upstream"
		for i := 0; i < opts.Count; i++ {
			res, err := measure(st.run)
			if err != nil {
				return fmt.Errorf("%s: %s: %w", path, st.stage, err)
			}
			printBenchLine(name, int64(res.N)*int64(st.ops), res.T, res.MemBytes, res.MemAllocs)
		}
	}
	return nil
}

// measure runs run repeatedly with testing.Benchmark (which collects
// garbage before each round and ramps the iteration count up until the round
// lasts -benchtime).
func measure(run func() error) (testing.BenchmarkResult, error) {
	var failure error
	res := testing.Benchmark(func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if err := run(); err != nil {
				failure = err
				b.FailNow()
			}
		}
	})
	if failure == nil && res.N == 0 {
		failure = errors.New("the benchmark did not run")
	}
	return res, failure
}

// benchStages checks a case by running it as the normal mode does, then
// builds what the server caches and returns the stages to measure.
func benchStages(path string) ([]benchStage, error) {
	c, err := ReadCase(path)
	if err != nil {
		return nil, err
	}
	step, err := runCRDStep(c) // also sets c.Version
	if err != nil {
		return nil, withPath(path, err)
	}

	ctx := genericapirequest.WithNamespace(context.Background(), "")
	strategy := customresourcedefinition.NewStrategy(apiserver.Scheme)
	var storedOld *apiextensions.CustomResourceDefinition
	if c.OldCRD != nil {
		if storedOld, err = storedCRD(ctx, strategy, c.OldCRD); err != nil {
			return nil, &CaseError{path: path, msg: "oldCRD: " + err.Error()}
		}
	}
	stages := []benchStage{{stage: "CRD", ops: 1, run: func() error {
		crd, _, err := decodeCRD(c.CRD)
		if err != nil {
			return err
		}
		var old *apiextensions.CustomResourceDefinition
		if storedOld != nil {
			old = storedOld.DeepCopy()
		}
		_, err = admitCRD(ctx, strategy, c, crd, old)
		return err
	}}}
	if step.served == nil || len(c.Requests) == 0 {
		return stages, nil
	}

	version := c.Version
	si, err := newServingInfo(step.served, version)
	if err != nil {
		return nil, &CaseError{path: c.Path, msg: "cannot serve the CRD: " + err.Error()}
	}
	stages = append(stages, benchStage{stage: "Serve", ops: 1, run: func() error {
		_, err := newServingInfo(step.served, version)
		return err
	}})

	var creates, updates []benchRequest
	for i, r := range c.Requests {
		if _, err := si.runRequest(c, i, r); err != nil {
			return nil, withPath(path, err)
		}
		br := benchRequest{Request: r, what: fmt.Sprintf("requests[%d]", i)}
		if r.Operation == "create" {
			creates = append(creates, br)
			continue
		}
		if br.stored, err = si.decodeStored(r.OldObject); err != nil {
			return nil, &CaseError{path: path, msg: br.what + ".oldObject: " + err.Error()}
		}
		updates = append(updates, br)
	}
	for _, g := range []struct {
		stage string
		reqs  []benchRequest
	}{{"Create", creates}, {"Update", updates}} {
		if len(g.reqs) == 0 {
			continue
		}
		reqs := g.reqs
		stages = append(stages, benchStage{stage: g.stage, ops: len(reqs), run: func() error {
			for _, r := range reqs {
				if err := si.handle(c, r); err != nil {
					return err
				}
			}
			return nil
		}})
	}
	return stages, nil
}

// benchRequest is a request of a case ready to be run repeatedly.
type benchRequest struct {
	Request
	what   string
	stored *unstructured.Unstructured // update: oldObject as the storage codec decodes it
}

// handle is runRequest up to and including validation, without what only
// the oracle does (recording the result, rendering the table). The stored
// object of an update is a copy of the one decoded once.
func (si *servingInfo) handle(c *Case, r benchRequest) error {
	obj, gvk, _, err := si.decodeRequest(r.Object)
	if err != nil {
		_ = si.transformDecodeError(err, gvk, r.Object) // refused before validation
		return nil
	}
	if gvk.GroupVersion() != si.kind.GroupVersion() {
		return nil
	}
	if r.Operation == "create" {
		_, err = si.create(obj)
	} else {
		_, err = si.update(c, r.what, r.Subresource, obj, r.stored.DeepCopy())
	}
	var ce *CaseError
	if errors.As(err, &ce) {
		return err
	}
	return nil // a request error is an answer like any other
}

// benchStream measures -n creates of one object, each with a name of its
// own, through the serving set-up of the case, on one goroutine.
func benchStream(path string, opts BenchOptions) error {
	if opts.N < 1 {
		return errors.New("-n must be at least 1")
	}
	c, err := ReadCase(path)
	if err != nil {
		return err
	}
	step, err := runCRDStep(c)
	if err != nil {
		return withPath(path, err)
	}
	if step.served == nil {
		return fmt.Errorf("%s: the CRD is rejected", path)
	}
	si, err := newServingInfo(step.served, c.Version)
	if err != nil {
		return fmt.Errorf("%s: cannot serve the CRD: %w", path, err)
	}
	bodies, err := uniqueBodies(opts.Object, opts.N)
	if err != nil {
		return err
	}

	// check (and warm up) with the first body, as the normal mode runs it
	res, err := si.runRequest(c, 0, Request{Operation: "create", Object: bodies[0]})
	if err != nil {
		return withPath(path, err)
	}
	if res.RequestError != "" || len(res.Errors) > 0 {
		fmt.Fprintf(os.Stderr, "oracle: note: %s is not accepted (request error %q, %d validation errors); measured anyway\n", opts.Object, res.RequestError, len(res.Errors))
	}

	name := "BenchmarkCreateStream/" + benchCaseName(path) + "/" + strings.TrimSuffix(filepath.Base(opts.Object), ".yaml") + "/upstream"
	for i := 0; i < opts.Count; i++ {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		for _, body := range bodies {
			if err := si.handle(c, benchRequest{Request: Request{Operation: "create", Object: body}}); err != nil {
				return err
			}
		}
		wall := time.Since(start)
		runtime.ReadMemStats(&after)
		printBenchLine(name, int64(len(bodies)), wall, after.TotalAlloc-before.TotalAlloc, after.Mallocs-before.Mallocs,
			fmt.Sprintf("%.4f wall-s", wall.Seconds()))
	}
	return nil
}

// uniqueBodies reads a YAML file with one object and returns n JSON request
// bodies of it, the i-th named <metadata.name>-<i>.
func uniqueBodies(path string, n int) ([][]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, fmt.Errorf("%s: expected one YAML document", path)
	}
	root := resolveAlias(doc.Content[0])
	var nameNode *yaml.Node
	if meta := mappingValue(root, "metadata"); meta != nil {
		nameNode = mappingValue(meta, "name")
	}
	if nameNode == nil || nameNode.Kind != yaml.ScalarNode {
		return nil, fmt.Errorf("%s: the object needs a metadata.name", path)
	}
	base := nameNode.Value
	bodies := make([][]byte, n)
	for i := range bodies {
		nameNode.Tag, nameNode.Value = "!!str", fmt.Sprintf("%s-%d", base, i)
		if bodies[i], err = objectJSON(root, "object"); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	return bodies, nil
}

// withPath names the case file in err, as the normal mode does.
func withPath(path string, err error) error {
	var ce *CaseError
	if errors.As(err, &ce) {
		return err
	}
	return fmt.Errorf("%s: %w", path, err)
}

// mappingValue returns the value of key in the YAML mapping n, or nil.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := resolveAlias(n.Content[i]); k.Kind == yaml.ScalarNode && k.Value == key {
			return resolveAlias(n.Content[i+1])
		}
	}
	return nil
}

// benchCaseName is the case path without .yaml, relative to the last folder
// named "cases" on it (the conformance cases folder), so that names do not
// depend on where the oracle is run from.
func benchCaseName(path string) string {
	p := strings.TrimSuffix(filepath.ToSlash(filepath.Clean(path)), ".yaml")
	parts := strings.Split(p, "/")
	for i := len(parts) - 2; i >= 0; i-- {
		if parts[i] == "cases" {
			parts = parts[i+1:]
			break
		}
	}
	kept := parts[:0]
	for _, part := range parts {
		if part != "" && part != "." && part != ".." {
			kept = append(kept, part)
		}
	}
	return strings.Join(strings.Fields(strings.Join(kept, "/")), "_")
}

// printBenchLine writes one result in the Go benchmark format.
func printBenchLine(name string, ops int64, total time.Duration, bytes, allocs uint64, extra ...string) {
	nsPerOp := float64(total.Nanoseconds()) / float64(ops)
	ns := fmt.Sprintf("%.0f", nsPerOp)
	if nsPerOp < 100 {
		ns = fmt.Sprintf("%.2f", nsPerOp)
	}
	fields := []string{name, fmt.Sprint(ops), ns + " ns/op"}
	fields = append(fields, extra...)
	fields = append(fields, fmt.Sprintf("%d B/op", bytes/uint64(ops)), fmt.Sprintf("%d allocs/op", allocs/uint64(ops)))
	fmt.Println(strings.Join(fields, "\t"))
}

// printBenchConfig writes the configuration lines go test writes before
// benchmark results.
func printBenchConfig() {
	fmt.Printf("goos: %s\ngoarch: %s\n", runtime.GOOS, runtime.GOARCH)
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				fmt.Printf("cpu: %s\n", strings.TrimSpace(v))
				break
			}
		}
	}
}
