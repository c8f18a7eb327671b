package openapi

import (
	"sort"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/go-openapi/spec"
)

// The JSON of the paths of a Document, written directly: the bytes
// encoding/json writes for these types (fields in declaration order,
// omitempty as tagged, map keys sorted), with schemas written by
// appendSchema.

// jsonWriter appends the members of one JSON object.
type jsonWriter struct {
	b     []byte
	first bool
	err   error
}

func (w *jsonWriter) open() { w.b = append(w.b, '{'); w.first = true }

// close ends an object; the object is a member of the enclosing one.
func (w *jsonWriter) close() { w.b = append(w.b, '}'); w.first = false }

func (w *jsonWriter) key(k string) {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.b = jsonvalue.AppendString(w.b, k)
	w.b = append(w.b, ':')
}

func (w *jsonWriter) str(k, v string, omitEmpty bool) {
	if v == "" && omitEmpty {
		return
	}
	w.key(k)
	w.b = jsonvalue.AppendString(w.b, v)
}

func (w *jsonWriter) flag(k string, v bool) {
	if v { // every bool field is omitempty
		w.key(k)
		w.b = append(w.b, "true"...)
	}
}

func (w *jsonWriter) schema(k string, s *spec.Schema) {
	if s == nil || w.err != nil { // every schema field is omitempty
		return
	}
	w.key(k)
	w.b, w.err = appendSchema(w.b, s)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// appendPaths appends the JSON of the paths of a Document.
func appendPaths(b []byte, paths map[string]*PathItem) ([]byte, error) {
	if paths == nil {
		return append(b, "null"...), nil
	}
	w := &jsonWriter{b: b}
	w.open()
	for _, p := range sortedKeys(paths) {
		w.key(p)
		w.pathItem(paths[p])
	}
	w.close()
	return w.b, w.err
}

func (w *jsonWriter) pathItem(item *PathItem) {
	if item == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.open()
	for _, op := range []struct {
		name string
		op   *Operation
	}{{"get", item.Get}, {"put", item.Put}, {"post", item.Post}, {"delete", item.Delete}, {"patch", item.Patch}} {
		if op.op != nil {
			w.key(op.name)
			w.operation(op.op)
		}
	}
	w.parameters(item.Parameters)
	w.close()
}

// parameters writes the omitempty parameters member.
func (w *jsonWriter) parameters(list []*Parameter) {
	if len(list) == 0 {
		return
	}
	w.key("parameters")
	w.b = append(w.b, '[')
	for i, p := range list {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		if p == nil {
			w.b = append(w.b, "null"...)
			continue
		}
		w.open()
		w.str("name", p.Name, false)
		w.str("in", p.In, false)
		w.str("description", p.Description, true)
		w.flag("required", p.Required)
		w.schema("schema", p.Schema)
		w.close()
	}
	w.b = append(w.b, ']')
}

func (w *jsonWriter) operation(op *Operation) {
	w.open()
	w.str("description", op.Description, true)
	w.str("operationId", op.OperationID, true)
	if len(op.Tags) > 0 {
		w.key("tags")
		w.b = append(w.b, '[')
		for i, t := range op.Tags {
			if i > 0 {
				w.b = append(w.b, ',')
			}
			w.b = jsonvalue.AppendString(w.b, t)
		}
		w.b = append(w.b, ']')
	}
	w.parameters(op.Parameters)
	if rb := op.RequestBody; rb != nil {
		w.key("requestBody")
		w.open()
		w.str("description", rb.Description, true)
		w.content(rb.Content)
		w.flag("required", rb.Required)
		w.close()
	}
	w.key("responses")
	if op.Responses == nil {
		w.b = append(w.b, "null"...)
	} else {
		w.open()
		for _, code := range sortedKeys(op.Responses) {
			w.key(code)
			r := op.Responses[code]
			if r == nil {
				w.b = append(w.b, "null"...)
				continue
			}
			w.open()
			w.str("description", r.Description, false)
			w.content(r.Content)
			w.close()
		}
		w.close()
	}
	w.str("x-kubernetes-action", op.Action, true)
	if gvk := op.GroupVersionKind; gvk != nil {
		w.key("x-kubernetes-group-version-kind")
		w.open()
		w.str("group", gvk.Group, false)
		w.str("version", gvk.Version, false)
		w.str("kind", gvk.Kind, false)
		w.close()
	}
	w.close()
}

// content writes the omitempty content member.
func (w *jsonWriter) content(c map[string]*MediaType) {
	if len(c) == 0 {
		return
	}
	w.key("content")
	w.open()
	for _, mt := range sortedKeys(c) {
		w.key(mt)
		m := c[mt]
		if m == nil {
			w.b = append(w.b, "null"...)
			continue
		}
		w.open()
		w.schema("schema", m.Schema)
		w.close()
	}
	w.close()
}
