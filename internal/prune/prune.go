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
	p := newPruner(true)
	defer p.release()
	if s == nil && isResourceRoot {
		s = &emptySchema
	}
	p.copyValue(v, s, isResourceRoot || (s != nil && s.XEmbeddedResource), false)
	sort.Strings(p.paths)
	return p.paths
}

// newPruner returns a pruner whose path is built in a pooled buffer, so
// that an object with nothing to prune costs no allocation; release gives
// the buffer back. The walks are copy.go's, which copy what they keep
// or, inPlace, delete what they drop.
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

// pruner holds the state of one walk: the path of the node being
// visited and the paths removed so far.
type pruner struct {
	buf   *[]byte // the pooled buffer of path
	path  []byte
	paths []string
	// inPlace makes the walks of copy.go prune in place.
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
