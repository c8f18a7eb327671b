package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/yamljson"
)

// A Decoder reads the objects of a stream of manifests: the documents of
// a YAML stream, or one JSON document, one at a time, without holding
// the whole stream in memory. A v1 List (kind List, apiVersion v1, what
// kubectl get -o yaml writes for several objects) gives its items one by
// one, as kubectl applies them.
type Decoder struct {
	s     *yamljson.Splitter
	index int

	list  *Document // the List whose items are being returned
	items []any     // its items not yet returned
	item  int       // the position of the next one
}

// NewDecoder returns a Decoder that reads r.
func NewDecoder(r io.Reader) *Decoder {
	return &Decoder{s: yamljson.NewSplitter(r)}
}

// A Document is one object of a stream, and where it lies.
type Document struct {
	Index int // 1-based position of the document among the stream's documents
	Line  int // 1-based line of its first line of content
	Item  int // 1-based position in the items of a List; 0 otherwise

	Object map[string]any // the object, as UnmarshalObject decodes it
	JSON   []byte         // the object as JSON, for UnmarshalCRD (what kubectl sends)
}

// Decode returns the next object of the stream, and io.EOF after the
// last.
//
// A document that cannot be decoded (bad YAML or JSON, not an object, a
// List whose items are not objects) gives its Document, without Object
// and JSON, and an error that names its line; the next call goes on with
// the next document. An error with a nil Document is a read error of the
// underlying reader (or io.EOF), and the stream ends there.
func (d *Decoder) Decode() (*Document, error) {
	if d.list != nil {
		return d.nextItem()
	}
	for {
		c, err := d.s.Next()
		if err != nil {
			return nil, err
		}
		d.index++
		doc := &Document{Index: d.index, Line: c.Line}
		var j []byte
		if yamljson.IsJSON(c.Data) {
			j = c.Data
		} else if j, err = documentJSON(c); err != nil {
			return doc, doc.fail(err)
		}
		v, err := jsonscan.Decode(j)
		if err != nil {
			return doc, doc.fail(err)
		}
		if v == nil {
			continue // a null document, which kubectl skips
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return doc, doc.fail(notObject(v))
		}
		if isList(obj) {
			items, ok := obj["items"].([]any)
			if !ok && obj["items"] != nil {
				return doc, doc.fail(errors.New("the List's items are not a list"))
			}
			d.list, d.items, d.item = doc, items, 0
			return d.nextItem()
		}
		doc.Object, doc.JSON = obj, j
		return doc, nil
	}
}

// nextItem returns the next item of the List being read.
func (d *Decoder) nextItem() (*Document, error) {
	if len(d.items) == 0 {
		d.list = nil
		return d.Decode()
	}
	it := d.items[0]
	d.items = d.items[1:]
	d.item++
	doc := &Document{Index: d.list.Index, Line: d.list.Line, Item: d.item}
	obj, ok := it.(map[string]any)
	if !ok {
		return doc, doc.fail(errors.New("the List item is not an object"))
	}
	j, err := json.Marshal(obj)
	if err != nil {
		return doc, doc.fail(err)
	}
	doc.Object, doc.JSON = obj, j
	return doc, nil
}

// fail returns err with the document's place.
func (doc *Document) fail(err error) error {
	if doc.Item > 0 {
		return fmt.Errorf("document %d (line %d) items[%d]: %w", doc.Index, doc.Line, doc.Item-1, err)
	}
	return fmt.Errorf("document %d (line %d): %w", doc.Index, doc.Line, err)
}

// isList reports whether obj is a v1 List, whose items kubectl applies
// one by one.
func isList(obj map[string]any) bool {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	return av == "v1" && kind == "List"
}
