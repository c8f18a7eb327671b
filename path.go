package crdschema

import (
	"strconv"
	"strings"
)

// Path is the location of a field inside an object or a CRD, such as
// spec.versions[0].schema or metadata.labels[app]. The zero *Path (nil) is a
// valid path: it prints as "<nil>", exactly as Kubernetes prints an error
// that has no field, and its methods build paths from the root.
//
// A Path is immutable; Child, Index and Key return new paths that share
// their parent.
type Path struct {
	name   string // the field name, or "" for a subscript
	index  string // the subscript (index or map key) when name is ""
	parent *Path
}

// NewPath returns the path of the top-level field name, followed by the
// fields in more.
func NewPath(name string, more ...string) *Path {
	return (*Path)(nil).Child(name, more...)
}

// Child returns the path of the field name (and then the fields in more)
// below p.
func (p *Path) Child(name string, more ...string) *Path {
	c := &Path{name: name, parent: p}
	for _, n := range more {
		c = &Path{name: n, parent: c}
	}
	return c
}

// Index returns the path of the i-th element of the list at p.
func (p *Path) Index(i int) *Path {
	return &Path{index: strconv.Itoa(i), parent: p}
}

// Key returns the path of the entry with the given key in the map at p.
func (p *Path) Key(key string) *Path {
	return &Path{index: key, parent: p}
}

// Root returns the first element of p.
func (p *Path) Root() *Path {
	if p == nil {
		return nil
	}
	for p.parent != nil {
		p = p.parent
	}
	return p
}

// String renders p as Kubernetes does: names joined by ".", subscripts in
// brackets without quotes ("spec.items[0]", "metadata.labels[app]"), and
// "<nil>" for the nil path.
func (p *Path) String() string {
	if p == nil {
		return "<nil>"
	}
	var stack [32]*Path
	elems := stack[:0]
	n := 0
	for e := p; e != nil; e = e.parent {
		elems = append(elems, e)
		n += len(e.name) + len(e.index) + 2
	}
	var b strings.Builder
	b.Grow(n)
	for i := len(elems) - 1; i >= 0; i-- {
		e := elems[i]
		if e.name != "" {
			if e.parent != nil {
				b.WriteByte('.')
			}
			b.WriteString(e.name)
		} else {
			b.WriteByte('[')
			b.WriteString(e.index)
			b.WriteByte(']')
		}
	}
	return b.String()
}
