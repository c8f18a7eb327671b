package fakeclient_test

import (
	"reflect"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// FuzzPatch sends arbitrary JSON and merge patches: the client never panics,
// and a refused patch changes nothing.
func FuzzPatch(f *testing.F) {
	for _, s := range []string{
		`{"spec":{"color":"red"}}`, `[{"op":"replace","path":"/spec/replicas","value":4}]`,
		`{"spec":{"replicas":99}}`, `{"metadata":{"name":"other"}}`, `null`, `[]`, `{"spec":null}`,
		`[{"op":"add","path":"/spec/ports/-","value":{"name":"a"}}]`, `{"metadata":{"resourceVersion":"1"}}`,
		`{"apiVersion":"example.com/v1beta1"}`, `{"kind":"Gizmo"}`, `{"status":{"phase":1}}`,
	} {
		f.Add(true, []byte(s))
		f.Add(false, []byte(s))
	}
	c, _ := widgetClient(f)
	if err := c.Create(ctx, widget("a", map[string]any{"ports": []any{map[string]any{"name": "http"}}})); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, jsonPatch bool, data []byte) {
		pt := types.MergePatchType
		if jsonPatch {
			pt = types.JSONPatchType
		}
		before := widget("a", nil)
		if err := c.Get(ctx, client.ObjectKeyFromObject(before), before); err != nil {
			t.Fatal(err)
		}
		p := widget("a", nil)
		err := c.Patch(ctx, p, client.RawPatch(pt, data))
		after := widget("a", nil)
		if gerr := c.Get(ctx, client.ObjectKeyFromObject(after), after); gerr != nil {
			t.Fatalf("the object is gone after patch %q (%v): %v", data, err, gerr)
		}
		if err != nil && !reflect.DeepEqual(before.Object, after.Object) {
			t.Fatalf("refused patch %q changed the object: %v", data, err)
		}
		if err == nil && !reflect.DeepEqual(p.Object, after.Object) {
			t.Fatalf("patch %q returned %v, stored %v", data, p.Object, after.Object)
		}
	})
}

// TestPatchLibraryPanic: a JSON patch that makes the patch library panic
// (replacing the whole document without a value) is answered with an
// internal error, as the API server's panic recovery answers it, and
// changes nothing.
func TestPatchLibraryPanic(t *testing.T) {
	c, _ := widgetClient(t)
	if err := c.Create(ctx, widget("a", map[string]any{"color": "blue"})); err != nil {
		t.Fatal(err)
	}
	err := c.Patch(ctx, widget("a", nil), client.RawPatch(types.JSONPatchType, []byte(`[{"op":"replace","path":""}]`)))
	if !apierrors.IsInternalError(err) {
		t.Fatalf("patch: got %v, want an internal error", err)
	}
	after := widget("a", nil)
	if err := c.Get(ctx, client.ObjectKeyFromObject(after), after); err != nil {
		t.Fatal(err)
	}
	if got := after.Object["spec"].(map[string]any)["color"]; got != "blue" {
		t.Errorf("spec.color = %v after the refused patch, want blue", got)
	}
}
