package testserver

// The conformance cases of the library (../conformance/testdata/cases), run
// over HTTP: for each request with a golden, a server is started with the
// case's CRD (and the stored object of an update), the request is sent with
// client-go's dynamic client, and the server must accept or refuse it as the
// API server did, with exactly the golden's errors as the causes of its 422.
// The case reader is the fake client's (fakeclient/conformance_test.go);
// both would share it from internal/casefile.

import (
	"context"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/manifest"

	"github.com/crdschema/crdschema/internal/casefile"
	"github.com/crdschema/crdschema/internal/kubeapi/kubeapitest"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

const casesDir = "../conformance/testdata/cases"

func TestConformanceOverHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the conformance cases over HTTP start a server per request")
	}
	kubeapitest.RunThroughClient(t, casesDir, 100, runOverHTTP)
}

// runOverHTTP runs one request; it returns why it cannot be compared, or "".
func runOverHTTP(t *testing.T, c *casefile.Case, r casefile.Request, want map[string]any, i int) (*kubeapitest.Refusal, string) {
	def, body, reason := kubeapitest.ClientBody(c, r)
	if reason != "" {
		return nil, reason
	}
	obj := &unstructured.Unstructured{Object: body}
	if obj.GetKind() == "" || obj.GetAPIVersion() == "" {
		return nil, "no apiVersion or kind: the dynamic client cannot send it"
	}
	if obj.GetKind() != def.Spec.Names.Kind || obj.GroupVersionKind().Group != def.Spec.Group {
		return nil, "a kind the CRD does not serve: no URL to send it to"
	}
	if c.Version != "" && obj.GroupVersionKind().Version != c.Version {
		return nil, "the body names another version than the case's"
	}
	namespaced := def.Spec.Scope == "Namespaced"
	opts := []Option{WithCRDs(def)}
	var old *unstructured.Unstructured
	if r.Operation != "create" {
		oldBody, err := manifest.UnmarshalObject(r.OldObject)
		if err != nil {
			return nil, "the old object is not a JSON object"
		}
		old = &unstructured.Unstructured{Object: oldBody}
		if old.GetKind() == "" {
			old.SetKind(obj.GetKind())
		}
		if old.GetAPIVersion() == "" {
			old.SetAPIVersion(obj.GetAPIVersion())
		}
		if obj.GetNamespace() == "" {
			obj.SetNamespace(old.GetNamespace())
		}
		if old.GetName() == "" {
			return nil, "the old object has no name"
		}
		if obj.GetUID() != "" && obj.GetUID() != old.GetUID() {
			return nil, "another uid than the stored object's: the registry answers 409 (a failed precondition) before validation, as kube-apiserver's does"
		}
		opts = append(opts, WithObjects(old.Object))
	}
	if md, ok := body["metadata"].(map[string]any); ok && md["managedFields"] != nil {
		return nil, "managedFields in the body: the field manager of the HTTP path rewrites them before validation, as kube-apiserver's does"
	}
	ns := obj.GetNamespace()
	if namespaced && ns == "" {
		ns = "default"
	}
	if namespaced && ns != "default" {
		opts = append(opts, WithObjects(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}))
	}
	srv, err := Start(opts...)
	if err != nil {
		if c.OldCRD != nil {
			return nil, "the CRD is accepted only as an update of oldCRD"
		}
		if strings.Contains(err.Error(), "is invalid") {
			t.Errorf("request %d: the CRD is refused by the server but accepted upstream: %v", i, err)
			return nil, "failed above"
		}
		return nil, "the initial object cannot be stored: " + err.Error()
	}
	defer srv.Close()
	cfg := srv.RESTConfig()
	cfg.WarningHandler = rest.NoWarnings{}
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	gvr := obj.GroupVersionKind().GroupVersion().WithResource(def.Spec.Names.Plural)
	var rc dynamic.ResourceInterface = dc.Resource(gvr)
	if namespaced {
		rc = dc.Resource(gvr).Namespace(ns)
	}
	ctx := context.Background()
	switch {
	case r.Operation == "create":
		_, err = rc.Create(ctx, obj, metav1.CreateOptions{})
	default:
		stored, gerr := rc.Get(ctx, old.GetName(), metav1.GetOptions{})
		if gerr != nil {
			return nil, "the stored object cannot be read: " + gerr.Error()
		}
		// An old object without a resourceVersion is stored as at "1", as
		// the fake client's conformance test stores it.
		oldRV := old.GetResourceVersion()
		if oldRV == "" {
			oldRV = "1"
		}
		if obj.GetResourceVersion() == oldRV {
			obj.SetResourceVersion(stored.GetResourceVersion())
		}
		if obj.GetName() == "" {
			return nil, "the body has no name: no URL to send it to"
		}
		if r.Subresource == "status" {
			_, err = rc.UpdateStatus(ctx, obj, metav1.UpdateOptions{})
		} else {
			_, err = rc.Update(ctx, obj, metav1.UpdateOptions{})
		}
	}
	return kubeapitest.RefusalOf(err), ""
}
