package celrules

import (
	"reflect"
	"testing"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// TestNativeToValueShortcut checks that the type provider converts every
// kind of value as the base environment's adapter does, CEL values (which
// it returns without asking the adapter) included.
func TestNativeToValueShortcut(t *testing.T) {
	env, err := baseEnv(defaultMinor, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	p := newTypeProvider(env.CELTypeProvider(), newDeclType(obj(nil), false), "selfType1", true)
	if !p.registry {
		t.Fatal("the base environment's adapter is not a cel-go registry: the shortcut is off")
	}
	b, i, s := types.Bool(true), types.Int(3), types.String("x")
	d, u, by := types.Double(1.5), types.Uint(2), types.Bytes("b")
	values := []any{
		nil, true, 3, int64(4), "x", 1.5, []byte("b"), time.Second, []string{"a"}, map[string]any{"k": 1},
		b, i, s, d, u, by, types.NullValue, types.OptionalNone, types.Duration{Duration: time.Second},
		&b, &i, &s, &d, &u, &by, // pointers to CEL scalars: the adapter dereferences them
		types.NewStringList(types.DefaultTypeAdapter, []string{"a"}),
		&objectVal{m: map[string]any{}, vs: nil},
		struct{}{},
	}
	for _, v := range values {
		want := env.CELTypeAdapter().NativeToValue(v)
		got := p.NativeToValue(v)
		if reflect.TypeOf(got) != reflect.TypeOf(want) || !sameVal(got, want) {
			t.Errorf("%T %v: got %T %v, want %T %v", v, v, got, got, want, want)
		}
	}
}

// sameVal compares two conversions: errors by text, other values by
// deep equality or CEL equality.
func sameVal(a, b ref.Val) bool {
	if types.IsError(a) || types.IsError(b) {
		return types.IsError(a) && types.IsError(b) && a.(*types.Err).Error() == b.(*types.Err).Error()
	}
	if reflect.DeepEqual(a, b) {
		return true
	}
	return a.Equal(b) == types.True
}
