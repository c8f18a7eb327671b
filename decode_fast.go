package crdschema

import (
	"sort"
	"strconv"

	"github.com/crdschema/crdschema/internal/jsonscan"
)

// crdFromJSONFast is crdFromJSON in one pass over the bytes, for the
// documents real CRDs are: the version schemas, nearly all of a CRD, are
// decoded straight into JSONSchemaProps (with their unknown fields) by a
// schemaReader; the rest of the document, with the schemas cut out, goes
// through the strict decoder as in crdFromJSONGeneric.
//
// It reports false, and the caller falls back to crdFromJSONGeneric, for
// every document it is not sure to decode exactly as that does: any error
// (so that errors are always those of the reference), a key that appears
// twice in an object, a value of an unexpected JSON type where the
// schemas are, managedFields (see withoutSpans).
func crdFromJSONFast(j []byte) (*CustomResourceDefinition, []string, bool) {
	r := jsonscan.NewReader(j)
	defer r.Release()
	d := schemaReader{r: r}
	root, schemas, spans := d.document()
	if !r.End() || r.Dup() || hasManagedFields(root) {
		return nil, nil, false
	}
	shadow, unknown, err := decodeStrict(withoutSpans(j, spans))
	if err != nil {
		return nil, nil, false
	}
	crd := &shadow.CustomResourceDefinition
	crd.Spec = shadow.Spec.CustomResourceDefinitionSpec
	crd.Spec.Versions = nil
	if shadow.Spec.Versions != nil {
		crd.Spec.Versions = make([]CustomResourceDefinitionVersion, len(shadow.Spec.Versions))
	}
	for i, sv := range shadow.Spec.Versions {
		v := sv.CustomResourceDefinitionVersion
		if sv.Schema != nil {
			v.Schema = &CustomResourceValidation{}
			if i < len(schemas) {
				v.Schema.OpenAPIV3Schema = schemas[i]
			}
		}
		crd.Spec.Versions[i] = v
	}
	unknown = append(unknown, d.unknown...)
	sort.Strings(unknown)
	return crd, unknown, true
}

// span is where a value lies in a document: j[start:end].
type span struct{ start, end int }

// withoutSpans returns j with the values at spans, in order, replaced by
// empty objects: the rest of a CRD document for the strict decoder, with
// the schemas it skips left out.
//
// crdFromJSONGeneric gives the strict decoder the generic form of that
// rest encoded again (or, when a float is in it, the whole document).
// Those bytes decode to the same values, with one exception: a
// metadata.managedFields[*].fieldsV1, kept as raw JSON, which is why the
// fast path leaves documents with managedFields to the generic one.
func withoutSpans(j []byte, spans []span) []byte {
	if len(spans) == 0 {
		return j
	}
	n := len(j)
	for _, s := range spans {
		n -= s.end - s.start - len("{}")
	}
	out := make([]byte, 0, n)
	last := 0
	for _, s := range spans {
		out = append(append(out, j[last:s.start]...), "{}"...)
		last = s.end
	}
	return append(out, j[last:]...)
}

// hasManagedFields reports whether the generic form of a CRD document has
// metadata.managedFields other than null.
func hasManagedFields(root map[string]any) bool {
	m, ok := root["metadata"].(map[string]any)
	return ok && m["managedFields"] != nil
}

// document reads a whole CRD document: its generic form with the
// openAPIV3Schema objects of the versions replaced by empty objects, as
// takeSchemas leaves it; those schemas decoded, by version index; and
// where they lie in the document, in order. It fails the reader where the
// document is not an object, spec not an object, spec.versions not a list
// of objects, a version's schema not an object or its openAPIV3Schema
// neither.
func (d *schemaReader) document() (map[string]any, []*JSONSchemaProps, []span) {
	r := d.r
	var schemas []*JSONSchemaProps
	var spans []span
	root := d.object(func(k string) any {
		if k != "spec" {
			return r.Value()
		}
		return d.object(func(k string) any {
			if k != "versions" {
				return r.Value()
			}
			if !r.BeginArray() {
				return nil
			}
			versions := []any{}
			for r.NextElement() {
				i := len(versions)
				versions = append(versions, d.object(func(k string) any {
					if k != "schema" {
						return r.Value()
					}
					return d.object(func(k string) any {
						if k != "openAPIV3Schema" {
							return r.Value()
						}
						for len(schemas) <= i {
							schemas = append(schemas, nil)
						}
						schemas[i] = new(JSONSchemaProps)
						start := r.Offset()
						d.enter("spec.versions["+strconv.Itoa(i)+"].schema.openAPIV3Schema", "", false, -1)
						d.schemaObject(schemas[i])
						d.leave()
						spans = append(spans, span{start, r.Offset()})
						return map[string]any{}
					})
				}))
			}
			return versions
		})
	})
	return root, schemas, spans
}

// object reads an object into its generic form, the value of each member
// read by member. It fails the reader on a repeated key.
func (d *schemaReader) object(member func(key string) any) map[string]any {
	r := d.r
	if !r.BeginObject() {
		return nil
	}
	m := map[string]any{}
	for k, ok := r.NextKey(); ok; k, ok = r.NextKey() {
		if _, dup := m[k]; dup {
			r.Fail()
			return nil
		}
		m[k] = member(k)
	}
	return m
}
