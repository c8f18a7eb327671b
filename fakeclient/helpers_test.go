package fakeclient_test

import (
	"testing"

	"github.com/crdschema/crdschema/fakeclient"
	"github.com/crdschema/crdschema/internal/kubeapi/kubeapitest"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// widgetClient builds a client with the test CRDs and the CronTab types.
func widgetClient(t testing.TB, more ...func(*fakeclient.ClientBuilder)) (client.WithWatch, *kubeapitest.Warnings) {
	t.Helper()
	w := &kubeapitest.Warnings{}
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
