package testserver

import (
	"context"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

var crontabs = schema.GroupVersionResource{Group: "stable.example.com", Version: "v1", Resource: "crontabs"}

func startCronTab(t *testing.T, opts ...Option) (*Server, dynamic.Interface) {
	t.Helper()
	srv, err := Start(append([]Option{WithCRDFiles("testdata/crontab.yaml")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	dc, err := dynamic.NewForConfig(srv.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	return srv, dc
}

func cronTab(name string, spec map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "stable.example.com/v1",
		"kind":       "CronTab",
		"metadata":   map[string]any{"name": name},
		"spec":       spec,
	}}
}

func TestCreateGetListDelete(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	out, err := c.Create(ctx, cronTab("a", map[string]any{"image": "busybox", "extra": "x"}), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Defaulted and pruned by the pipeline.
	if got, _, _ := unstructured.NestedString(out.Object, "spec", "cronSpec"); got != "5 0 * * *" {
		t.Errorf("cronSpec = %q, want the default", got)
	}
	if _, found, _ := unstructured.NestedFieldNoCopy(out.Object, "spec", "extra"); found {
		t.Errorf("spec.extra was not pruned: %v", out.Object)
	}
	if out.GetGeneration() != 1 || out.GetUID() == "" || out.GetResourceVersion() == "" {
		t.Errorf("system fields: generation %d, uid %q, resourceVersion %q", out.GetGeneration(), out.GetUID(), out.GetResourceVersion())
	}
	got, err := c.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got.GetResourceVersion() != out.GetResourceVersion() {
		t.Errorf("get: resourceVersion %s, want %s", got.GetResourceVersion(), out.GetResourceVersion())
	}
	list, err := c.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].GetName() != "a" {
		t.Errorf("list: %v", list.Items)
	}
	if err := c.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(ctx, "a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("get after delete: %v, want NotFound", err)
	}
}

func TestInvalid(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	_, err := c.Create(ctx, cronTab("bad", map[string]any{"replicas": int64(20), "cronSpec": "x"}), metav1.CreateOptions{})
	if !apierrors.IsInvalid(err) {
		t.Fatalf("create: %v, want 422 Invalid", err)
	}
	want := `CronTab.stable.example.com "bad" is invalid: [spec.cronSpec: Invalid value: "x": spec.cronSpec in body should match '^(\d+|\*)(/\d+)?(\s+(\d+|\*)(/\d+)?){4}$', spec.replicas: Invalid value: 20: spec.replicas in body should be less than or equal to 10]`
	if err.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", err, want)
	}
	st := err.(apierrors.APIStatus).Status()
	if st.Details == nil || len(st.Details.Causes) != 2 || st.Details.Causes[0].Field != "spec.cronSpec" {
		t.Errorf("causes: %+v", st.Details)
	}
}

func TestUnknownNamespace(t *testing.T) {
	_, dc := startCronTab(t)
	_, err := dc.Resource(crontabs).Namespace("nope").Create(context.Background(), cronTab("a", map[string]any{}), metav1.CreateOptions{})
	if !apierrors.IsNotFound(err) || !strings.Contains(err.Error(), `namespaces "nope" not found`) {
		t.Errorf("create in a missing namespace: %v", err)
	}
}
