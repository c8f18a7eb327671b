package crdschema

import "testing"

// BenchmarkUnmarshalCRDCorpus decodes every CRD of each project of
// bench/testdata/crds (one op = all of a project's CRDs).
func BenchmarkUnmarshalCRDCorpus(b *testing.B) {
	for _, p := range corpusProjects(b) {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, body := range p.bodies {
					if _, _, err := UnmarshalCRD(body); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
