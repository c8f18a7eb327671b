package prune

import (
	"fmt"
	"maps"
	"sort"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/metavalidation"
	"github.com/crdschema/crdschema/internal/objectmeta"
	"github.com/crdschema/crdschema/structural"
)

// DecoderOptions configure NewDecoder.
type DecoderOptions struct {
	// Group and Kind are the CRD's API group and kind. Objects of another
	// group or kind only get their metadata cleaned. An empty Kind means
	// objects of any group, kind and version, all decoded with the schema
	// of Schemas[""].
	Group, Kind string
	// Schemas are the structural schemas of the CRD's versions, by
	// version name, as the API server serves them: after
	// defaulting.PruneDefaults, since whether a field has a default decides
	// whether its null is dropped. The object's apiVersion picks one; an
	// unknown version means a nil schema (everything but apiVersion, kind
	// and metadata is pruned).
	Schemas map[string]*structural.Schema
	// PreserveUnknownFields is the CRD's spec.preserveUnknownFields: when
	// true nothing is pruned (metadata is still cleaned).
	PreserveUnknownFields bool
	// Storage selects the variant the API server uses for objects read
	// back from storage: metadata fields that do not decode are dropped
	// instead of failing, and a missing metadata.generation is set to 1.
	Storage bool
	// Embeds, when not nil, are the embedding nodes of the schemas (as
	// Defaults returns them: objectmeta.EmbeddingNodes of roots that are
	// not resource roots, for every schema); NewDecoder finds them
	// otherwise. Whether a node is one depends only on the schema below
	// it, so that one set serves all versions.
	Embeds map[*structural.Schema]bool
}

// Decoder runs the schema-dependent part of the API server's decoding of
// a custom resource: what happens to a request body (or a stored object)
// after JSON decoding and before defaulting. Build one per CRD with
// NewDecoder; it is immutable and safe for concurrent use.
type Decoder struct {
	opts DecoderOptions
}

// NewDecoder prepares a Decoder. The schemas are not copied and must not
// be modified afterwards.
func NewDecoder(opts DecoderOptions) *Decoder {
	if opts.Embeds == nil {
		opts.Embeds = map[*structural.Schema]bool{}
		for _, s := range opts.Schemas {
			maps.Copy(opts.Embeds, objectmeta.EmbeddingNodes(s, false))
		}
	}
	return &Decoder{opts: opts}
}

// Decode cleans obj in place, in the API server's order:
//
//  1. kind and apiVersion are remembered (they must be strings) and the
//     root metadata is decoded as ObjectMeta (its unknown fields are
//     reported);
//  2. if the object is of the CRD's group and kind: unknown fields are
//     pruned against the schema of the apiVersion's version (Prune of a
//     resource root, reported) and non-nullable nulls without default
//     are dropped (PruneNulls), unless PreserveUnknownFields; then the
//     apiVersion, kind and metadata of embedded resources are coerced
//     (unknown metadata fields reported); with Storage a zero
//     metadata.generation becomes 1;
//  3. kind and apiVersion are written back and the root metadata is
//     replaced by its decoded form.
//
// Defaulting (package defaulting) comes next, and is not part of Decode.
//
// Decode returns the paths of the fields it dropped as unknown, in the
// order the API server reports them ("unknown field" strict decoding
// errors): metadata's first, then the pruned ones (sorted), then those of
// embedded metadata (sorted). An error means the API server refuses the
// object; obj may then be partly modified.
func (d *Decoder) Decode(obj map[string]any) (unknownFields []string, err error) {
	_, unknownFields, err = d.decode(obj, true)
	return unknownFields, err
}

// decode is Decode on obj itself (inPlace) or on a copy of it, which it
// returns: the copy leaves out what pruning removes, so that copying and
// pruning take one walk instead of two.
func (d *Decoder) decode(obj map[string]any, inPlace bool) (map[string]any, []string, error) {
	kind, foundKind, err := nestedString(obj, "kind")
	if err != nil {
		return nil, nil, err
	}
	apiVersion, foundAPIVersion, err := nestedString(obj, "apiVersion")
	if err != nil {
		return nil, nil, err
	}
	group, version, gvErr := metavalidation.ParseGroupVersion(apiVersion)
	if d.opts.Kind == "" {
		group, kind, version = d.opts.Group, d.opts.Kind, "" // any object
	}
	matches := gvErr == nil && group == d.opts.Group && kind == d.opts.Kind
	s := d.opts.Schemas[version]

	out := obj
	var pruned []string
	if matches && !d.opts.PreserveUnknownFields {
		// Prune(obj, s, true) and PruneNulls(obj, s) in one walk, which
		// keeps the root's metadata as it is.
		out, pruned = pruneRoot(obj, s, inPlace)
	} else if !inPlace {
		out = jsonvalue.CopyMap(obj)
	}
	m, foundMeta, unknownFields, err := objectmeta.ReadMeta(out, objectmeta.MetaOptions{
		DropMalformedFields:     d.opts.Storage,
		ReturnUnknownFieldPaths: true,
	}, d.opts.Storage && matches)
	if err != nil {
		return nil, nil, err
	}
	if gvErr != nil {
		return nil, nil, gvErr
	}
	unknownFields = append(unknownFields, pruned...)
	if matches {
		if !d.opts.PreserveUnknownFields && !foundMeta && s != nil {
			// What PruneNulls does to the root's metadata shows only
			// where it is not replaced below.
			pruneRootNulls(out, "metadata", s)
		}
		u, ferr := d.coerceEmbedded(out, s)
		if ferr != nil {
			return nil, nil, ferr
		}
		unknownFields = append(unknownFields, u...)
	}
	if foundKind {
		out["kind"] = kind
	}
	if foundAPIVersion {
		out["apiVersion"] = apiVersion
	}
	if foundMeta {
		out["metadata"] = m
	}
	return out, unknownFields, nil
}

// coerceEmbedded coerces the metadata of the embedded resources of obj,
// an object of version with schema s, as the API server does while
// decoding, and returns the paths of the unknown fields it dropped, sorted.
func (d *Decoder) coerceEmbedded(obj map[string]any, s *structural.Schema) ([]string, *crdschema.Error) {
	if s == nil || !d.opts.Embeds[s] {
		return nil, nil
	}
	c := objectmeta.NewCoercer(objectmeta.CoerceOptions{DropInvalidFields: d.opts.Storage, ReturnUnknownFieldPaths: true}, d.opts.Embeds)
	if err := c.Coerce(nil, obj, s, s.XEmbeddedResource); err != nil {
		return nil, err
	}
	u := c.Unknown()
	sort.Strings(u)
	return u, nil
}

// nestedString returns the string obj[k], as the API server's accessor
// does: a value that is not a string is an error.
func nestedString(obj map[string]any, k string) (string, bool, error) {
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
