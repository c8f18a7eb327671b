package structural

import (
	"sort"

	"github.com/crdschema/crdschema"
)

// frames is the scratch space of a walk over the properties of a
// JSONSchemaProps tree in name order, one frame per level: each level
// reuses its slice of names.
type frames struct {
	stack []*frame
	depth int
}

// A frame is the scratch space of one level: the names of its properties.
type frame struct {
	keys []string
}

// enter returns the frame for the properties m, with their names sorted
// in keys; leave must follow.
func (fs *frames) enter(m map[string]crdschema.JSONSchemaProps) *frame {
	if fs.depth == len(fs.stack) {
		fs.stack = append(fs.stack, new(frame))
	}
	f := fs.stack[fs.depth]
	fs.depth++
	f.keys = f.keys[:0]
	for k := range m {
		f.keys = append(f.keys, k)
	}
	sort.Strings(f.keys)
	return f
}

// leave returns from the level entered last.
func (fs *frames) leave() { fs.depth-- }
