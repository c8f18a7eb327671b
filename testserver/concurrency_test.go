package testserver

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/rest"
)

// TestConcurrentWritersAndWatchers: writers create, patch and delete objects
// at once while watchers watch from the same resourceVersion; every watcher
// must see every event, in resourceVersion order, and the same sequence.
func TestConcurrentWritersAndWatchers(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	list, err := c.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const writers, perWriter, watchers = 6, 10, 4
	const events = writers * perWriter * 3 // create, patch, delete
	type seen struct {
		typ  watch.EventType
		name string
		rv   string
	}
	results := make([][]seen, watchers)
	// the watches end early when a writer fails: their events would
	// never all come
	watchCtx, stopWatches := context.WithCancel(ctx)
	defer stopWatches()
	var ready, done sync.WaitGroup
	for w := range watchers {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			wi, err := c.Watch(watchCtx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
			ready.Done()
			if err != nil {
				t.Error(err)
				return
			}
			defer wi.Stop()
			for len(results[w]) < events {
				e, ok := <-wi.ResultChan()
				if !ok {
					t.Errorf("watcher %d: closed after %d events", w, len(results[w]))
					return
				}
				u, ok := e.Object.(*unstructured.Unstructured)
				if !ok {
					t.Errorf("watcher %d: event %s of %T", w, e.Type, e.Object)
					return
				}
				results[w] = append(results[w], seen{e.Type, u.GetName(), u.GetResourceVersion()})
			}
		}()
	}
	ready.Wait()
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range perWriter {
				name := fmt.Sprintf("w%d-%d", i, j)
				if _, err := c.Create(ctx, cronTab(name, map[string]any{"image": "a"}), metav1.CreateOptions{}); err != nil {
					t.Error(err)
					return
				}
				if _, err := c.Patch(ctx, name, types.MergePatchType, []byte(`{"spec":{"image":"b"}}`), metav1.PatchOptions{}); err != nil {
					t.Error(err)
					return
				}
				if err := c.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		stopWatches()
	}
	done.Wait()
	if t.Failed() {
		return
	}
	for w := range watchers {
		last := 0
		perObject := map[string][]watch.EventType{}
		for _, s := range results[w] {
			rv, err := strconv.Atoi(s.rv)
			if err != nil || rv <= last {
				t.Fatalf("watcher %d: resourceVersion %q after %d", w, s.rv, last)
			}
			last = rv
			perObject[s.name] = append(perObject[s.name], s.typ)
		}
		for name, types := range perObject {
			if len(types) != 3 || types[0] != watch.Added || types[1] != watch.Modified || types[2] != watch.Deleted {
				t.Errorf("watcher %d: %s: events %v", w, name, types)
			}
		}
		if fmt.Sprint(results[w]) != fmt.Sprint(results[0]) {
			t.Errorf("watcher %d saw another sequence than watcher 0", w)
		}
	}
}

// TestSlowWatcher: a watch whose client reads nothing does not hold up
// writers (its events queue on the server).
func TestSlowWatcher(t *testing.T) {
	srv, dc := startCronTab(t)
	hc, err := rest.HTTPClientFor(srv.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL()+"/apis/stable.example.com/v1/namespaces/default/crontabs?watch=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close() // never read
	c := dc.Resource(crontabs).Namespace("default")
	big := strings.Repeat("x", 64<<10)
	for i := range 200 {
		if _, err := c.Create(context.Background(), cronTab(fmt.Sprintf("o%d", i), map[string]any{"image": big}), metav1.CreateOptions{}); err != nil {
			t.Fatalf("create %d with a watcher that reads nothing: %v", i, err)
		}
	}
}
