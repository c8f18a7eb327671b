package fakeclient_test

import (
	"sync"
	"testing"

	"github.com/crdschema/crdschema/fakeclient"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// warnings records the warnings a client reports.
type warnings struct {
	mu   sync.Mutex
	msgs []string
}

func (w *warnings) HandleWarningHeader(code int, agent, text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.msgs = append(w.msgs, text)
}

func (w *warnings) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.msgs
	w.msgs = nil
	return out
}

// widgetClient builds a client with the test CRDs and the CronTab types.
func widgetClient(t testing.TB, more ...func(*fakeclient.ClientBuilder)) (client.WithWatch, *warnings) {
	t.Helper()
	w := &warnings{}
	b := fakeclient.NewClientBuilder().WithScheme(cronTabScheme()).
		WithCRDFiles("testdata/widgets.yaml", "testdata/crontab.yaml").
		WithWarningHandler(w)
	for _, f := range more {
		f(b)
	}
	c, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return c, w
}

// obj builds an unstructured object.
func obj(apiVersion, kind, ns, name string, spec map[string]any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": apiVersion,
		"kind":       kind,
		"metadata":   map[string]any{"name": name},
	}}
	if ns != "" {
		u.SetNamespace(ns)
	}
	if spec != nil {
		u.Object["spec"] = runtime.DeepCopyJSONValue(spec)
	}
	return u
}

func widget(name string, spec map[string]any) *unstructured.Unstructured {
	return obj("example.com/v1", "Widget", "default", name, spec)
}

func nested(u *unstructured.Unstructured, fields ...string) any {
	v, _, _ := unstructured.NestedFieldNoCopy(u.Object, fields...)
	return v
}
