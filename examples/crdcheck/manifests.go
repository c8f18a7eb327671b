package main

import (
	"fmt"
	"io"
	"os"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/yamljson"
)

// document is one object of a manifest file, or a file or document that
// could not be decoded.
type document struct {
	file     string
	document int // 1-based position of the document in the file; 0 for the whole file
	item     int // 1-based position in the items of a List; 0 otherwise
	obj      map[string]any
	err      error // decoding failed; obj is nil
}

// where is the document's location as the report shows it:
// "file#2" or "file#2.items[0]".
func (d *document) where() string {
	switch {
	case d.document == 0:
		return d.file
	case d.item > 0:
		return fmt.Sprintf("%s#%d.items[%d]", d.file, d.document, d.item-1)
	}
	return fmt.Sprintf("%s#%d", d.file, d.document)
}

// readManifests expands paths and decodes the documents of every file,
// jobs files at a time, in file order; "-" is read from stdin. It fails
// only when a file cannot be read.
func readManifests(paths []string, stdin io.Reader, jobs int) ([]document, error) {
	files, err := expandPaths(paths)
	if err != nil {
		return nil, err
	}
	perFile := make([][]document, len(files))
	errs := make([]error, len(files))
	parallel(len(files), jobs, func(i int) {
		var data []byte
		var err error
		if files[i] == stdinName {
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(files[i])
		}
		if err != nil {
			errs[i] = err
			return
		}
		perFile[i] = decodeManifest(files[i], data)
	})
	var out []document
	for i := range files {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out = append(out, perFile[i]...)
	}
	return out, nil
}

// decodeManifest returns the objects of one file: every non-empty document
// of a YAML stream or the JSON document, with the items of v1 Lists taken
// one by one, as kubectl does.
func decodeManifest(file string, data []byte) []document {
	docs, err := yamljson.Split(data)
	if err != nil {
		return []document{{file: file, err: err}}
	}
	out := make([]document, 0, len(docs))
	for i, d := range docs {
		doc := document{file: file, document: i + 1}
		v, err := crdschema.DecodeJSON(d)
		obj, isObject := v.(map[string]any)
		switch {
		case err != nil:
			doc.err = err
		case !isObject:
			doc.err = fmt.Errorf("the document is not an object")
		case isList(obj):
			items, _ := obj["items"].([]any)
			for j, it := range items {
				item := document{file: file, document: i + 1, item: j + 1}
				if item.obj, _ = it.(map[string]any); item.obj == nil {
					item.err = fmt.Errorf("the item is not an object")
				}
				out = append(out, item)
			}
			continue
		default:
			doc.obj = obj
		}
		out = append(out, doc)
	}
	return out
}

// isList reports whether obj is a v1 List (what kubectl get -o yaml
// writes for several objects), whose items kubectl applies one by one.
func isList(obj map[string]any) bool {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	return av == "v1" && kind == "List"
}
