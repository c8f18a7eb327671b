package celrules

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"os"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
)

// httpRoute loads the Gateway API HTTPRoute case: its schema and its
// example objects.
func httpRoute(b testing.TB) (*structural.Schema, []any) {
	f, err := os.Open("testdata/httproute.json.gz")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		b.Fatal(err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	var c goldenCase
	if err := json.Unmarshal(data, &c); err != nil {
		b.Fatal(err)
	}
	s := mustSchema(b, c.Schema)
	var objs []any
	for _, r := range c.Requests {
		objs = append(objs, mustDecode(b, r.Object))
	}
	return s, objs
}

func BenchmarkCompile(b *testing.B) {
	s, _ := httpRoute(b)
	// The base environments are built once per process; leave that out.
	if _, err := Compile(s, true); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Compile(s, true); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCheckSchema(b *testing.B) {
	s, _ := httpRoute(b)
	p := crdschema.NewPath("spec", "validation", "openAPIV3Schema")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, err := CheckSchema(s, p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	s, objs := httpRoute(b)
	c, err := Compile(s, true)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		opts []ValidateOption
	}{{"tracked", nil}, {"bounded", []ValidateOption{WithBoundedCost()}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, o := range objs {
					c.Validate(ctx, nil, o, nil, bc.opts...)
				}
			}
			b.ReportMetric(float64(len(objs)), "objects/op")
		})
	}
}
