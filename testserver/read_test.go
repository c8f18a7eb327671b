package testserver

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"
)

// TestReadAfterCRDUpdate checks that custom resources are read as the API
// server decodes them from etcd, with the CRD's current schema ("Pruning
// versus preserving unknown fields" and "Defaulting" in the CRD
// documentation: defaults apply "when reading from etcd", unknown fields
// are pruned on read): an object stored before a CRD update that drops a
// field and adds a default reads without the field and with the default,
// in a get, a list and a watch, while the stored object keeps both until it
// is written.
func TestReadAfterCRDUpdate(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	if _, err := c.Create(ctx, cronTab("a", map[string]any{"image": "busybox"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	crds := dc.Resource(crdsGVR)
	def, err := crds.Get(ctx, "crontabs.stable.example.com", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	versions, _, _ := unstructured.NestedSlice(def.Object, "spec", "versions")
	v0 := versions[0].(map[string]any)
	props, _, _ := unstructured.NestedMap(v0, "schema", "openAPIV3Schema", "properties", "spec", "properties")
	delete(props, "image")
	props["note"] = map[string]any{"type": "string", "nullable": true, "default": "none"}
	if err := unstructured.SetNestedMap(v0, props, "schema", "openAPIV3Schema", "properties", "spec", "properties"); err != nil {
		t.Fatal(err)
	}
	versions[0] = v0
	if err := unstructured.SetNestedSlice(def.Object, versions, "spec", "versions"); err != nil {
		t.Fatal(err)
	}
	if _, err := crds.Update(ctx, def, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	check := func(what string, o map[string]any) {
		t.Helper()
		if _, found, _ := unstructured.NestedFieldNoCopy(o, "spec", "image"); found {
			t.Errorf("%s: spec.image was not pruned: %v", what, o["spec"])
		}
		if n, _, _ := unstructured.NestedString(o, "spec", "note"); n != "none" {
			t.Errorf("%s: spec.note = %q, want the new default", what, n)
		}
	}
	got, err := c.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("get", got.Object)
	list, err := c.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 {
		t.Fatalf("list: %d items", len(list.Items))
	}
	check("list", list.Items[0].Object)
	w, err := c.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := <-w.ResultChan()
	w.Stop()
	if e.Type != watch.Added {
		t.Fatalf("watch: %s %v", e.Type, e.Object)
	}
	check("watch", e.Object.(*unstructured.Unstructured).Object)
	// An update writes the object as read.
	got.SetLabels(map[string]string{"x": "y"})
	upd, err := c.Update(ctx, got, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check("update", upd.Object)
}
