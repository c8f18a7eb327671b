//go:build unix

package testserver

import (
	"context"
	"fmt"
	"github.com/crdschema/crdschema/manifest"
	"os"
	"runtime"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// The ten CRDs of Gateway API's standard channel, as the fake client's
// benchmark uses them.
const (
	gatewayStandardCRDs = "../conformance/testdata/crdcheck/crds/standard"
	httpRouteCORS       = "../conformance/testdata/crdcheck/objects/examples_standard_http-cors_httproute-all-fields-set.yaml"
)

// BenchmarkStartGatewayAPI measures the time from Start to a ready
// *rest.Config serving the Gateway API CRDs, as a suite that starts a
// server per test sees it (the process has read and validated the files
// before): wall time (ns/op), CPU time (cpu-ms/start, all threads; on a
// shared machine the wall time is partly waiting for a CPU), and the heap
// the running server holds (heap-MB, after a collection).
func BenchmarkStartGatewayAPI(b *testing.B) {
	benchmarkStart(b, false)
}

// BenchmarkStartGatewayAPICold is BenchmarkStartGatewayAPI for the first
// server of a process: the CRD files are read and validated each time.
func BenchmarkStartGatewayAPICold(b *testing.B) {
	benchmarkStart(b, true)
}

func benchmarkStart(b *testing.B, cold bool) {
	var heap float64
	var cpu time.Duration
	for b.Loop() {
		if cold {
			forgetCRDFiles()
		}
		c0 := cpuTime()
		srv, err := Start(WithCRDFiles(gatewayStandardCRDs))
		if err != nil {
			b.Fatal(err)
		}
		_ = srv.RESTConfig()
		cpu += cpuTime() - c0
		b.StopTimer()
		var after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = float64(after.HeapAlloc) / (1 << 20)
		_ = srv.Close()
		b.StartTimer()
	}
	b.ReportMetric(heap, "heap-MB")
	b.ReportMetric(float64(cpu.Microseconds())/1e3/float64(b.N), "cpu-ms/start")
}

// cpuTime is the CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCreateHTTPRouteCORS creates HTTPRoutes over HTTP through the
// dynamic client.
func BenchmarkCreateHTTPRouteCORS(b *testing.B) {
	srv, err := Start(WithCRDFiles(gatewayStandardCRDs))
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	dc, err := dynamic.NewForConfig(srv.RESTConfig())
	if err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(httpRouteCORS)
	if err != nil {
		b.Fatal(err)
	}
	obj, err := manifest.UnmarshalObject(data)
	if err != nil {
		b.Fatal(err)
	}
	routes := dc.Resource(schema.GroupVersionResource{Group: "gateway.networking.k8s.io", Version: "v1", Resource: "httproutes"}).Namespace("default")
	ctx := context.Background()
	i := 0
	for b.Loop() {
		u := &unstructured.Unstructured{Object: deepCopyMap(obj)}
		u.SetNamespace("default")
		u.SetName(fmt.Sprintf("cors-%d", i))
		i++
		if _, err := routes.Create(ctx, u, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
