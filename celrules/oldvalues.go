package celrules

import (
	"github.com/crdschema/crdschema/internal/listmap"
	"github.com/crdschema/crdschema/structural"
)

// oldItems returns the index that finds the old item of a list with schema
// s that correlates with a new item, for transition rules: only the items
// of a list-type=map list correlate. It is nil (finding nothing) for other
// lists.
func oldItems(s *structural.Schema, old []any) *listmap.Index {
	if s == nil || s.XListType == nil || *s.XListType != "map" || len(old) == 0 {
		return nil
	}
	return listmap.New(s, old)
}

// oldItem returns the old item of olds correlating with item, or nil.
func oldItem(olds *listmap.Index, item any) any {
	old, _ := olds.Lookup(item)
	return old
}
