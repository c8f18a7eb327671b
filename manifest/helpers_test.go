package manifest

// Stream helpers of the tests (internal/readall, which tests of this
// package cannot import).

import (
	"bytes"
	"io"

	"github.com/crdschema/crdschema"
)

// readObjects returns every object of the stream data; the first document
// that cannot be decoded ends it with its error.
func readObjects(data []byte) ([]map[string]any, error) {
	var out []map[string]any
	err := each(data, func(doc *Document) error {
		out = append(out, doc.Object)
		return nil
	})
	return out, err
}

// readCRDs returns every CustomResourceDefinition of the stream data,
// skipping objects of other kinds; the first document that cannot be
// decoded ends it with its error.
func readCRDs(data []byte) ([]*crdschema.CustomResourceDefinition, error) {
	var out []*crdschema.CustomResourceDefinition
	err := each(data, func(doc *Document) error {
		if doc.Object["kind"] != "CustomResourceDefinition" {
			return nil
		}
		def, _, err := UnmarshalCRD(doc.JSON)
		if err != nil {
			return err
		}
		out = append(out, def)
		return nil
	})
	return out, err
}

func each(data []byte, f func(*Document) error) error {
	dec := NewDecoder(bytes.NewReader(data))
	for {
		doc, err := dec.Decode()
		if doc == nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		if err != nil {
			return err
		}
		if err := f(doc); err != nil {
			return err
		}
	}
}
