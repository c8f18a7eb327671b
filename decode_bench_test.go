package crdschema

import "testing"

// BenchmarkUnmarshalCRDCorpus decodes every CRD of each project of
// bench/testdata/crds (one op = all of a project's CRDs): UnmarshalCRD,
// and the reference decoding it falls back to (crdFromJSONGeneric), for
// a side-by-side ratio. Besides the wall time it reports the process's
// CPU time per op (cpu-ns/op, with the garbage collector's), which a
// busy machine disturbs less.
func BenchmarkUnmarshalCRDCorpus(b *testing.B) {
	for _, p := range corpusProjects(b) {
		b.Run(p.name, func(b *testing.B) {
			for _, dec := range []struct {
				name   string
				decode func([]byte) (*CustomResourceDefinition, []string, error)
			}{{"UnmarshalCRD", UnmarshalCRD}, {"reference", crdFromJSONGeneric}} {
				b.Run(dec.name, func(b *testing.B) {
					b.ReportAllocs()
					start := cpuTime()
					for b.Loop() {
						for _, body := range p.bodies {
							if _, _, err := dec.decode(body); err != nil {
								b.Fatal(err)
							}
						}
					}
					if n := b.N; n > 0 && start > 0 {
						b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
					}
				})
			}
		})
	}
}
