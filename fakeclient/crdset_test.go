package fakeclient_test

import (
	"fmt"
	"github.com/crdschema/crdschema"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/fakeclient"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestCRDSetShared builds many clients at once from one CRDSet, as the
// tests of a suite running in parallel would (run with -race): each client
// serves the set's CRDs, validating and defaulting, and keeps its own
// objects.
func TestCRDSetShared(t *testing.T) {
	set, err := fakeclient.NewClientBuilder().WithCRDFiles("testdata/widgets.yaml", "testdata/crontab.yaml").BuildCRDSet()
	if err != nil {
		t.Fatal(err)
	}
	const clients = 8
	var wg sync.WaitGroup
	errs := make(chan error, clients*4)
	for i := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := fakeclient.NewClientBuilder().WithScheme(runtime.NewScheme()).WithCRDSet(set).Build()
			if err != nil {
				errs <- err
				return
			}
			name := fmt.Sprintf("w%d", i)
			w := widget(name, map[string]any{"replicas": int64(2)})
			if err := c.Create(ctx, w); err != nil {
				errs <- err
			} else if nested(w, "spec", "color") != "blue" {
				errs <- fmt.Errorf("client %d: not defaulted: %v", i, w.Object)
			}
			if err := c.Create(ctx, widget("bad", map[string]any{"replicas": int64(11)})); !apierrors.IsInvalid(err) {
				errs <- fmt.Errorf("client %d: an invalid widget: %v", i, err)
			}
			var list unstructured.UnstructuredList
			list.SetAPIVersion("example.com/v1")
			list.SetKind("WidgetList")
			if err := c.List(ctx, &list); err != nil {
				errs <- err
			} else if len(list.Items) != 1 || list.Items[0].GetName() != name {
				errs <- fmt.Errorf("client %d sees the objects of others: %d items", i, len(list.Items))
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCRDSetOptions: a set's CRDs keep their release and resource options;
// a builder that asks for others fails, as do duplicates across sets.
func TestCRDSetOptions(t *testing.T) {
	clock := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	set, err := fakeclient.NewClientBuilder().WithCRDFiles("testdata/crontab.yaml").
		WithKubernetesVersion(v134).WithResourceOptions(crd.WithClock(func() time.Time { return clock })).BuildCRDSet()
	if err != nil {
		t.Fatal(err)
	}
	c, err := fakeclient.NewClientBuilder().WithScheme(runtime.NewScheme()).WithCRDSet(set).WithCRDFiles("testdata/widgets.yaml").
		WithKubernetesVersion(v134).Build()
	if err != nil {
		t.Fatal(err)
	}
	ct := obj("stable.example.com/v1", "CronTab", "default", "a", map[string]any{"image": "x"})
	if err := c.Create(ctx, ct); err != nil {
		t.Fatal(err)
	}
	if got := ct.GetCreationTimestamp().Time; !got.Equal(clock) {
		t.Errorf("creationTimestamp %v, want the set's clock %v", got, clock)
	}
	if err := c.Create(ctx, widget("w", nil)); err != nil {
		t.Errorf("a CRD of the builder beside the set: %v", err)
	}
	for name, b := range map[string]*fakeclient.ClientBuilder{
		"another release":      fakeclient.NewClientBuilder().WithCRDSet(set).WithKubernetesVersion(v135),
		"another release too":  fakeclient.NewClientBuilder().WithCRDSet(set).WithCRDFiles("testdata/widgets.yaml"),
		"resource options":     fakeclient.NewClientBuilder().WithCRDSet(set).WithResourceOptions(crd.WithClock(time.Now)),
		"the same CRD twice":   fakeclient.NewClientBuilder().WithCRDSet(set, set),
		"a CRD of the set too": fakeclient.NewClientBuilder().WithCRDSet(set).WithCRDFiles("testdata/crontab.yaml").WithKubernetesVersion(v134),
		"a nil set":            fakeclient.NewClientBuilder().WithCRDSet(nil),
	} {
		if _, err := b.Build(); err == nil {
			t.Errorf("%s: built", name)
		}
	}
	if _, err := fakeclient.NewClientBuilder().WithCRDFiles("testdata").BuildCRDSet(); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("BuildCRDSet of testdata (the CronTab CRD twice): %v", err)
	}
}

// TestSubResourceApply applies a status through Status().Apply, in the
// controller-runtime releases that have the method (v0.23 and later).
func TestSubResourceApply(t *testing.T) {
	c, _ := widgetClient(t)
	apply := reflect.ValueOf(c.Status()).MethodByName("Apply")
	if !apply.IsValid() {
		t.Skip("this controller-runtime release (v0.22) has no SubResourceClient.Apply")
	}
	call := func(u *unstructured.Unstructured) error {
		opts := reflect.MakeSlice(apply.Type().In(2), 0, 1)
		opts = reflect.Append(opts, reflect.ValueOf(client.FieldOwner("status-owner")))
		out := apply.CallSlice([]reflect.Value{reflect.ValueOf(ctx), reflect.ValueOf(client.ApplyConfigurationFromUnstructured(u)), opts})
		err, _ := out[0].Interface().(error)
		return err
	}
	if err := c.Create(ctx, widget("a", map[string]any{"replicas": int64(1)})); err != nil {
		t.Fatal(err)
	}
	// The status subresource ignores everything but the status.
	st := widget("a", map[string]any{"replicas": int64(5)})
	st.Object["status"] = map[string]any{"replicas": int64(3)}
	if err := call(st); err != nil {
		t.Fatal(err)
	}
	got := widget("a", nil)
	if err := c.Get(ctx, client.ObjectKeyFromObject(got), got); err != nil {
		t.Fatal(err)
	}
	if nested(got, "status", "replicas") != int64(3) || nested(got, "spec", "replicas") != int64(1) {
		t.Errorf("status apply: got %v, want status.replicas 3 and spec.replicas 1", got.Object)
	}
	if err := call(widget("missing", nil)); !apierrors.IsNotFound(err) {
		t.Errorf("the status of a missing object: got %v, want NotFound", err)
	}
}

var (
	v134, _ = crdschema.ParseKubernetesVersion("1.34")
	v135, _ = crdschema.ParseKubernetesVersion("1.35")
)
