package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/yamljson"
)

// document is one object of a manifest, or a document that could not be
// decoded into one.
type document struct {
	file  string         // the file's name as shown; stdinLabel for the standard input
	line  int            // 1-based line of the document's first line of content; 0 for the whole file
	index int            // 1-based position of the document among the file's documents; 0 for the whole file
	item  int            // 1-based position in the items of a List; 0 otherwise
	seq   int            // position of the document in the whole input, for ordering
	obj   map[string]any // the decoded object
	json  []byte         // the document as JSON, kept for CustomResourceDefinitions only
	maps  *mapSet        // the maps of obj, when the fast path made them all (see reuse)
	err   error          // the document cannot be used; obj is nil
}

// stdinLabel is how locations name the standard input.
const stdinLabel = "<stdin>"

// where is the document's location as the reports show it: "file:line",
// with " items[i]" for an item of a List, or the file alone.
func (d *document) where() string {
	switch {
	case d.line == 0:
		return d.file
	case d.item > 0:
		return fmt.Sprintf("%s:%d items[%d]", d.file, d.line, d.item-1)
	}
	return fmt.Sprintf("%s:%d", d.file, d.line)
}

// decodeChunk decodes one document of a file into its objects and passes
// them to emit: the document itself, or the items of a v1 List one by
// one, as kubectl applies them. The JSON form is kept for
// CustomResourceDefinitions, which are decoded from it into their typed
// form.
func decodeChunk(file string, c yamljson.Chunk, index, seq int, emit func(document)) {
	doc := document{file: file, line: c.Line, index: index, seq: seq}
	maps := newMapSet()
	v, fast := decodeDocument(c.Data, maps)
	if obj, _ := v.(map[string]any); fast && obj != nil && !isList(obj) && !isCRD(obj) {
		doc.obj, doc.maps = obj, maps
		emit(doc)
		return
	}
	maps.release() // the maps of Lists, CRDs and other values are not reused
	var j []byte
	if !fast {
		var err error
		if v, j, err = decodeFull(c); err != nil {
			doc.err = err
			emit(doc)
			return
		}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		doc.err = errors.New("cannot decode: the document is not an object")
		emit(doc)
		return
	}
	if isList(obj) {
		items, ok := obj["items"].([]any)
		if !ok && obj["items"] != nil {
			doc.err = errors.New("the List's items are not a list")
			emit(doc)
			return
		}
		lines := itemLines(c, len(items))
		for i, it := range items {
			item := doc
			item.item = i + 1
			if lines != nil {
				item.line = lines[i]
			}
			if item.obj, _ = it.(map[string]any); item.obj == nil {
				item.err = errors.New("the List item is not an object")
			} else if item.obj = listItem(obj, item.obj); isCRD(item.obj) {
				item.json = mustJSON(item.obj)
			}
			emit(item)
		}
		return
	}
	doc.obj = obj
	if isCRD(obj) {
		if j == nil {
			j = mustJSON(obj)
		}
		doc.json = j
	}
	emit(doc)
}

// decodeFull decodes a document as the library does (package manifest):
// YAML to JSON as sigs.k8s.io/yaml converts it, then the JSON with the
// API server's number model.
func decodeFull(c yamljson.Chunk) (any, []byte, error) {
	j := c.Data
	if !yamljson.IsJSON(j) {
		var err error
		if j, err = yamljson.ToJSON(c.Data); err != nil {
			return nil, nil, fmt.Errorf("cannot decode: %s", yamljson.AbsoluteLines(err.Error(), c.First))
		}
	}
	v, err := jsonscan.Decode(j)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot decode: %w", err)
	}
	return v, j, nil
}

// isList reports whether obj is a list whose items kubectl applies one by
// one: a v1 List (what kubectl get -o yaml writes for several objects) or
// a typed list (RoleList, ConfigMapList). kubectl's decoder takes any
// document with an items field, even null, for a list
// (unstructured.UnstructuredList), and its builder flattens it.
func isList(obj map[string]any) bool {
	_, ok := obj["items"]
	return ok
}

// listItem gives an item of a list without apiVersion and kind those the
// list implies, as kubectl's decoder does: the list's apiVersion, and its
// kind without the List suffix (the items of a RoleList are Roles).
func listItem(list, item map[string]any) map[string]any {
	av, _ := item["apiVersion"].(string)
	kind, _ := item["kind"].(string)
	if av != "" || kind != "" {
		return item
	}
	c := maps.Clone(item)
	listAV, _ := list["apiVersion"].(string)
	listKind, _ := list["kind"].(string)
	c["apiVersion"], c["kind"] = listAV, strings.TrimSuffix(listKind, "List")
	return c
}

// identity returns obj's apiVersion, kind, and the namespace and name of
// its metadata ("" where one is not a string).
func identity(obj map[string]any) (apiVersion, kind, namespace, name string) {
	apiVersion, _ = obj["apiVersion"].(string)
	kind, _ = obj["kind"].(string)
	meta, _ := obj["metadata"].(map[string]any)
	namespace, _ = meta["namespace"].(string)
	name, _ = meta["name"].(string)
	return apiVersion, kind, namespace, name
}

// The apiVersion and kind of CustomResourceDefinitions.
const (
	crdAPIVersion = "apiextensions.k8s.io/v1"
	crdKind       = "CustomResourceDefinition"
)

// isCRD reports whether obj is an apiextensions.k8s.io/v1
// CustomResourceDefinition.
func isCRD(obj map[string]any) bool {
	av, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	return av == crdAPIVersion && kind == crdKind
}

// mustJSON encodes a decoded value again; it cannot fail on the values
// jsonscan.Decode returns.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}

// itemLines finds the first line of each of the n items of a List
// written in block style ("items:" at the start of a line, then one "- "
// per item at the indentation of the first), or returns nil.
func itemLines(c yamljson.Chunk, n int) []int {
	text := string(c.Data)
	line := c.First
	var out []int
	inItems, indent := false, -1
	for len(text) > 0 && len(out) <= n {
		var l string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			l, text = text[:i], text[i+1:]
		} else {
			l, text = text, ""
		}
		l = strings.TrimRight(l, "\r")
		trimmed := strings.TrimLeft(l, " ")
		lead := len(l) - len(trimmed)
		switch {
		case !inItems:
			if strings.HasPrefix(l, "items:") && strings.TrimSpace(strings.TrimPrefix(l, "items:")) == "" {
				inItems = true
			}
		case trimmed == "" || trimmed[0] == '#':
		case trimmed == "-" || strings.HasPrefix(trimmed, "- "):
			if indent < 0 {
				indent = lead
			}
			if lead == indent {
				out = append(out, line)
			}
		case lead <= indent || indent < 0 && lead == 0:
			inItems = false // the next key of the List
		}
		line++
	}
	if len(out) != n {
		return nil
	}
	return out
}
