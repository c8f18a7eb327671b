package testserver

import (
	"context"
	"net/http"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// waitFor reads w until an event satisfies ok. The test's timeout bounds
// the wait.
func waitFor(t *testing.T, w watch.Interface, what string, ok func(watch.Event) bool) watch.Event {
	t.Helper()
	for e := range w.ResultChan() {
		if e.Type == watch.Error {
			t.Fatalf("waiting for %s: %v", what, e.Object)
		}
		if ok(e) {
			return e
		}
	}
	t.Fatalf("waiting for %s: the watch ended", what)
	return watch.Event{}
}

func named(name string, typ watch.EventType) func(watch.Event) bool {
	return func(e watch.Event) bool {
		u, ok := e.Object.(*unstructured.Unstructured)
		return ok && e.Type == typ && u.GetName() == name
	}
}

// TestCRDDeletion follows a CRD's deletion as kube-apiserver runs it (its
// CRD registry and the CRD finalizer of apiextensions-apiserver): the
// DELETE returns the CRD with a deletionTimestamp, the cleanup finalizer
// and the Terminating condition; its custom resources are deleted, an
// object with a finalizer of its own holds the CRD; creates are refused
// with the custom resource handler's 403 meanwhile; once the last object
// is gone the CRD is deleted and its resource is no longer served.
func TestCRDDeletion(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	crds := dc.Resource(crdsGVR)
	if _, err := crds.Create(ctx, widgetCRD("widgets.example.com", "example.com", "widgets", "Widget"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	widgets := dc.Resource(schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}).Namespace("default")
	for _, name := range []string{"free", "held"} {
		w := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
			"metadata": map[string]any{"name": name}, "spec": map[string]any{"size": int64(1)}}}
		if name == "held" {
			w.SetFinalizers([]string{"example.com/hold"})
		}
		if _, err := widgets.Create(ctx, w, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	ww, err := widgets.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ww.Stop()
	cw, err := crds.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=widgets.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	defer cw.Stop()

	// Dry run: nothing changes.
	if err := crds.Delete(ctx, "widgets.example.com", metav1.DeleteOptions{DryRun: []string{metav1.DryRunAll}}); err != nil {
		t.Fatal(err)
	}
	if c, err := crds.Get(ctx, "widgets.example.com", metav1.GetOptions{}); err != nil || c.GetDeletionTimestamp() != nil {
		t.Fatalf("after a dry-run delete: %v, %v", c, err)
	}

	if err := crds.Delete(ctx, "widgets.example.com", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, ww, "the deletion of the object without finalizers", named("free", watch.Deleted))
	waitFor(t, ww, "the deletionTimestamp of the object with a finalizer", func(e watch.Event) bool {
		return named("held", watch.Modified)(e) && e.Object.(*unstructured.Unstructured).GetDeletionTimestamp() != nil
	})
	c, err := crds.Get(ctx, "widgets.example.com", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.GetDeletionTimestamp() == nil || len(c.GetFinalizers()) != 1 || c.GetFinalizers()[0] != "customresourcecleanup.apiextensions.k8s.io" {
		t.Errorf("terminating CRD: deletionTimestamp %v, finalizers %v", c.GetDeletionTimestamp(), c.GetFinalizers())
	}
	if st, reason, msg := condition(c, "Terminating"); st != "True" || reason != "InstanceDeletionInProgress" || msg != "CustomResource deletion is in progress" {
		t.Errorf("Terminating condition: %s %s %s", st, reason, msg)
	}
	_, err = widgets.Create(ctx, &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "late"}}}, metav1.CreateOptions{})
	if !apierrors.IsForbidden(err) || err.Error() != `widgets.example.com "late" is forbidden: create not allowed while custom resource definition is terminating` {
		t.Errorf("create while the CRD terminates: %v", err)
	}
	// Releasing the last object lets the CRD go.
	if _, err := widgets.Patch(ctx, "held", types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, cw, "the CRD's deletion", func(e watch.Event) bool { return e.Type == watch.Deleted })
	if _, err := widgets.List(ctx, metav1.ListOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("list after the CRD's deletion: %v, want NotFound", err)
	}
}

// TestNamespaceDeletion follows a namespace's deletion: the protected
// namespaces may not be deleted (403, NamespaceLifecycle), namespaces have
// no deletecollection (405); DELETE leaves the
// namespace Terminating with a deletionTimestamp; creates in it are refused
// with NamespaceLifecycle's 403 and cause; its objects are deleted (the
// namespace controller's work, which the server does itself), one with a
// finalizer holds the namespace (the namespace controller's conditions say
// so), and once it is released the namespace goes.
func TestNamespaceDeletion(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	nss := dc.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"})
	err := nss.Delete(ctx, "default", metav1.DeleteOptions{})
	if !apierrors.IsForbidden(err) || err.Error() != `namespaces "default" is forbidden: this namespace may not be deleted` {
		t.Errorf("deleting default: %v", err)
	}
	if err := nss.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); !apierrors.IsMethodNotSupported(err) {
		t.Errorf("deletecollection of namespaces: %v, want 405", err)
	}
	if _, err := nss.Create(ctx, &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": "team"}}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cms := dc.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("team")
	cm := func(name string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name}}}
	}
	if _, err := cms.Create(ctx, cm("cfg"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	tabs := dc.Resource(crontabs).Namespace("team")
	held := cronTab("held", map[string]any{})
	held.SetFinalizers([]string{"example.com/hold"})
	if _, err := tabs.Create(ctx, held, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cw, err := cms.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer cw.Stop()
	tw, err := tabs.Watch(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer tw.Stop()
	nw, err := nss.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=team"})
	if err != nil {
		t.Fatal(err)
	}
	defer nw.Stop()

	if err := nss.Delete(ctx, "team", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	ns, err := nss.Get(ctx, "team", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if phase, _, _ := unstructured.NestedString(ns.Object, "status", "phase"); phase != "Terminating" || ns.GetDeletionTimestamp() == nil {
		t.Errorf("deleted namespace: phase %q, deletionTimestamp %v", phase, ns.GetDeletionTimestamp())
	}
	_, err = cms.Create(ctx, cm("late"), metav1.CreateOptions{})
	st, ok := err.(apierrors.APIStatus)
	if !ok || st.Status().Code != http.StatusForbidden ||
		err.Error() != `configmaps "late" is forbidden: unable to create new content in namespace team because it is being terminated` ||
		len(st.Status().Details.Causes) != 1 || st.Status().Details.Causes[0].Type != "NamespaceTerminating" {
		t.Errorf("create in a terminating namespace: %v", err)
	}
	waitFor(t, cw, "the deletion of the namespace's ConfigMap", named("cfg", watch.Deleted))
	waitFor(t, tw, "the deletionTimestamp of the CronTab with a finalizer", func(e watch.Event) bool {
		return named("held", watch.Modified)(e) && e.Object.(*unstructured.Unstructured).GetDeletionTimestamp() != nil
	})
	// The namespace controller's conditions say what holds the namespace.
	e := waitFor(t, nw, "the namespace's conditions", func(e watch.Event) bool {
		st, _, _ := condition(e.Object.(*unstructured.Unstructured), "NamespaceFinalizersRemaining")
		return e.Type == watch.Modified && st == "True"
	})
	ns = e.Object.(*unstructured.Unstructured)
	for _, c := range []struct{ typ, status, reason, message string }{
		{"NamespaceDeletionDiscoveryFailure", "False", "ResourcesDiscovered", "All resources successfully discovered"},
		{"NamespaceDeletionContentFailure", "False", "ContentDeleted", "All content successfully deleted, may be waiting on finalization"},
		{"NamespaceContentRemaining", "True", "SomeResourcesRemain", "Some resources are remaining: crontabs.stable.example.com has 1 resource instances"},
		{"NamespaceFinalizersRemaining", "True", "SomeFinalizersRemain", "Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances"},
	} {
		if st, reason, msg := condition(ns, c.typ); st != c.status || reason != c.reason || msg != c.message {
			t.Errorf("%s: %s %s %q, want %s %s %q", c.typ, st, reason, msg, c.status, c.reason, c.message)
		}
	}
	if _, err := nss.Get(ctx, "team", metav1.GetOptions{}); err != nil {
		t.Errorf("the namespace went while an object with a finalizer is in it: %v", err)
	}
	if _, err := tabs.Patch(ctx, "held", types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, nw, "the namespace's deletion", named("team", watch.Deleted))
}

// TestCRDStatusUpdateMetadata checks a CRD status update as
// apiextensions-apiserver's status strategy makes it: the spec is kept, the
// request's metadata is taken (its reset of the metadata resets it from
// itself), so that the CRD finalizer can remove its finalizer with a status
// update.
func TestCRDStatusUpdateMetadata(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	crds := dc.Resource(crdsGVR)
	c, err := crds.Get(ctx, "crontabs.stable.example.com", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c.SetLabels(map[string]string{"by": "status"})
	c.SetFinalizers([]string{"example.com/hold"})
	_ = unstructured.SetNestedField(c.Object, "Cluster", "spec", "scope")
	out, err := crds.UpdateStatus(ctx, c, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if out.GetLabels()["by"] != "status" || len(out.GetFinalizers()) != 1 {
		t.Errorf("status update: labels %v, finalizers %v; want the request's", out.GetLabels(), out.GetFinalizers())
	}
	if scope, _, _ := unstructured.NestedString(out.Object, "spec", "scope"); scope != "Namespaced" || out.GetGeneration() != c.GetGeneration() {
		t.Errorf("status update changed the spec: scope %q, generation %d", scope, out.GetGeneration())
	}
}
