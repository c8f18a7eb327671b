package main

import (
	"os"
	"strconv"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/yamljson"
	"go.yaml.in/yaml/v3"
)

// fieldPosition returns the line and column (1-based, counted in doc) of
// the field at path, a Kubernetes field path as errors print it
// ("spec.rules[0].matches[0].method", "metadata.labels[app]"), in the YAML
// or JSON document doc; item > 0 names an item of a List document (the
// path is then the item's). Where the field is absent (a required field),
// it is the position of its nearest ancestor that is there. ok is false
// when doc cannot be parsed; "<nil>" and "" name the object itself.
//
// It is used for the rejected objects only, to place each error on its
// field's line: it parses the document again, with positions.
func fieldPosition(doc []byte, item int, path string) (line, col int, ok bool) {
	var root yaml.Node
	if err := yaml.Unmarshal(doc, &root); err != nil || len(root.Content) == 0 {
		return 0, 0, false
	}
	n := root.Content[0]
	if item > 0 {
		items := child(n, "items")
		if items == nil || items.Kind != yaml.SequenceNode || item > len(items.Content) {
			return n.Line, n.Column, true
		}
		n = items.Content[item-1]
	}
	steps := pathSteps(path)
	for i := 0; i < len(steps); i++ {
		n = resolve(n)
		var next *yaml.Node
		switch n.Kind {
		case yaml.MappingNode:
			// a property name may itself hold dots: try the longest
			// name first
			for j := len(steps); j > i && next == nil; j-- {
				if next = child(n, strings.Join(steps[i:j], ".")); next != nil {
					i = j - 1
				}
			}
		case yaml.SequenceNode:
			if k, err := strconv.Atoi(steps[i]); err == nil && k >= 0 && k < len(n.Content) {
				next = n.Content[k]
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return n.Line, n.Column, true
}

// pathSteps splits a field path into its names, indices and keys:
// "a.b[0][k].c" is a, b, 0, k, c. "<nil>" has none.
func pathSteps(path string) []string {
	if path == "<nil>" || path == "" {
		return nil
	}
	var steps []string
	for len(path) > 0 {
		switch path[0] {
		case '.':
			path = path[1:]
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return append(steps, path[1:])
			}
			steps = append(steps, path[1:end])
			path = path[end+1:]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			steps = append(steps, path[:end])
			path = path[end:]
		}
	}
	return steps
}

// child returns the value of key in the mapping node n, or nil.
func child(n *yaml.Node, key string) *yaml.Node {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// locator finds the lines of the fields of errors in the input files: it
// reads a file again (once) when one of its objects is rejected, and
// splits it as the input was split. The standard input is located in
// when it was read whole (stdin), and not otherwise: its errors stay on
// their document's line.
type locator struct {
	stdin []byte
	files map[string][]yamljson.Chunk
}

// locate returns the line and column of each error of errs in the
// document doc, 0 where not known.
func (l *locator) locate(doc *document, errs crdschema.ErrorList) [][2]int {
	if len(errs) == 0 || doc.line == 0 || doc.index == 0 {
		return nil
	}
	chunks, ok := l.files[doc.file]
	if !ok {
		var data []byte
		if doc.file == stdinLabel {
			data = l.stdin
		} else {
			data, _ = os.ReadFile(doc.file)
		}
		if data != nil {
			chunks = yamljson.SplitAll(data)
		}
		l.files[doc.file] = chunks
	}
	if doc.index > len(chunks) || chunks[doc.index-1].Line != doc.line {
		return nil // not the document read: the file changed
	}
	c := chunks[doc.index-1]
	out := make([][2]int, len(errs))
	for i, e := range errs {
		if line, col, ok := fieldPosition(c.Data, doc.item, e.Field); ok {
			out[i] = [2]int{c.First + line - 1, col}
		}
	}
	return out
}
