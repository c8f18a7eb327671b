package prune

import (
	"testing"

	"github.com/crdschema/crdschema/structural"
)

// TestPruneInPlaceAllocations checks that pruning an object in place that
// has nothing to prune allocates nothing, lists included (a list put back
// in an interface would be a new allocation).
func TestPruneInPlaceAllocations(t *testing.T) {
	str := &structural.Schema{Generic: structural.Generic{Type: "string"}}
	item := &structural.Schema{Generic: structural.Generic{Type: "object"}, Properties: map[string]*structural.Schema{
		"name": str,
		"tags": {Generic: structural.Generic{Type: "array"}, Items: str},
	}}
	s := &structural.Schema{Generic: structural.Generic{Type: "object"}, Properties: map[string]*structural.Schema{
		"spec": {Generic: structural.Generic{Type: "object"}, Properties: map[string]*structural.Schema{
			"items": {Generic: structural.Generic{Type: "array"}, Items: item},
			"names": {Generic: structural.Generic{Type: "array"}, Items: str},
		}},
	}}
	x := map[string]any{"spec": map[string]any{
		"items": []any{
			map[string]any{"name": "a", "tags": []any{"x", "y"}},
			map[string]any{"name": "b", "tags": []any{}},
		},
		"names": []any{"p", "q"},
	}}
	pruneRoot(x, s, true) // warm the path buffers
	if n := testing.AllocsPerRun(100, func() {
		if _, paths := pruneRoot(x, s, true); len(paths) != 0 {
			t.Fatalf("pruned %v", paths)
		}
	}); n != 0 {
		t.Errorf("pruning in place allocated %v times per object, want none", n)
	}
	items := x["spec"].(map[string]any)["items"].([]any)
	if len(items) != 2 || len(items[0].(map[string]any)["tags"].([]any)) != 2 {
		t.Errorf("the object changed: %v", x)
	}
}
