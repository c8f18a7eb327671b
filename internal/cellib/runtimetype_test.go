package cellib

import (
	"reflect"
	"testing"

	"github.com/google/cel-go/common/types"
)

// TestRuntimeTypes: the runtime types of Quantity and URL values are the
// ones Kubernetes builds with cel-go's deprecated NewTypeValue (an object
// type with no traits), built here without it.
func TestRuntimeTypes(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  *types.Type
	}{
		{"kubernetes.Quantity", quantityRuntimeType},
		{"kubernetes.URL", urlRuntimeType},
	} {
		//lint:ignore SA1019 the deprecated constructor is what this checks against
		want := types.NewTypeValue(tc.name)
		if !reflect.DeepEqual(tc.got, want) {
			t.Errorf("%s: runtime type %#v, want %#v", tc.name, tc.got, want)
		}
	}
}
