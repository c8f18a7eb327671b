package crdschema

import (
	"encoding/json"
	"sort"
	"strconv"

	"github.com/crdschema/crdschema/internal/jsonscan"
)

// crdFromJSONFast is crdFromJSON in one pass over the bytes, for the
// documents real CRDs are: the version schemas, nearly all of a CRD, are
// decoded straight into JSONSchemaProps (with their unknown fields) by a
// schemaReader; everything else is decoded into the generic form and goes
// through the strict decoder as crdFromJSONGeneric has it go.
//
// It reports false, and the caller falls back to crdFromJSONGeneric, for
// every document it is not sure to decode exactly as that does: any error
// (so that errors are always those of the reference), a key that appears
// twice in an object, a value of an unexpected JSON type, a float outside
// the schemas.
func crdFromJSONFast(j []byte) (*CustomResourceDefinition, []string, bool) {
	r := jsonscan.NewReader(j)
	defer r.Release()
	d := schemaReader{r: r}
	root, schemas := d.document()
	if !r.End() || r.Dup() {
		return nil, nil, false
	}
	// As in crdFromJSONGeneric: JSON re-encoding would write 1.0 as 1.
	if hasFloat(root, 0) {
		return nil, nil, false
	}
	rest, err := json.Marshal(root)
	if err != nil {
		return nil, nil, false
	}
	shadow, unknown, err := decodeStrict(rest)
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

// document reads a whole CRD document: its generic form with the
// openAPIV3Schema objects of the versions replaced by empty objects, as
// takeSchemas leaves it, and those schemas decoded, by version index. It
// fails the reader where the document is not an object, spec not an
// object, spec.versions not a list of objects, a version's schema not an
// object or its openAPIV3Schema neither.
func (d *schemaReader) document() (map[string]any, []*JSONSchemaProps) {
	r := d.r
	var schemas []*JSONSchemaProps
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
						d.enter("spec.versions["+strconv.Itoa(i)+"].schema.openAPIV3Schema", "", false, -1)
						d.schemaObject(schemas[i])
						d.leave()
						return map[string]any{}
					})
				}))
			}
			return versions
		})
	})
	return root, schemas
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
