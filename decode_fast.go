package crdschema

import (
	"sort"

	"github.com/crdschema/crdschema/internal/jsonscan"
)

// crdFromJSONFast is crdFromJSON in one pass over the bytes, for the
// documents real CRDs are: a crdReader decodes the document straight into
// the CRD types, the version schemas into JSONSchemaProps (with their
// unknown fields), without the generic form of the document and without
// the strict decoder.
//
// It reports false, and the caller falls back to crdFromJSONGeneric, for
// every document it is not sure to decode exactly as that does: any error
// (so that errors are always those of the reference), any unknown field
// outside the schemas (so that the strict decoder reports them), a key
// given twice in an object, a value of an unexpected JSON type,
// metadata.managedFields (whose raw fieldsV1 the reference passes through
// its generic form).
func crdFromJSONFast(j []byte) (*CustomResourceDefinition, []string, bool) {
	r := jsonscan.NewReader(j)
	defer r.Release()
	d := crdReader{r: r}
	crd := new(CustomResourceDefinition)
	d.crd(crd)
	if !r.End() || r.Dup() {
		return nil, nil, false
	}
	// decodeStrict's checks, whose errors are the reference's to give.
	if crd.APIVersion != "" && crd.APIVersion != groupVersion ||
		crd.Kind != "" && crd.Kind != "CustomResourceDefinition" {
		return nil, nil, false
	}
	sort.Strings(d.unknown)
	return crd, d.unknown, true
}
