package main

import (
	"bytes"
	"strings"
	"testing"
)

const sampleOutput = `goos: linux
goarch: amd64
pkg: github.com/crdschema/crdschema/bench
cpu: AMD EPYC
BenchmarkCreate/HTTPRoute/crdschema-2   	    7000	    160000 ns/op	   38000 B/op	     800 allocs/op
BenchmarkCreate/HTTPRoute/upstream-2    	    1400	    800000 ns/op	  500000 B/op	    5000 allocs/op
BenchmarkCreate/HTTPRoute/crdschema-2   	    7000	    200000 ns/op	   38000 B/op	     800 allocs/op
BenchmarkCreate/HTTPRoute/upstream-2    	    1400	    900000 ns/op	  500000 B/op	    5000 allocs/op
BenchmarkCreate/HTTPRoute/crdschema-2   	    7000	    100000 ns/op	   38000 B/op	     800 allocs/op
BenchmarkCreate/HTTPRoute/upstream-2    	    1400	    700000 ns/op	  500000 B/op	    5000 allocs/op
BenchmarkValidateCRD/keda/crdschema-2   	      10	  90000000 ns/op	 9000000 B/op	  100000 allocs/op
BenchmarkValidateCRD/keda/upstream-2    	      30	  30000000 ns/op	 8000000 B/op	   80000 allocs/op
BenchmarkHeadline/serial/crdschema-2    	       1	 350000000 ns/op	      5714 objects/s	76000000 B/op	 1680000 allocs/op
BenchmarkHeadline/serial/upstream-2     	       1	1900000000 ns/op	      1052 objects/s	820000000 B/op	 9300000 allocs/op
BenchmarkHeadline/parallel/crdschema-2    	       1	 200000000 ns/op	     10000 objects/s	76000000 B/op	 1680000 allocs/op
BenchmarkHeadline/parallel/upstream-2     	       1	1000000000 ns/op	      2000 objects/s	820000000 B/op	 9300000 allocs/op
BenchmarkHeadline/parallel-1core/crdschema-2    	       1	 360000000 ns/op	      5555 objects/s	76000000 B/op	 1680000 allocs/op
BenchmarkHeadline/parallel-1core/upstream-2     	       1	1900000000 ns/op	      1052 objects/s	820000000 B/op	 9300000 allocs/op
BenchmarkOther/x/crdschema              	     100	      1000 ns/op
PASS
ok  	github.com/crdschema/crdschema/bench	12.3s
`

func TestParse(t *testing.T) {
	pairs, order, err := parse(strings.NewReader(sampleOutput))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"BenchmarkCreate/HTTPRoute", "BenchmarkValidateCRD/keda", "BenchmarkHeadline/serial", "BenchmarkHeadline/parallel", "BenchmarkHeadline/parallel-1core", "BenchmarkOther/x"}
	if strings.Join(order, ",") != strings.Join(want, ",") {
		t.Fatalf("order = %q, want %q", order, want)
	}
	c := pairs["BenchmarkCreate/HTTPRoute"].side["crdschema"]
	if len(c.ns) != 3 || median(c.ns) != 160000 {
		t.Errorf("crdschema ns/op = %v (median %v), want 3 values, median 160000", c.ns, median(c.ns))
	}
	h := pairs["BenchmarkHeadline/serial"].side["upstream"]
	if median(h.allocs) != 9300000 || median(h.bytes) != 820000000 {
		t.Errorf("headline upstream allocs %v bytes %v: a custom metric between the units confused the parser", h.allocs, h.bytes)
	}
	if pairs["BenchmarkOther/x"].side["upstream"] != nil {
		t.Error("a side that is not in the output was made up")
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{3, 1, 2}, 2},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestReport(t *testing.T) {
	pairs, order, err := parse(strings.NewReader(sampleOutput))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	report(&buf, pairs, order)
	out := buf.String()
	for _, want := range []string{
		// 160 µs against 800 µs: 1/5; 800 against 5000 allocs: 1/6.25
		"| Create/HTTPRoute | 160.0 µs | 800.0 µs | 0.200 (1/5.0) | 800 | 5000 | 0.160 (1/6.2) | time ≤ 1/7: **not met** |",
		"| ValidateCRD/keda | 90.00 ms | 30.00 ms | 3.00 | 100000 | 80000 | 1.25 | time ≤ 1/3.5: **not met** |",
		"| Other/x | (one side missing) |",
		"crdschema 0.350 s, upstream 1.900 s (target: under kubeconform's 0.43 s: met)",
		"In parallel (GOMAXPROCS goroutines, one Resource): crdschema 0.200 s, 1.75x the serial throughput; upstream 1.000 s, 1.90x.",
		"Scaling with cores: the parallel run on all cores is 1.80x as fast as on one core (GOMAXPROCS=1, 0.360 s); upstream 1.90x.",
		"| Create | 1 | 0.200 (1/5.0) | 0.160 (1/6.3) | geomean time ≤ 1/10, allocs ≤ 1/15: **not met**; each: 0 of 1 |",
		"| ValidateCRD | 1 | 3.00 | 1.25 | geomean time ≤ 1/4: **not met**; each: 0 of 1 |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q; it is:\n%s", want, out)
		}
	}
}
