package fakeclient_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/crdschema/crdschema/fakeclient"
	"github.com/crdschema/crdschema/manifest"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// The ten standard-channel CRDs of Gateway API (the version the library's
// conformance data holds) and the HTTPRoute CORS example of its docs.
const (
	gatewayStandardCRDs = "../conformance/testdata/crdcheck/crds/standard"
	httpRouteCORS       = "../conformance/testdata/crdcheck/objects/examples_standard_http-cors_httproute-all-fields-set.yaml"
)

// BenchmarkBuildGatewayAPI builds a client with the ten standard-channel
// Gateway API CRDs: reading and validating them (versions are compiled on
// first use), and reports the CPU time of a build:
//
//   - first: the first Build of a process, which also pays for what is
//     set up once per process (measured in a new process each time);
//   - later: a Build after others, in the same process;
//   - shared: a Build with WithCRDSet, the CRDs prepared once by
//     BuildCRDSet.
func BenchmarkBuildGatewayAPI(b *testing.B) {
	b.Run("first", func(b *testing.B) {
		var cpu time.Duration
		for b.Loop() {
			d, err := firstBuildCPU()
			if err != nil {
				b.Fatal(err)
			}
			cpu += d
		}
		b.ReportMetric(cpu.Seconds()*1e3/float64(b.N), "cpu-ms/build")
	})
	b.Run("later", func(b *testing.B) {
		if _, err := buildGatewayAPI(); err != nil {
			b.Fatal(err)
		}
		defer reportCPU(b, "cpu-ms/build", 1e3, false)()
		for b.Loop() {
			if _, err := buildGatewayAPI(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("shared", func(b *testing.B) {
		set, err := fakeclient.NewClientBuilder().WithCRDFiles(gatewayStandardCRDs).BuildCRDSet()
		if err != nil {
			b.Fatal(err)
		}
		defer reportCPU(b, "cpu-ms/build", 1e3, false)()
		for b.Loop() {
			if _, err := fakeclient.NewClientBuilder().WithScheme(runtime.NewScheme()).WithCRDSet(set).Build(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func buildGatewayAPI() (client.WithWatch, error) {
	return fakeclient.NewClientBuilder().WithScheme(runtime.NewScheme()).WithCRDFiles(gatewayStandardCRDs).Build()
}

// firstBuildCPU runs the test binary again to build a client in a new
// process (TestFirstBuildChild), and returns the CPU time of that Build.
func firstBuildCPU() (time.Duration, error) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestFirstBuildChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), firstBuildChild+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("%v: %s", err, out)
	}
	_, after, ok := strings.Cut(string(out), "first-build-cpu-ns ")
	if !ok {
		return 0, fmt.Errorf("no CPU time in the output: %s", out)
	}
	ns, err := strconv.ParseInt(strings.Fields(after)[0], 10, 64)
	return time.Duration(ns), err
}

// firstBuildChild is set in the environment of the process firstBuildCPU
// starts.
const firstBuildChild = "FAKECLIENT_FIRST_BUILD_CHILD"

// TestFirstBuildChild is the child process of BenchmarkBuildGatewayAPI/first:
// it builds a client and prints the CPU time the Build took.
func TestFirstBuildChild(t *testing.T) {
	if os.Getenv(firstBuildChild) == "" {
		t.Skip("runs only as the child process of BenchmarkBuildGatewayAPI/first")
	}
	start := cpuTime()
	if _, err := buildGatewayAPI(); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("first-build-cpu-ns %d\n", cpuTime()-start)
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
