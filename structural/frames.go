package structural

import (
	"sort"

	"github.com/crdschema/crdschema"
)

// frames is the scratch space of a walk over the properties of a
// JSONSchemaProps tree, one frame per level. Map values cannot be
// addressed: each level keeps one copy of the property being walked
// instead of one heap copy per property.
type frames struct {
	stack []*frame
	depth int
}

// A frame is the scratch space of one level: the names of its properties,
// and a copy of the property being walked.
type frame struct {
	keys []string
	prop crdschema.JSONSchemaProps
}

// enter returns the frame for the properties m, with their names sorted
// in keys if sorted is set (and no names otherwise: the caller ranges
// over m); leave must follow.
func (fs *frames) enter(m map[string]crdschema.JSONSchemaProps, sorted bool) *frame {
	if fs.depth == len(fs.stack) {
		fs.stack = append(fs.stack, new(frame))
	}
	f := fs.stack[fs.depth]
	fs.depth++
	f.keys = f.keys[:0]
	if sorted {
		for k := range m {
			f.keys = append(f.keys, k)
		}
		sort.Strings(f.keys)
	}
	return f
}

// leave returns from the level entered last.
func (fs *frames) leave() { fs.depth-- }
