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

// crdReader decodes a CRD document straight from its bytes into the CRD
// types (crd_read.go), the version schemas into JSONSchemaProps
// (schema_read.go). It does not explain errors: whatever the reference
// would refuse, and whatever it is not sure to decode as the reference
// does, fails the reader, and the document is decoded again by
// crdFromJSONGeneric, which says why.
type crdReader struct {
	r       *jsonscan.Reader
	unknown []string // paths of unknown fields, unsorted

	// path is where the object being read lies, outermost first, for
	// the paths of its unknown fields; they are built only when one is
	// found. Below items, additionalProperties, additionalItems and
	// dependencies, where the API server does not report unknown fields,
	// hidden is positive.
	path   []pathSegment
	hidden int
}
