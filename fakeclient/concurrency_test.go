package fakeclient_test

import (
	"fmt"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Many goroutines create, update, patch and list the same client; run with
// -race. Every write either succeeds or fails with the API server's
// errors; the final state holds exactly the writes that succeeded.
func TestConcurrentWriters(t *testing.T) {
	c, _ := widgetClient(t)
	const workers, each = 8, 20
	shared := widget("shared", map[string]any{"replicas": int64(0)})
	if err := c.Create(ctx, shared); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, workers*each*3)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				u := widget(fmt.Sprintf("w%d-%d", w, i), map[string]any{"color": "red"})
				if err := c.Create(ctx, u); err != nil {
					errs <- err
				}
				// A read-modify-write that retries on conflicts.
				err := retry.RetryOnConflict(wait.Backoff{Steps: 1 << 20}, func() error {
					cur := widget("shared", nil)
					if err := c.Get(ctx, client.ObjectKeyFromObject(cur), cur); err != nil {
						return err
					}
					labels := cur.GetLabels()
					if labels == nil {
						labels = map[string]string{}
					}
					labels[fmt.Sprintf("w%d-%d", w, i)] = "x"
					cur.SetLabels(labels)
					return c.Update(ctx, cur)
				})
				if err != nil {
					errs <- err
				}
				// Patches retry on their own.
				if err := c.Patch(ctx, widget(fmt.Sprintf("w%d-%d", w, i), nil), client.RawPatch(types.MergePatchType, []byte(`{"spec":{"replicas":2}}`))); err != nil {
					errs <- err
				}
				if err := c.List(ctx, &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "WidgetList"}}); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	cur := widget("shared", nil)
	if err := c.Get(ctx, client.ObjectKeyFromObject(cur), cur); err != nil {
		t.Fatal(err)
	}
	if n := len(cur.GetLabels()); n != workers*each {
		t.Errorf("labels: %d, want %d (lost updates)", n, workers*each)
	}
	l := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "WidgetList"}}
	if err := c.List(ctx, l, client.MatchingFields{"spec.color": "red"}); err != nil || len(l.Items) != workers*each {
		t.Errorf("list: %v, %d items", err, len(l.Items))
	}
	for _, it := range l.Items {
		if nested(&it, "spec", "replicas") != int64(2) || it.GetGeneration() != 2 {
			t.Errorf("%s: %v", it.GetName(), it.Object["spec"])
		}
	}
	// A stale write is refused.
	stale := widget("shared", nil)
	stale.SetResourceVersion("1")
	if err := c.Update(ctx, stale); !apierrors.IsConflict(err) {
		t.Errorf("stale update: %v", err)
	}
}
