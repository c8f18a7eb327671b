package objectmeta

import (
	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
)

// What package prune's Decoder needs of this package's internals.

// Decoded is the root metadata of an object as the decoder reads it.
type Decoded struct{ m *meta }

// ReadMeta decodes the root metadata of obj (see GetObjectMeta); found is
// false when obj has none.
func ReadMeta(obj map[string]any, opts MetaOptions) (d Decoded, found bool, unknown []string, err error) {
	m, found, unknown, err := getMeta(obj, opts)
	return Decoded{m}, found, unknown, err
}

// DefaultGeneration sets a zero generation to 1, as the API server does
// for objects read from storage.
func (d Decoded) DefaultGeneration() {
	if d.m != nil && d.m.om.Generation == 0 {
		d.m.om.Generation = 1
	}
}

// Map returns the metadata in its decoded form.
func (d Decoded) Map() map[string]any {
	return metaToMap(&d.m.om, d.m.fields)
}

// EmbeddingNodes returns the nodes of s at or above an embedded resource.
func EmbeddingNodes(s *structural.Schema, isResourceRoot bool) map[*structural.Schema]bool {
	return embeddingNodes(s, isResourceRoot)
}

// A Coercer coerces the embedded resources of objects of one schema,
// collecting the unknown metadata fields it drops.
type Coercer struct{ c coercer }

// NewCoercer returns a Coercer for the schema whose embedding nodes are
// embeds (see EmbeddingNodes).
func NewCoercer(opts CoerceOptions, embeds map[*structural.Schema]bool) *Coercer {
	return &Coercer{coercer{opts: opts, embeds: embeds}}
}

// Coerce coerces x, at pth, with schema s.
func (c *Coercer) Coerce(pth *crdschema.Path, x any, s *structural.Schema, embedded bool) *crdschema.Error {
	return c.c.coerce(pth, x, s, embedded)
}

// Unknown returns the paths of the unknown fields dropped so far.
func (c *Coercer) Unknown() []string { return c.c.unknown }
