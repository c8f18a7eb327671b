package prune_test

import (
	"fmt"
	"sort"

	"github.com/crdschema/crdschema/internal/metavalidation"
	"github.com/crdschema/crdschema/internal/objectmeta"
	"github.com/crdschema/crdschema/internal/prune"
)

// referenceDecode is Decoder.Decode as plainly as it can be put: Prune,
// then PruneNulls, each a walk of its own. Decode and DecodeCopy prune in
// one walk; they must agree with it.
func referenceDecode(opts prune.DecoderOptions, obj map[string]any) ([]string, error) {
	nestedString := func(k string) (string, bool, error) {
		v, ok := obj[k]
		if !ok {
			return "", false, nil
		}
		s, ok := v.(string)
		if !ok {
			return "", false, fmt.Errorf(".%s accessor error: %v is of the type %T, expected string", k, v, v)
		}
		return s, true, nil
	}
	kind, foundKind, err := nestedString("kind")
	if err != nil {
		return nil, err
	}
	apiVersion, foundAPIVersion, err := nestedString("apiVersion")
	if err != nil {
		return nil, err
	}
	m, foundMeta, unknown, err := objectmeta.ReadMeta(obj, objectmeta.MetaOptions{DropMalformedFields: opts.Storage, ReturnUnknownFieldPaths: true})
	if err != nil {
		return nil, err
	}
	unknownFields := unknown
	group, version, err := metavalidation.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, err
	}
	if group == opts.Group && kind == opts.Kind {
		s := opts.Schemas[version]
		if !opts.PreserveUnknownFields {
			unknownFields = append(unknownFields, prune.Prune(obj, s, true)...)
			prune.PruneNulls(obj, s)
		}
		embeds := objectmeta.EmbeddingNodes(s, false)
		if s != nil && embeds[s] {
			c := objectmeta.NewCoercer(objectmeta.CoerceOptions{DropInvalidFields: opts.Storage, ReturnUnknownFieldPaths: true}, embeds)
			if ferr := c.Coerce(nil, obj, s, s.XEmbeddedResource); ferr != nil {
				return nil, ferr
			}
			u := c.Unknown()
			sort.Strings(u)
			unknownFields = append(unknownFields, u...)
		}
		if opts.Storage {
			m.DefaultGeneration()
		}
	}
	if foundKind {
		obj["kind"] = kind
	}
	if foundAPIVersion {
		obj["apiVersion"] = apiVersion
	}
	if foundMeta {
		obj["metadata"] = m.Map()
	}
	return unknownFields, nil
}
