package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// httpRoutes writes the input of bench/crdcheck (n copies of the Gateway
// API's CORS example, each under its own name, in one file) and returns
// its path and the HTTPRoute CRD's.
func httpRoutes(b testing.TB, n int) (routes, crd string) {
	example, err := os.ReadFile("../../conformance/testdata/crdcheck/objects/examples_standard_http-cors_httproute-all-fields-set.yaml")
	if err != nil {
		b.Fatal(err)
	}
	name := regexp.MustCompile(`(?m)^  name: (.*)$`)
	var buf bytes.Buffer
	for i := 0; i < n; i++ {
		if i > 0 {
			buf.WriteString("---\n")
		}
		buf.Write(name.ReplaceAll(example, []byte(fmt.Sprintf("  name: ${1}-%d", i))))
	}
	routes = filepath.Join(b.TempDir(), "routes.yaml")
	if err := os.WriteFile(routes, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return routes, "../../conformance/testdata/crdcheck/crds/standard/gateway.networking.k8s.io_httproutes.yaml"
}

// BenchmarkHTTPRoutes is bench/crdcheck's run in-process: 2,000 HTTPRoutes
// against the HTTPRoute CRD.
func BenchmarkHTTPRoutes(b *testing.B) {
	routes, crd := httpRoutes(b, 2000)
	b.ReportAllocs()
	for b.Loop() {
		var out bytes.Buffer
		if code := run([]string{"-crds", crd, routes}, nil, &out, io.Discard); code != exitOK {
			b.Fatalf("exit status %d: %s", code, out.String())
		}
	}
}
