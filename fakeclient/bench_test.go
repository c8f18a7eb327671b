package fakeclient_test

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"github.com/crdschema/crdschema/fakeclient"
	"github.com/crdschema/crdschema/manifest"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
)

// The ten standard-channel CRDs of Gateway API (the version the library's
// conformance data holds) and the HTTPRoute CORS example of its docs.
const (
	gatewayStandardCRDs = "../conformance/testdata/crdcheck/crds/standard"
	httpRouteCORS       = "../conformance/testdata/crdcheck/objects/examples_standard_http-cors_httproute-all-fields-set.yaml"
)

// BenchmarkBuildGatewayAPI builds a client with the ten standard-channel
// Gateway API CRDs: reading, validating and compiling them.
func BenchmarkBuildGatewayAPI(b *testing.B) {
	defer reportCPU(b, "cpu-ms/build", 1e3, false)()
	for b.Loop() {
		if _, err := fakeclient.NewClientBuilder().WithScheme(runtime.NewScheme()).WithCRDFiles(gatewayStandardCRDs).Build(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCreateHTTPRouteCORS creates the HTTPRoute CORS example through
// the client, under a new name each time.
func BenchmarkCreateHTTPRouteCORS(b *testing.B) {
	c, err := fakeclient.NewClientBuilder().WithScheme(runtime.NewScheme()).WithCRDFiles(gatewayStandardCRDs).
		WithWarningHandler(rest.NoWarnings{}).Build()
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
	ctx := context.Background()
	i := 0
	defer reportCPU(b, "cpu-creates/s", 1, true)()
	for b.Loop() {
		u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(obj)}
		u.SetNamespace("default")
		u.SetName(fmt.Sprintf("cors-%d", i))
		i++
		if err := c.Create(ctx, u); err != nil {
			b.Fatal(err)
		}
	}
}

// reportCPU reports the process's CPU time (user and system, all threads)
// per operation in unit (scaled by scale), or operations per CPU second when
// rate is set: on a busy shared machine, wall-clock time says little.
func reportCPU(b *testing.B, unit string, scale float64, rate bool) func() {
	start := cpuTime()
	return func() {
		d := (cpuTime() - start).Seconds()
		if d <= 0 || b.N == 0 {
			return
		}
		if rate {
			b.ReportMetric(float64(b.N)/d, unit)
		} else {
			b.ReportMetric(d/float64(b.N)*scale, unit)
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
