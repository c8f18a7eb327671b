package fakeclient_test

// The conformance cases of the library (../conformance/testdata/cases), run
// through the client: each request with a golden is sent as a client write,
// and the client must accept or refuse it as the API server did, with
// exactly the golden's errors as the causes of its Invalid error.

import (
	"context"
	"testing"
	"time"

	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/fakeclient"
	"github.com/crdschema/crdschema/manifest"

	"github.com/crdschema/crdschema/internal/casefile"
	"github.com/crdschema/crdschema/internal/kubeapi/kubeapitest"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
)

const casesDir = "../conformance/testdata/cases"

func TestConformanceThroughClient(t *testing.T) {
	kubeapitest.RunThroughClient(t, casesDir, 100, runThroughClient)
}

func resourceOptions() []crd.Option {
	return []crd.Option{
		crd.WithClock(func() time.Time { return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) }),
		crd.WithUID(func() string { return "00000000-0000-0000-0000-000000000001" }),
		crd.WithNameSuffix(func() string { return "xxxxx" }),
	}
}

// runThroughClient runs one request; it returns why it cannot be compared,
// or "".
func runThroughClient(t *testing.T, c *casefile.Case, r casefile.Request, want map[string]any, i int) (*kubeapitest.Refusal, string) {
	def, body, reason := kubeapitest.ClientBody(c, r)
	if reason != "" {
		return nil, reason
	}
	obj := &unstructured.Unstructured{Object: body}
	if obj.GetKind() == "" || obj.GetAPIVersion() == "" {
		if _, ok := want["requestError"]; !ok {
			t.Errorf("request %d: a body without apiVersion or kind was not refused upstream", i)
		}
		return nil, "no apiVersion or kind: the client cannot send it"
	}
	if obj.GetKind() != def.Spec.Names.Kind || obj.GroupVersionKind().Group != def.Spec.Group {
		cl, err := fakeclient.NewClientBuilder().WithScheme(runtime.NewScheme()).WithCRDDefinitions(def).Build()
		if err == nil {
			if err := cl.Create(context.Background(), obj); err == nil {
				t.Errorf("request %d: a kind the CRD does not serve was accepted", i)
			}
		}
		return nil, "a kind the CRD does not serve: the client refuses it before sending"
	}
	if c.Version != "" && obj.GroupVersionKind().Version != c.Version {
		return nil, "the body names another version than the case's: the client serves every version"
	}
	b := fakeclient.NewClientBuilder().WithScheme(runtime.NewScheme()).
		WithCRDDefinitions(def).WithResourceOptions(resourceOptions()...).
		WithWarningHandler(rest.NoWarnings{})
	if r.Operation != "create" {
		oldBody, err := manifest.UnmarshalObject(r.OldObject)
		if err != nil {
			return nil, "the old object is not a JSON object"
		}
		old := &unstructured.Unstructured{Object: oldBody}
		if old.GetKind() == "" {
			old.SetKind(obj.GetKind())
		}
		if old.GetAPIVersion() == "" {
			old.SetAPIVersion(obj.GetAPIVersion())
		}
		if old.GetResourceVersion() == "" {
			old.SetResourceVersion("1")
		}
		if obj.GetNamespace() == "" {
			// The request goes to the stored object's namespace, as the
			// oracle sends it.
			obj.SetNamespace(old.GetNamespace())
		}
		b.WithObjects(old)
	}
	cl, err := b.Build()
	if err != nil {
		var ce *fakeclient.CRDError
		if c.OldCRD != nil {
			return nil, "the CRD is accepted only as an update of oldCRD"
		}
		if asCRDError(err, &ce) {
			t.Errorf("request %d: the CRD is refused by the client but accepted upstream: %v", i, err)
			return nil, "failed above"
		}
		return nil, "the initial object cannot be stored: " + err.Error()
	}
	ctx := context.Background()
	switch {
	case r.Operation == "create":
		err = cl.Create(ctx, obj)
	case r.Subresource == "status":
		err = cl.Status().Update(ctx, obj)
	default:
		err = cl.Update(ctx, obj)
	}
	return kubeapitest.RefusalOf(err), ""
}

func asCRDError(err error, target **fakeclient.CRDError) bool {
	ce, ok := err.(*fakeclient.CRDError)
	if ok {
		*target = ce
	}
	return ok
}
