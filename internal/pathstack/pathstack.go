// Package pathstack keeps the location of a walk through an object as a
// stack of steps and builds its crdschema.Path only when asked, typically
// for an error: a walk that finds nothing to report builds no path.
package pathstack

import (
	"sync"

	"github.com/crdschema/crdschema"
)

// A Stack is the location of a walk below a root path. The zero Stack is
// at the nil root.
type Stack struct {
	root  *crdschema.Path
	steps []step
	buf   *[]step // the pooled storage of steps, until Release
}

// step is one step below the root: a property, a map key or a list index.
type step struct {
	name  string
	index int
	kind  uint8
}

const (
	property uint8 = iota
	key
	index
)

// depth is how many steps a Stack holds before it grows again.
const depth = 16

// New returns a Stack at root.
func New(root *crdschema.Path) Stack { return Stack{root: root} }

// storage holds the steps of released Stacks for later walks: a walk of
// every object of a request needs one.
var storage = sync.Pool{New: func() any {
	s := make([]step, 0, depth)
	return &s
}}

func (s *Stack) push(st step) {
	if s.steps == nil {
		s.buf = storage.Get().(*[]step)
		s.steps = (*s.buf)[:0]
	}
	s.steps = append(s.steps, st)
}

// Release ends the walk: the Stack is back at its root, and its storage
// goes to later walks. Paths built before stay valid.
func (s *Stack) Release() {
	if s.buf == nil {
		return
	}
	if cap(s.steps) <= 4*depth {
		all := s.steps[:cap(s.steps)]
		clear(all) // drop the names of the walk's values
		*s.buf = all[:0]
		storage.Put(s.buf)
	}
	s.buf, s.steps = nil, nil
}

// Child steps into the property name.
func (s *Stack) Child(name string) { s.push(step{name: name, kind: property}) }

// Key steps into the map entry k.
func (s *Stack) Key(k string) { s.push(step{name: k, kind: key}) }

// Index steps into the list item i.
func (s *Stack) Index(i int) { s.push(step{index: i, kind: index}) }

// Pop steps back out of the last step.
func (s *Stack) Pop() { s.steps = s.steps[:len(s.steps)-1] }

// Path returns the path of the current location.
func (s *Stack) Path() *crdschema.Path {
	p := s.root
	for _, st := range s.steps {
		switch st.kind {
		case property:
			p = p.Child(st.name)
		case key:
			p = p.Key(st.name)
		default:
			p = p.Index(st.index)
		}
	}
	return p
}
