package defaulting

import (
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/structural"
)

// PruneDefaults returns a copy of s whose defaults are those the API
// server serves: as read back from storage (a whole-number float becomes
// an integer: default 13.0 is served as 13), then cleaned as the API
// server cleans them when it starts serving a CRD version: each default
// is placed in its surrounding object (see Surrounding), the object's
// embedded metadata is coerced (invalid fields dropped) and its unknown
// fields are pruned against the whole schema, and what is left at the
// default's place becomes the default; a default pruned away entirely
// becomes no default. Defaults below additionalProperties are included
// (their surrounding object uses the key "*").
//
// s is not modified; the result shares the parts of s that hold no
// default (all of s, returned as it is, when s has none). The only errors
// are the API server's: a default on the root that is not an object
// ("failed to prune default value: object root default value must be of
// object type"), and the failures of coercion and of taking a default
// back out of its surrounding object.
func PruneDefaults(s *structural.Schema) (*structural.Schema, error) {
	pruned, _, err := prune.Defaults(s, false)
	return pruned, err
}
