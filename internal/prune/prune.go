package prune

import (
	"sort"
	"strconv"
	"sync"

	"github.com/crdschema/crdschema/structural"
)

// Prune removes from v, in place, every field that the schema s does not
// specify, and returns the paths of the removed fields, sorted, in the
// API server's notation ("spec.items[0].foo"). v is a JSON value of any
// type (a whole object, or a value inside one such as a default); the maps
// and lists inside it are modified: callers that need the original must
// pass a copy. isResourceRoot says that v is a whole Kubernetes object,
// whose root is treated like an embedded resource: apiVersion, kind and
// metadata are kept whatever the schema says (metadata is cleaned by the
// decoder's metadata coercion instead, see Decoder).
//
// The rules are the API server's:
//
//   - below a node with x-kubernetes-preserve-unknown-fields, unknown
//     fields are kept, but pruning starts again inside every field that
//     has a schema (a property, or additionalProperties);
//   - a key that matches additionalProperties is kept; with
//     additionalProperties: false (no schema) its value's content is
//     removed (the fields of an object value, and those of objects in an
//     array value) and reported;
//   - apiVersion, kind and metadata of an embedded resource
//     (x-kubernetes-embedded-resource, or the root with isResourceRoot)
//     are kept, and never reported at the root;
//   - a nil s removes every field of obj.
func Prune(v any, s *structural.Schema, isResourceRoot bool) []string {
	p := newPruner(false)
	defer p.release()
	embedded := isResourceRoot
	if s == nil && embedded {
		s = &emptySchema
	}
	p.prune(v, s, embedded || (s != nil && s.XEmbeddedResource))
	sort.Strings(p.paths)
	return p.paths
}

// newPruner returns a pruner whose path is built in a pooled buffer, so
// that an object with nothing to prune costs no allocation; release gives
// the buffer back. Prune walks with prune, which only deletes; the
// copying walks of copy.go (inPlace: without copying) also drop nulls.
func newPruner(inPlace bool) *pruner {
	buf := pathBuffers.Get().(*[]byte)
	return &pruner{buf: buf, path: (*buf)[:0], inPlace: inPlace}
}

func (p *pruner) release() {
	if cap(p.path) <= 64<<10 {
		*p.buf = p.path[:0]
		pathBuffers.Put(p.buf)
	}
}

// pathBuffers holds the path buffers of finished Prune calls.
var pathBuffers = sync.Pool{New: func() any {
	b := make([]byte, 0, 256)
	return &b
}}

// emptySchema stands for a nil schema at a resource root, which keeps
// only apiVersion, kind and metadata. It is never modified.
var emptySchema structural.Schema

// pruner holds the state of one Prune call: the path of the node being
// visited and the paths removed so far.
type pruner struct {
	buf   *[]byte // the pooled buffer of path
	path  []byte
	paths []string
	// inPlace makes the copying walks of copy.go prune in place.
	inPlace bool
}

// isMetaField reports whether k is one of the fields every Kubernetes
// object has at its top level.
func isMetaField(k string) bool {
	return k == "apiVersion" || k == "kind" || k == "metadata"
}

func (p *pruner) pushKey(k string) int {
	n := len(p.path)
	if n > 0 {
		p.path = append(p.path, '.')
	}
	p.path = append(p.path, k...)
	return n
}

func (p *pruner) pushIndex(i int) int {
	n := len(p.path)
	p.path = append(p.path, '[')
	p.path = strconv.AppendInt(p.path, int64(i), 10)
	p.path = append(p.path, ']')
	return n
}

func (p *pruner) record(k string) {
	n := p.pushKey(k)
	p.paths = append(p.paths, string(p.path))
	p.path = p.path[:n]
}

// prune removes the unknown fields of x. embedded says whether x is an
// embedded resource (its meta fields are left alone).
func (p *pruner) prune(x any, s *structural.Schema, embedded bool) {
	if s != nil && s.XPreserveUnknownFields {
		p.keepUnknown(x, s, embedded)
		return
	}
	switch x := x.(type) {
	case map[string]any:
		if s == nil {
			for k := range x {
				p.record(k)
				delete(x, k)
			}
			return
		}
		for k, v := range x {
			if embedded && isMetaField(k) {
				continue
			}
			if !p.pruneField(k, v, s) {
				// The root's meta fields are not reported even when
				// they are removed (the root is not embedded then).
				if len(p.path) > 0 || !isMetaField(k) {
					p.record(k)
				}
				delete(x, k)
			}
		}
	case []any:
		var is *structural.Schema
		if s != nil {
			is = s.Items
		}
		for i, v := range x {
			switch v.(type) {
			case map[string]any, []any:
			default:
				continue // scalars have nothing to prune
			}
			n := p.pushIndex(i)
			p.prune(v, is, is != nil && is.XEmbeddedResource)
			p.path = p.path[:n]
		}
	}
}

// pruneField prunes v, the field k of an object with schema s, with the
// schema s gives the field: its property's or additionalProperties'. It
// reports false when s gives the field none.
func (p *pruner) pruneField(k string, v any, s *structural.Schema) bool {
	fs, ok := s.Properties[k]
	if !ok {
		if s.AdditionalProperties == nil {
			return false
		}
		fs = s.AdditionalProperties.Schema
	}
	n := p.pushKey(k)
	p.prune(v, fs, fs != nil && fs.XEmbeddedResource)
	p.path = p.path[:n]
	return true
}

// keepUnknown visits x below a node with x-kubernetes-preserve-unknown-fields:
// unknown fields stay, fields with a schema are pruned normally.
func (p *pruner) keepUnknown(x any, s *structural.Schema, embedded bool) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		if s.Properties == nil && s.AdditionalProperties == nil {
			return
		}
		for k, v := range x {
			if embedded && isMetaField(k) {
				continue
			}
			p.pruneField(k, v, s)
		}
	case []any:
		is := s.Items
		if is == nil {
			return
		}
		for i, v := range x {
			n := p.pushIndex(i)
			p.keepUnknown(v, is, is.XEmbeddedResource)
			p.path = p.path[:n]
		}
	}
}

func sortStrings(s []string) {
	if len(s) > 1 {
		sort.Strings(s)
	}
}
