package jsonpath

import (
	"io"
	"testing"
)

func BenchmarkJSONPath(b *testing.B) {
	data := decode(b, nodesJSON)
	for _, c := range []struct{ name, text string }{
		{"field", "{.items[0].metadata.name}"},
		{"filter", `{.items[*].status.addresses[?(@.type=="another")].address}`},
		{"range", `{range .items[*]}{.metadata.name}{"\t"}{.status.capacity.cpu}{"\n"}{end}`},
		{"recursive", "{..address}"},
	} {
		t := MustParse(c.name, c.text)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := t.Execute(io.Discard, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("p", `{range .items[*]}{.metadata.name}{.status.conditions[?(@.type=="Ready")].status}{end}`); err != nil {
			b.Fatal(err)
		}
	}
}
