//lint:file-ignore SA1019 the client serves Patch with the deprecated client.Apply, which controllers still call.

package fakeclient_test

import (
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/fakeclient"
	"github.com/crdschema/crdschema/internal/readall"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
	"sigs.k8s.io/yaml"
)

var ctx = context.Background()

func TestBuildRefusesInvalidCRD(t *testing.T) {
	data, err := os.ReadFile("testdata/crontab.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defs, err := readall.CRDs(data)
	if err != nil {
		t.Fatal(err)
	}
	bad := defs[0]
	bad.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["replicas"] = crdschema.JSONSchemaProps{Type: "integer", Default: &crdschema.JSON{Value: "many"}}
	want := crd.Validate(ctx, bad)
	if len(want) == 0 {
		t.Fatal("the broken CRD is valid")
	}
	_, err = fakeclient.NewClientBuilder().WithCRDDefinitions(bad).Build()
	var ce *fakeclient.CRDError
	if !errors.As(err, &ce) {
		t.Fatalf("Build: got %v, want a *CRDError", err)
	}
	if !reflect.DeepEqual(ce.Errors, want) {
		t.Errorf("errors: got %v, want %v", ce.Errors, want)
	}
	if !strings.HasPrefix(err.Error(), `CustomResourceDefinition.apiextensions.k8s.io "crontabs.stable.example.com" is invalid: `) {
		t.Errorf("message: %s", err)
	}
}

func TestBuildSources(t *testing.T) {
	data, err := os.ReadFile("testdata/crontab.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var v1 apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(data, &v1); err != nil {
		t.Fatal(err)
	}
	defs, err := readall.CRDs(data)
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string]*fakeclient.ClientBuilder{
		"file":      fakeclient.NewClientBuilder().WithCRDFiles("testdata/crontab.yaml"),
		"folder":    fakeclient.NewClientBuilder().WithCRDFiles("testdata/kubebuilder/config/crd"),
		"v1":        fakeclient.NewClientBuilder().WithCRDs(&v1),
		"crdschema": fakeclient.NewClientBuilder().WithCRDDefinitions(defs[0]),
	} {
		c, err := b.WithScheme(runtime.NewScheme()).Build()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ct := obj("stable.example.com/v1", "CronTab", "default", "a", map[string]any{"image": "x"})
		if err := c.Create(ctx, ct); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := nested(ct, "spec", "replicas"); got != int64(1) {
			t.Errorf("%s: replicas defaulted to %v", name, got)
		}
	}
	if _, err := fakeclient.NewClientBuilder().WithCRDFiles("testdata/crontab.yaml").WithCRDDefinitions(defs[0]).Build(); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("a CRD given twice: %v", err)
	}
	if _, err := fakeclient.NewClientBuilder().WithCRDFiles("testdata/missing.yaml").Build(); err == nil {
		t.Error("a missing file is accepted")
	}
}

func TestCreate(t *testing.T) {
	c, w := widgetClient(t)
	u := widget("a", map[string]any{"replicas": int64(3), "unknown": "x"})
	u.Object["status"] = map[string]any{"phase": "Ready"}
	if err := c.Create(ctx, u); err != nil {
		t.Fatal(err)
	}
	if got := nested(u, "spec", "color"); got != "blue" {
		t.Errorf("default: %v", got)
	}
	if got := nested(u, "spec", "unknown"); got != nil {
		t.Errorf("unknown field kept: %v", got)
	}
	if got := nested(u, "status"); got != nil {
		t.Errorf("status kept on create with a status subresource: %v", got)
	}
	if u.GetGeneration() != 1 || u.GetUID() == "" || u.GetResourceVersion() == "" || u.GetCreationTimestamp().Time.IsZero() {
		t.Errorf("system fields: generation %d uid %q rv %q ts %v", u.GetGeneration(), u.GetUID(), u.GetResourceVersion(), u.GetCreationTimestamp())
	}
	if got := w.Take(); !reflect.DeepEqual(got, []string{`unknown field "spec.unknown"`}) {
		t.Errorf("warnings: %q", got)
	}
	strict := widget("b", map[string]any{"unknown": "x"})
	err := c.Create(ctx, strict, client.FieldValidation(metav1.FieldValidationStrict))
	if !apierrors.IsBadRequest(err) || err.Error() != `strict decoding error: unknown field "spec.unknown"` {
		t.Errorf("strict: %v", err)
	}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "b"}, &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget"}}); !apierrors.IsNotFound(err) {
		t.Errorf("refused object stored: %v", err)
	}
	// generateName
	g := widget("", nil)
	g.SetGenerateName("w-")
	if err := c.Create(ctx, g); err != nil || !strings.HasPrefix(g.GetName(), "w-") || len(g.GetName()) != 7 {
		t.Errorf("generateName: %v %q", err, g.GetName())
	}
	// dry run
	d := widget("dry", map[string]any{})
	if err := c.Create(ctx, d, client.DryRunAll); err != nil || nested(d, "spec", "color") != "blue" {
		t.Errorf("dry run: %v %v", err, d.Object)
	}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "dry"}, widget("", nil)); !apierrors.IsNotFound(err) {
		t.Errorf("dry run stored: %v", err)
	}
	if err := c.Create(ctx, widget("a", nil)); !apierrors.IsAlreadyExists(err) || err.Error() != `widgets.example.com "a" already exists` {
		t.Errorf("second create: %v", err)
	}
	// A dry run never reaches storage: the object keeps the request's
	// resourceVersion (or has none), which a stored create refuses, and
	// an object of the same name still makes it fail.
	if d.GetResourceVersion() != "" {
		t.Errorf("dry run: resourceVersion %q, want none", d.GetResourceVersion())
	}
	withRV := widget("dry-rv", map[string]any{})
	withRV.SetResourceVersion("5")
	if err := c.Create(ctx, withRV, client.DryRunAll); err != nil || withRV.GetResourceVersion() != "5" || nested(withRV, "spec", "color") != "blue" {
		t.Errorf("dry run with a resourceVersion: %v %v", err, withRV.Object)
	}
	withRV = widget("dry-rv", nil)
	withRV.SetResourceVersion("5")
	if err := c.Create(ctx, withRV); !apierrors.IsInternalError(err) || !strings.Contains(err.Error(), "resourceVersion should not be set on objects to be created") {
		t.Errorf("create with a resourceVersion: %v", err)
	}
	if err := c.Create(ctx, widget("a", nil), client.DryRunAll); !apierrors.IsAlreadyExists(err) || err.Error() != `widgets.example.com "a" already exists` {
		t.Errorf("dry run of an existing name: %v", err)
	}
}

func TestInvalid(t *testing.T) {
	c, _ := widgetClient(t)
	u := widget("a", map[string]any{"replicas": int64(11), "ports": []any{map[string]any{"port": int64(1)}}})
	err := c.Create(ctx, u)
	var se *apierrors.StatusError
	if !errors.As(err, &se) || !apierrors.IsInvalid(err) {
		t.Fatalf("got %v, want Invalid", err)
	}
	// The schema errors block the CEL rules, as the API server reports.
	want := `Widget.example.com "a" is invalid: [spec.ports[0].name: Required value, spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10, <nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation]`
	if err.Error() != want {
		t.Errorf("message:\n got %s\nwant %s", err, want)
	}
	st := se.ErrStatus
	if st.Code != 422 || st.Reason != metav1.StatusReasonInvalid || st.Details.Kind != "Widget" || st.Details.Group != "example.com" || st.Details.Name != "a" || len(st.Details.Causes) != 3 {
		t.Errorf("status: %+v", st)
	}
	c0 := st.Details.Causes[0]
	if c0.Type != metav1.CauseTypeFieldValueRequired || c0.Field != "spec.ports[0].name" || c0.Message != "Required value" {
		t.Errorf("cause: %+v", c0)
	}
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "a"}, widget("", nil)); !apierrors.IsNotFound(err) {
		t.Errorf("refused object stored: %v", err)
	}
}

func TestUpdateGenerationStatusAndRules(t *testing.T) {
	c, _ := widgetClient(t)
	u := widget("a", map[string]any{"immutable": "x"})
	if err := c.Create(ctx, u); err != nil {
		t.Fatal(err)
	}
	// Metadata only: generation unchanged.
	u.SetLabels(map[string]string{"k": "v"})
	if err := c.Update(ctx, u); err != nil || u.GetGeneration() != 1 {
		t.Fatalf("label update: %v, generation %d", err, u.GetGeneration())
	}
	// Status through the main resource: ignored.
	u.Object["status"] = map[string]any{"phase": "Ready"}
	if err := c.Update(ctx, u); err != nil || nested(u, "status") != nil || u.GetGeneration() != 1 {
		t.Fatalf("status by main update: %v %v gen %d", err, nested(u, "status"), u.GetGeneration())
	}
	// Spec: generation bumped.
	unstructured.SetNestedField(u.Object, "red", "spec", "color")
	if err := c.Update(ctx, u); err != nil || u.GetGeneration() != 2 {
		t.Fatalf("spec update: %v gen %d", err, u.GetGeneration())
	}
	// Status subresource: only the status.
	unstructured.SetNestedField(u.Object, "green", "spec", "color")
	u.Object["status"] = map[string]any{"phase": "Ready"}
	if err := c.Status().Update(ctx, u); err != nil {
		t.Fatal(err)
	}
	if nested(u, "spec", "color") != "red" || nested(u, "status", "phase") != "Ready" || u.GetGeneration() != 2 {
		t.Errorf("status update: %v", u.Object)
	}
	// Transition rule.
	unstructured.SetNestedField(u.Object, "y", "spec", "immutable")
	err := c.Update(ctx, u)
	if !apierrors.IsInvalid(err) || err.Error() != `Widget.example.com "a" is invalid: spec.immutable: Invalid value: "y": is immutable` {
		t.Errorf("transition rule: %v", err)
	}
	// Stale resourceVersion.
	stale := u.DeepCopy()
	unstructured.SetNestedField(stale.Object, "x", "spec", "immutable")
	stale.SetResourceVersion("1")
	if err := c.Update(ctx, stale); !apierrors.IsConflict(err) {
		t.Errorf("stale update: %v", err)
	}
	// Missing object.
	if err := c.Update(ctx, widget("missing", nil)); !apierrors.IsNotFound(err) || err.Error() != `widgets.example.com "missing" not found` {
		t.Errorf("missing: %v", err)
	}
	// A kind without status subresource: status written by the main resource,
	// no status subresource.
	g := obj("example.com/v1", "Gizmo", "", "g", map[string]any{"size": int64(1)})
	if err := c.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	g.Object["status"] = map[string]any{"ready": true}
	if err := c.Update(ctx, g); err != nil || nested(g, "status", "ready") != true || g.GetGeneration() != 2 {
		t.Errorf("gizmo status by main update: %v %v gen %d", err, g.Object, g.GetGeneration())
	}
	if err := c.Status().Update(ctx, g); !apierrors.IsNotFound(err) {
		t.Errorf("status subresource of gizmo: %v", err)
	}
}

func TestTyped(t *testing.T) {
	c, _ := widgetClient(t)
	ct := &CronTab{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "default"}, Spec: CronTabSpec{Image: "i", Replicas: 11}}
	if err := c.Create(ctx, ct); !apierrors.IsInvalid(err) {
		t.Fatalf("create: %v", err)
	}
	ct.Spec.Replicas = 2
	if err := c.Create(ctx, ct); err != nil {
		t.Fatal(err)
	}
	if ct.Spec.CronSpec != "5 0 * * *" || ct.Kind != "" {
		t.Errorf("typed create: %+v", ct)
	}
	var l CronTabList
	if err := c.List(ctx, &l, client.InNamespace("default")); err != nil || len(l.Items) != 1 || l.Items[0].Spec.Replicas != 2 {
		t.Errorf("list: %v %+v", err, l)
	}
	if err := c.Delete(ctx, ct); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(ct), &CronTab{}); !apierrors.IsNotFound(err) {
		t.Errorf("after delete: %v", err)
	}
}

func TestPatch(t *testing.T) {
	c, _ := widgetClient(t)
	u := widget("a", nil)
	if err := c.Create(ctx, u); err != nil {
		t.Fatal(err)
	}
	rv := u.GetResourceVersion()
	p := widget("a", nil)
	if err := c.Patch(ctx, p, client.RawPatch(types.MergePatchType, []byte(`{"spec":{"color":"red","unknown":1}}`))); err != nil {
		t.Fatal(err)
	}
	if nested(p, "spec", "color") != "red" || nested(p, "spec", "unknown") != nil || nested(p, "spec", "replicas") != int64(1) || p.GetGeneration() != 2 {
		t.Errorf("merge patch: %v", p.Object)
	}
	if err := c.Patch(ctx, p, client.RawPatch(types.JSONPatchType, []byte(`[{"op":"replace","path":"/spec/replicas","value":4}]`))); err != nil || nested(p, "spec", "replicas") != int64(4) {
		t.Errorf("JSON patch: %v %v", err, p.Object)
	}
	err := c.Patch(ctx, p, client.RawPatch(types.StrategicMergePatchType, []byte(`{"spec":{"color":"x"}}`)))
	if !apierrors.IsUnsupportedMediaType(err) || !strings.Contains(err.Error(), "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml") {
		t.Errorf("strategic merge patch: %v", err)
	}
	before := widget("a", nil)
	if err := c.Get(ctx, client.ObjectKeyFromObject(before), before); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []client.Patch{
		client.RawPatch(types.JSONPatchType, []byte(`{not json`)),
		client.RawPatch(types.JSONPatchType, []byte(`[{"op":"remove","path":"/spec/nothing"}]`)),
		client.RawPatch(types.MergePatchType, []byte(`[1,2]`)),
		client.RawPatch(types.MergePatchType, []byte(`{"spec":{"replicas":99}}`)),
		client.RawPatch(types.MergePatchType, []byte(`{"metadata":{"resourceVersion":"1"}}`)),
	} {
		data, _ := bad.Data(nil)
		if err := c.Patch(ctx, widget("a", nil), bad); err == nil {
			t.Errorf("patch %s accepted", data)
		}
	}
	after := widget("a", nil)
	if err := c.Get(ctx, client.ObjectKeyFromObject(after), after); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(before.Object, after.Object) || after.GetResourceVersion() == rv {
		t.Errorf("refused patches changed the object:\n%v\n%v", before.Object, after.Object)
	}
	// Status patch.
	if err := c.Status().Patch(ctx, p, client.RawPatch(types.MergePatchType, []byte(`{"status":{"phase":"Up"},"spec":{"color":"ignored"}}`))); err != nil || nested(p, "status", "phase") != "Up" || nested(p, "spec", "color") != "red" {
		t.Errorf("status patch: %v %v", err, p.Object)
	}
	// MergeFrom from a typed object.
	ct := &CronTab{ObjectMeta: metav1.ObjectMeta{Name: "c", Namespace: "default"}, Spec: CronTabSpec{Image: "i"}}
	if err := c.Create(ctx, ct); err != nil {
		t.Fatal(err)
	}
	base := ct.DeepCopyObject().(*CronTab)
	ct.Spec.MaxReplicas = ptr(int64(0))
	if err := c.Patch(ctx, ct, client.MergeFrom(base)); !apierrors.IsInvalid(err) {
		t.Errorf("MergeFrom violating a rule: %v", err)
	}
}

func TestServerSideApply(t *testing.T) {
	c, _ := widgetClient(t, func(b *fakeclient.ClientBuilder) { b.WithReturnManagedFields() })
	a := widget("a", map[string]any{"ports": []any{map[string]any{"name": "http", "port": int64(80)}}})
	if err := c.Patch(ctx, a, client.Apply, client.FieldOwner("one")); err != nil {
		t.Fatal(err)
	}
	if nested(a, "spec", "color") != "blue" || a.GetGeneration() != 1 {
		t.Errorf("apply create: %v", a.Object)
	}
	b := widget("a", map[string]any{"ports": []any{map[string]any{"name": "https", "port": int64(443)}}})
	if err := c.Patch(ctx, b, client.Apply, client.FieldOwner("two")); err != nil {
		t.Fatal(err)
	}
	ports, _ := nested(b, "spec", "ports").([]any)
	if len(ports) != 2 {
		t.Errorf("list map not merged by key: %v", ports)
	}
	managers := map[string]bool{}
	for _, m := range b.GetManagedFields() {
		managers[m.Manager+"/"+string(m.Operation)] = true
	}
	if !managers["one/Apply"] || !managers["two/Apply"] {
		t.Errorf("managedFields: %v", b.GetManagedFields())
	}
	conflict := widget("a", map[string]any{"ports": []any{map[string]any{"name": "http", "port": int64(81)}}})
	if err := c.Patch(ctx, conflict, client.Apply, client.FieldOwner("two")); !apierrors.IsConflict(err) {
		t.Errorf("conflicting apply: %v", err)
	}
	if err := c.Patch(ctx, conflict, client.Apply, client.FieldOwner("two"), client.ForceOwnership); err != nil {
		t.Errorf("forced apply: %v", err)
	}
	bad := widget("a", map[string]any{"replicas": int64(50)})
	if err := c.Patch(ctx, bad, client.Apply, client.FieldOwner("three")); !apierrors.IsInvalid(err) {
		t.Errorf("invalid apply: %v", err)
	}
	if err := c.Patch(ctx, widget("x", nil), client.Apply); !apierrors.IsInvalid(err) {
		t.Errorf("apply without field manager: %v", err)
	}
	// A create through an apply reaches etcd through its update, which
	// replaces the resourceVersion the object carries rather than
	// refusing it; a dry run returns it.
	withRV := widget("rv", map[string]any{})
	withRV.SetResourceVersion("7")
	if err := c.Patch(ctx, withRV, client.Apply, client.FieldOwner("one"), client.DryRunAll); err != nil || withRV.GetResourceVersion() != "7" {
		t.Errorf("dry-run apply create with a resourceVersion: %v %q", err, withRV.GetResourceVersion())
	}
	withRV = widget("rv", map[string]any{})
	withRV.SetResourceVersion("7")
	if err := c.Patch(ctx, withRV, client.Apply, client.FieldOwner("one")); err != nil || withRV.GetResourceVersion() == "" || nested(withRV, "spec", "color") != "blue" {
		t.Errorf("apply create with a resourceVersion: %v %v", err, withRV.Object)
	}
	// An applied resourceVersion is a precondition, as in an update.
	stale := widget("a", map[string]any{})
	stale.SetResourceVersion("999")
	if err := c.Patch(ctx, stale, client.Apply, client.FieldOwner("one")); !apierrors.IsConflict(err) || !strings.Contains(err.Error(), "the object has been modified") {
		t.Errorf("apply with a stale resourceVersion: %v", err)
	}
	// Apply of the status subresource.
	st := widget("a", nil)
	st.Object["status"] = map[string]any{"phase": "Up"}
	if err := c.Status().Patch(ctx, st, client.Apply, client.FieldOwner("ctrl")); err != nil || nested(st, "status", "phase") != "Up" {
		t.Errorf("status apply: %v %v", err, st.Object)
	}
}

func TestScale(t *testing.T) {
	c, _ := widgetClient(t)
	u := widget("a", map[string]any{"replicas": int64(2)})
	if err := c.Create(ctx, u); err != nil {
		t.Fatal(err)
	}
	sc := &unstructured.Unstructured{}
	if err := c.SubResource("scale").Get(ctx, u, sc); err != nil {
		t.Fatal(err)
	}
	if nested(sc, "spec", "replicas") != int64(2) || sc.GetKind() != "Scale" {
		t.Errorf("scale: %v", sc.Object)
	}
	unstructured.SetNestedField(sc.Object, int64(5), "spec", "replicas")
	if err := c.SubResource("scale").Update(ctx, u, client.WithSubResourceBody(sc)); err != nil {
		t.Fatal(err)
	}
	if nested(u, "spec", "replicas") != int64(5) {
		t.Errorf("after scale: %v", u.Object)
	}
	unstructured.SetNestedField(sc.Object, int64(50), "spec", "replicas")
	sc.SetResourceVersion("")
	if err := c.SubResource("scale").Update(ctx, u, client.WithSubResourceBody(sc)); !apierrors.IsInvalid(err) {
		t.Errorf("invalid scale: %v", err)
	}
	// Patches of the scale: merge and JSON patch, checked by the pipeline.
	out := &unstructured.Unstructured{}
	if err := c.SubResource("scale").Patch(ctx, u, client.RawPatch(types.MergePatchType, []byte(`{"spec":{"replicas":7}}`)), client.WithSubResourceBody(out)); err != nil {
		t.Fatalf("merge patch of the scale: %v", err)
	}
	if nested(u, "spec", "replicas") != int64(7) || nested(out, "spec", "replicas") != int64(7) {
		t.Errorf("after the scale patch: object %v, scale %v", u.Object, out.Object)
	}
	if err := c.SubResource("scale").Patch(ctx, u, client.RawPatch(types.JSONPatchType, []byte(`[{"op":"replace","path":"/spec/replicas","value":3}]`))); err != nil || nested(u, "spec", "replicas") != int64(3) {
		t.Errorf("JSON patch of the scale: %v %v", err, u.Object)
	}
	if err := c.SubResource("scale").Patch(ctx, u, client.RawPatch(types.MergePatchType, []byte(`{"spec":{"replicas":50}}`))); !apierrors.IsInvalid(err) {
		t.Errorf("invalid scale patch: %v", err)
	}
	if err := c.SubResource("scale").Patch(ctx, u, client.RawPatch(types.StrategicMergePatchType, []byte(`{}`))); err == nil {
		t.Error("strategic merge patch of the scale accepted")
	}
	g := obj("example.com/v1", "Gizmo", "", "g", nil)
	if err := c.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	if err := c.SubResource("scale").Get(ctx, g, sc); !apierrors.IsNotFound(err) {
		t.Errorf("scale of a kind without one: %v", err)
	}
}

func TestListFieldSelectors(t *testing.T) {
	c, _ := widgetClient(t)
	for _, w := range []*unstructured.Unstructured{
		widget("a", map[string]any{"color": "red"}),
		widget("b", map[string]any{}),
		obj("example.com/v1", "Widget", "other", "c", map[string]any{"color": "red"}),
	} {
		if err := c.Create(ctx, w); err != nil {
			t.Fatal(err)
		}
	}
	names := func(opts ...client.ListOption) ([]string, error) {
		l := &unstructured.UnstructuredList{}
		l.SetAPIVersion("example.com/v1")
		l.SetKind("WidgetList")
		if err := c.List(ctx, l, opts...); err != nil {
			return nil, err
		}
		var out []string
		for _, it := range l.Items {
			out = append(out, it.GetNamespace()+"/"+it.GetName())
		}
		return out, nil
	}
	for _, tc := range []struct {
		opts []client.ListOption
		want []string
	}{
		{nil, []string{"default/a", "default/b", "other/c"}},
		{[]client.ListOption{client.MatchingFields{"spec.color": "red"}}, []string{"default/a", "other/c"}},
		{[]client.ListOption{client.MatchingFields{"spec.color": "blue"}}, []string{"default/b"}},
		{[]client.ListOption{client.MatchingFields{"metadata.name": "c"}}, []string{"other/c"}},
		{[]client.ListOption{client.MatchingFields{"metadata.namespace": "other"}}, []string{"other/c"}},
		{[]client.ListOption{client.InNamespace("default"), client.MatchingFields{"spec.color": "red"}}, []string{"default/a"}},
	} {
		got, err := names(tc.opts...)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v: got %v %v, want %v", tc.opts, got, err, tc.want)
		}
	}
	_, err := names(client.MatchingFields{"spec.replicas": "1"})
	if !apierrors.IsBadRequest(err) || err.Error() != "field label not supported: spec.replicas" {
		t.Errorf("unsupported field: %v", err)
	}
}

func TestIndexOnCRDKind(t *testing.T) {
	c, _ := widgetClient(t, func(b *fakeclient.ClientBuilder) {
		b.WithIndex(&CronTab{}, "spec.image", func(o client.Object) []string { return []string{o.(*CronTab).Spec.Image} })
	})
	for _, n := range []string{"a", "b"} {
		if err := c.Create(ctx, &CronTab{ObjectMeta: metav1.ObjectMeta{Name: n, Namespace: "default"}, Spec: CronTabSpec{Image: n}}); err != nil {
			t.Fatal(err)
		}
	}
	var l CronTabList
	if err := c.List(ctx, &l, client.MatchingFields{"spec.image": "b"}); err != nil || len(l.Items) != 1 || l.Items[0].Name != "b" {
		t.Errorf("indexed list: %v %v", err, l.Items)
	}
}

func TestConversionNone(t *testing.T) {
	c, w := widgetClient(t)
	b := obj("example.com/v1beta1", "Widget", "default", "a", map[string]any{"color": "red"})
	if err := c.Create(ctx, b); err != nil {
		t.Fatal(err)
	}
	if got := w.Take(); !reflect.DeepEqual(got, []string{"example.com/v1beta1 Widget is deprecated"}) {
		t.Errorf("warnings: %q", got)
	}
	v1 := widget("a", nil)
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "a"}, v1); err != nil {
		t.Fatal(err)
	}
	if v1.GetAPIVersion() != "example.com/v1" || nested(v1, "spec", "color") != "red" {
		t.Errorf("read in v1: %v", v1.Object)
	}
	unstructured.SetNestedField(v1.Object, "green", "spec", "color")
	if err := c.Update(ctx, v1); err != nil {
		t.Fatal(err)
	}
	l := &unstructured.UnstructuredList{}
	l.SetAPIVersion("example.com/v1beta1")
	l.SetKind("WidgetList")
	if err := c.List(ctx, l); err != nil || len(l.Items) != 1 || l.Items[0].GetAPIVersion() != "example.com/v1beta1" || nested(&l.Items[0], "spec", "color") != "green" {
		t.Errorf("list in v1beta1: %v %v", err, l.Items)
	}
}

func TestWatch(t *testing.T) {
	c, _ := widgetClient(t)
	l := &unstructured.UnstructuredList{}
	l.SetAPIVersion("example.com/v1")
	l.SetKind("WidgetList")
	wi, err := c.Watch(ctx, l, client.MatchingFields{"spec.color": "red"})
	if err != nil {
		t.Fatal(err)
	}
	defer wi.Stop()
	if err := c.Create(ctx, widget("blue", nil)); err != nil {
		t.Fatal(err)
	}
	if err := c.Create(ctx, widget("red", map[string]any{"color": "red"})); err != nil {
		t.Fatal(err)
	}
	ev := <-wi.ResultChan()
	u, ok := ev.Object.(*unstructured.Unstructured)
	if ev.Type != watch.Added || !ok || u.GetName() != "red" || nested(u, "spec", "replicas") != int64(1) {
		t.Errorf("event: %v %#v", ev.Type, ev.Object)
	}
}

func TestOtherKinds(t *testing.T) {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	c, err := fakeclient.NewClientBuilder().WithScheme(s).WithCRDFiles("testdata/widgets.yaml").
		WithObjects(&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm", Namespace: "default"}}).
		WithStatusSubresource(&corev1.ConfigMap{}).Build()
	if err != nil {
		t.Fatal(err)
	}
	var cm corev1.ConfigMap
	if err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "cm"}, &cm); err != nil {
		t.Fatal(err)
	}
	cm.Data = map[string]string{"k": "v"}
	if err := c.Update(ctx, &cm); err != nil || cm.ResourceVersion != "1000" {
		t.Errorf("configmap update: %v rv %s", err, cm.ResourceVersion)
	}
	if err := c.Create(ctx, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default"}}); err != nil {
		t.Errorf("pod: %v", err)
	}
	// The scheme is not modified.
	if s.Recognizes(schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}) {
		t.Error("the user's scheme learned a CRD kind")
	}
}

func TestBadInput(t *testing.T) {
	c, _ := widgetClient(t)
	type unregistered struct{ corev1.ConfigMap }
	if err := c.Create(ctx, &unregistered{}); err == nil || !strings.Contains(err.Error(), "no kind is registered") {
		t.Errorf("unregistered Go type: %v", err)
	}
	other := obj("example.com/v1", "Sprocket", "default", "s", nil)
	if err := c.Create(ctx, other); !meta.IsNoMatchError(err) {
		t.Errorf("kind of a CRD group no CRD serves: %v", err)
	}
	v2 := obj("example.com/v2", "Widget", "default", "s", nil)
	if err := c.Create(ctx, v2); !meta.IsNoMatchError(err) {
		t.Errorf("version no CRD serves: %v", err)
	}
	l := &unstructured.UnstructuredList{}
	l.SetAPIVersion("example.com/v1")
	l.SetKind("SprocketList")
	if err := c.List(ctx, l); !meta.IsNoMatchError(err) {
		t.Errorf("list of a kind no CRD serves: %v", err)
	}
	if err := c.Patch(ctx, widget("a", nil), client.RawPatch(types.MergePatchType, []byte(`{}`))); !apierrors.IsNotFound(err) {
		t.Errorf("patch of a missing object: %v", err)
	}
	if err := c.Patch(ctx, widget("a", nil), nil); err == nil {
		t.Error("nil patch accepted")
	}
	// A body over the API server's 3 MiB limit: its 413.
	big := widget("big", map[string]any{"unknown": strings.Repeat("x", 4<<20)})
	err := c.Create(ctx, big)
	if st, ok := err.(apierrors.APIStatus); !ok || st.Status().Code != 413 || !apierrors.IsRequestEntityTooLargeError(err) {
		t.Errorf("4 MiB body: %v, want 413 RequestEntityTooLarge", err)
	}
}

func TestRESTMapper(t *testing.T) {
	c, _ := widgetClient(t)
	m := c.RESTMapper()
	gvk, err := m.KindFor(schema.GroupVersionResource{Resource: "wd"})
	if err != nil || gvk.Kind != "Widget" {
		t.Errorf("short name: %v %v", gvk, err)
	}
	mp, err := m.RESTMapping(schema.GroupKind{Group: "example.com", Kind: "Gizmo"}, "v1")
	if err != nil || mp.Resource.Resource != "gizmos" || mp.Scope.Name() != meta.RESTScopeNameRoot {
		t.Errorf("gizmo mapping: %+v %v", mp, err)
	}
	ns, err := c.IsObjectNamespaced(widget("a", nil))
	if err != nil || !ns {
		t.Errorf("namespaced: %v %v", ns, err)
	}
}

func TestInitialObjects(t *testing.T) {
	stored := widget("a", map[string]any{"unknown": int64(1)})
	stored.SetResourceVersion("7")
	c, _ := widgetClient(t, func(b *fakeclient.ClientBuilder) { b.WithObjects(stored) })
	got := widget("a", nil)
	if err := c.Get(ctx, client.ObjectKeyFromObject(got), got); err != nil {
		t.Fatal(err)
	}
	if nested(got, "spec", "color") != "blue" || nested(got, "spec", "unknown") != nil || got.GetResourceVersion() != "7" {
		t.Errorf("initial object as read: %v", got.Object)
	}
}

func TestIsolation(t *testing.T) {
	c1, _ := widgetClient(t)
	c2, _ := widgetClient(t)
	if err := c1.Create(ctx, widget("a", nil)); err != nil {
		t.Fatal(err)
	}
	if err := c2.Get(ctx, client.ObjectKey{Namespace: "default", Name: "a"}, widget("", nil)); !apierrors.IsNotFound(err) {
		t.Errorf("an object of one client is seen by another: %v", err)
	}
}

func TestManagedFieldsKept(t *testing.T) {
	c, _ := widgetClient(t)
	a := widget("a", map[string]any{"color": "red"})
	if err := c.Patch(ctx, a, client.Apply, client.FieldOwner("one")); err != nil {
		t.Fatal(err)
	}
	if a.GetManagedFields() != nil {
		t.Errorf("managedFields returned without WithReturnManagedFields: %v", a.GetManagedFields())
	}
	// An update that leaves managedFields unset keeps them: a later apply
	// by another manager conflicts with "one" on spec.color.
	unstructured.SetNestedField(a.Object, int64(3), "spec", "replicas")
	if err := c.Update(ctx, a); err != nil {
		t.Fatal(err)
	}
	b := widget("a", map[string]any{"color": "green"})
	if err := c.Patch(ctx, b, client.Apply, client.FieldOwner("two")); !apierrors.IsConflict(err) {
		t.Errorf("apply after update: %v, want a conflict with manager one", err)
	}
}

func TestApplyConfiguration(t *testing.T) {
	c, _ := widgetClient(t)
	u := widget("a", map[string]any{"ports": []any{map[string]any{"name": "http", "port": int64(80)}}})
	ac := client.ApplyConfigurationFromUnstructured(u)
	if err := c.Apply(ctx, ac, client.FieldOwner("one")); err != nil {
		t.Fatal(err)
	}
	got := widget("a", nil)
	if err := c.Get(ctx, client.ObjectKeyFromObject(got), got); err != nil {
		t.Fatal(err)
	}
	if nested(got, "spec", "color") != "blue" || len(nested(got, "spec", "ports").([]any)) != 1 {
		t.Errorf("applied: %v", got.Object)
	}
	bad := client.ApplyConfigurationFromUnstructured(widget("a", map[string]any{"replicas": int64(11)}))
	if err := c.Apply(ctx, bad, client.FieldOwner("one")); !apierrors.IsInvalid(err) {
		t.Errorf("invalid apply: %v", err)
	}
}

func TestManagedFieldsOfUpdates(t *testing.T) {
	c, _ := widgetClient(t, func(b *fakeclient.ClientBuilder) { b.WithReturnManagedFields() })
	u := widget("a", map[string]any{"color": "red"})
	if err := c.Create(ctx, u, client.FieldOwner("creator")); err != nil {
		t.Fatal(err)
	}
	unstructured.SetNestedField(u.Object, "green", "spec", "color")
	if err := c.Update(ctx, u, client.FieldOwner("ctrl")); err != nil {
		t.Fatal(err)
	}
	ops := map[string]bool{}
	for _, m := range u.GetManagedFields() {
		ops[m.Manager+"/"+string(m.Operation)] = true
	}
	if !ops["creator/Update"] || !ops["ctrl/Update"] {
		t.Errorf("managedFields: %+v", u.GetManagedFields())
	}
	err := c.Patch(ctx, widget("a", map[string]any{"color": "blue"}), client.Apply, client.FieldOwner("applier"))
	if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), `conflict with "ctrl"`) {
		t.Errorf("apply over an updated field: %v", err)
	}
	// Without a field owner, the manager is the program's name, as the
	// API server derives it from client-go's user agent.
	g := obj("example.com/v1", "Gizmo", "", "g", map[string]any{"size": int64(1)})
	if err := c.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	if mf := g.GetManagedFields(); len(mf) != 1 || mf[0].Manager != "fakeclient.test" {
		t.Errorf("default manager: %+v", mf)
	}
}

func TestDeletionWithFinalizers(t *testing.T) {
	c, _ := widgetClient(t)
	u := widget("a", map[string]any{})
	u.SetFinalizers([]string{"example.com/cleanup"})
	if err := c.Create(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, u); err != nil {
		t.Fatal(err)
	}
	got := widget("a", nil)
	if err := c.Get(ctx, client.ObjectKeyFromObject(got), got); err != nil || got.GetDeletionTimestamp() == nil {
		t.Fatalf("after delete with a finalizer: %v %v", err, got.Object)
	}
	got.SetFinalizers(nil)
	if err := c.Update(ctx, got); err != nil {
		t.Fatal(err)
	}
	if err := c.Get(ctx, client.ObjectKeyFromObject(got), widget("", nil)); !apierrors.IsNotFound(err) {
		t.Errorf("after removing the finalizer: %v", err)
	}
	for _, n := range []string{"x", "y"} {
		if err := c.Create(ctx, widget(n, map[string]any{"color": "red"})); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.DeleteAllOf(ctx, widget("", nil), client.InNamespace("default"), client.MatchingFields{"spec.color": "red"}); err != nil {
		t.Fatal(err)
	}
	l := &unstructured.UnstructuredList{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "WidgetList"}}
	if err := c.List(ctx, l); err != nil || len(l.Items) != 0 {
		t.Errorf("after DeleteAllOf: %v %d", err, len(l.Items))
	}
}

func TestInterceptors(t *testing.T) {
	calls := 0
	c, _ := widgetClient(t, func(b *fakeclient.ClientBuilder) {
		b.WithInterceptorFuncs(interceptor.Funcs{Create: func(ctx context.Context, cl client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
			calls++
			return cl.Create(ctx, obj, opts...)
		}})
	})
	if err := c.Create(ctx, widget("a", map[string]any{"replicas": int64(11)})); !apierrors.IsInvalid(err) || calls != 1 {
		t.Errorf("intercepted create: %v, %d calls", err, calls)
	}
}
