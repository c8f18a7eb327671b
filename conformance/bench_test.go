package conformance

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// benchCases are real-world CRDs of the cases with large example objects.
var benchCases = []string{
	"gateway-api/standard-gateway.networking.k8s.io_httproutes",
	"prometheus-operator/monitoring.coreos.com_prometheuses",
	"argo-cd/application-crd",
	"cluster-api/controlplane.cluster.x-k8s.io_kubeadmcontrolplanes",
	"karpenter/karpenter.sh_nodepools",
}

type benchInput struct {
	name    string
	def     *crdschema.CustomResourceDefinition
	version string
	bodies  []map[string]any
}

func loadBench(b *testing.B) []benchInput {
	b.Helper()
	var out []benchInput
	for _, name := range benchCases {
		p := filepath.Join("testdata", "cases", "realworld", name)
		c, err := readCase(p+".yaml", p+".golden.json")
		if err != nil {
			b.Fatal(err)
		}
		def, _, err := manifest.UnmarshalCRD(c.CRD)
		if err != nil {
			b.Fatal(err)
		}
		in := benchInput{name: filepath.Base(filepath.Dir(p)), def: def, version: c.Version}
		if in.version == "" {
			in.version = def.StorageVersion().Name
		}
		for _, r := range c.Requests {
			if r.Operation != "create" {
				continue
			}
			v, err := jsonscan.Decode(r.Object)
			if err != nil {
				b.Fatal(err)
			}
			in.bodies = append(in.bodies, v.(map[string]any))
		}
		out = append(out, in)
	}
	return out
}

// BenchmarkCreate runs the create pipeline (decoding, defaulting,
// preparation, schema, metadata and list validation, CEL) on the example
// objects; ns/op is per object.
func BenchmarkCreate(b *testing.B) {
	for _, in := range loadBench(b) {
		b.Run(in.name, func(b *testing.B) {
			r, err := crd.New(in.def, in.version)
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if res, err := r.Create(ctx, in.bodies[i%len(in.bodies)]); res.Object == nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkValidate runs the OpenAPI schema validation alone on the
// decoded and defaulted example objects.
func BenchmarkValidate(b *testing.B) {
	for _, in := range loadBench(b) {
		b.Run(in.name, func(b *testing.B) {
			r, err := crd.New(in.def, in.version)
			if err != nil {
				b.Fatal(err)
			}
			props, _ := crd.VersionSchema(in.def, in.version)
			s, err := structural.New(props)
			if err != nil {
				b.Fatal(err)
			}
			v, err := validation.New(s)
			if err != nil {
				b.Fatal(err)
			}
			var objs []map[string]any
			for _, body := range in.bodies {
				res, err := r.Create(context.Background(), body)
				if res.Object == nil {
					b.Fatal(err)
				}
				objs = append(objs, res.Object)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_ = v.Validate(nil, objs[i%len(objs)])
			}
		})
	}
}

// BenchmarkCRDValidate is crd.Validate of the real-world CRDs, CEL
// compilation and cost estimation included.
func BenchmarkCRDValidate(b *testing.B) {
	for _, in := range loadBench(b) {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				_ = crd.Validate(context.Background(), in.def)
			}
		})
	}
}

// BenchmarkCompileRules compiles a version's CEL rules for validation;
// BenchmarkEstimate is what CRD validation does with them: compilation in
// the environment for new expressions and the cost estimates. Their
// difference is what estimation adds to compilation.
func BenchmarkCompileRules(b *testing.B) {
	for _, in := range loadBench(b) {
		s := benchSchema(b, in)
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := celrules.Compile(s, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEstimate(b *testing.B) {
	for _, in := range loadBench(b) {
		s := benchSchema(b, in)
		_, p := crd.VersionSchema(in.def, in.version)
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := celrules.Check(s, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func benchSchema(b *testing.B, in benchInput) *structural.Schema {
	props, _ := crd.VersionSchema(in.def, in.version)
	s, err := structural.New(props)
	if err != nil {
		b.Fatal(err)
	}
	return s
}
