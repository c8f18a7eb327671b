// Package readall reads every object or every CustomResourceDefinition of
// a manifest stream at once with package manifest, for the tests and
// benchmarks of this module; programs use a manifest.Decoder.
package readall

import (
	"bytes"
	"io"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/manifest"
)

// Objects returns every object of the stream data; the first document
// that cannot be decoded ends it with its error.
func Objects(data []byte) ([]map[string]any, error) {
	var out []map[string]any
	err := each(data, func(doc *manifest.Document) error {
		out = append(out, doc.Object)
		return nil
	})
	return out, err
}

// CRDs returns every CustomResourceDefinition of the stream data,
// skipping objects of other kinds; the first document that cannot be
// decoded ends it with its error.
func CRDs(data []byte) ([]*crdschema.CustomResourceDefinition, error) {
	var out []*crdschema.CustomResourceDefinition
	err := each(data, func(doc *manifest.Document) error {
		if doc.Object["kind"] != "CustomResourceDefinition" {
			return nil
		}
		def, _, err := manifest.UnmarshalCRD(doc.JSON)
		if err != nil {
			return err
		}
		out = append(out, def)
		return nil
	})
	return out, err
}

func each(data []byte, f func(*manifest.Document) error) error {
	dec := manifest.NewDecoder(bytes.NewReader(data))
	for {
		doc, err := dec.Decode()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := f(doc); err != nil {
			return err
		}
	}
}
