package testserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/crdschema/crdschema/internal/kubeapi/kubeapitest"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

func nextEvent(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	select {
	case e, ok := <-w.ResultChan():
		if !ok {
			t.Fatal("watch closed")
		}
		return e
	case <-time.After(30 * time.Second):
		t.Fatal("no watch event in 30 s")
	}
	return watch.Event{}
}

func TestWatch(t *testing.T) {
	srv, dc := startCronTab(t)
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	for _, n := range []string{"a", "b"} {
		if _, err := c.Create(ctx, cronTab(n, map[string]any{}), metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	list, err := c.List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := c.Watch(ctx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	if _, err := c.Patch(ctx, "a", types.MergePatchType, []byte(`{"spec":{"image":"x"}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, "b", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if e := nextEvent(t, w); e.Type != watch.Modified || e.Object.(*unstructured.Unstructured).GetName() != "a" {
		t.Errorf("first event: %s %v", e.Type, e.Object)
	}
	if e := nextEvent(t, w); e.Type != watch.Deleted || e.Object.(*unstructured.Unstructured).GetName() != "b" {
		t.Errorf("second event: %s %v", e.Type, e.Object)
	}

	// A watch from before a compaction is 410 Gone.
	srv.Compact()
	_, err = c.Watch(ctx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
	if !apierrors.IsResourceExpired(err) && !apierrors.IsGone(err) {
		t.Errorf("watch from a compacted resourceVersion: %v, want 410", err)
	}
}

func TestWatchSelectorsAndBookmarks(t *testing.T) {
	_, dc := startCronTab(t, WithBookmarkInterval(20*time.Millisecond))
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	w, err := c.Watch(ctx, metav1.ListOptions{LabelSelector: "app=x", AllowWatchBookmarks: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	obj := cronTab("a", map[string]any{})
	if _, err := c.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Patch(ctx, "a", types.MergePatchType, []byte(`{"metadata":{"labels":{"app":"x"}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	var sawAdded, sawBookmark bool
	for !sawAdded || !sawBookmark {
		e := nextEvent(t, w)
		switch e.Type {
		case watch.Added:
			// The object entered the selection by its update.
			sawAdded = e.Object.(*unstructured.Unstructured).GetName() == "a"
		case watch.Bookmark:
			sawBookmark = true
		default:
			t.Fatalf("unexpected event %s", e.Type)
		}
	}
}

func TestSelectors(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	for _, n := range []string{"a", "b", "c"} {
		o := cronTab(n, map[string]any{})
		if n != "c" {
			o.SetLabels(map[string]string{"app": n})
		}
		if _, err := c.Create(ctx, o, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	names := func(opts metav1.ListOptions) string {
		l, err := c.List(ctx, opts)
		if err != nil {
			return err.Error()
		}
		var out []string
		for _, it := range l.Items {
			out = append(out, it.GetName())
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		opts metav1.ListOptions
		want string
	}{
		{metav1.ListOptions{LabelSelector: "app"}, "a,b"},
		{metav1.ListOptions{LabelSelector: "app!=a"}, "b,c"},
		{metav1.ListOptions{FieldSelector: "metadata.name=b"}, "b"},
		{metav1.ListOptions{FieldSelector: "metadata.name!=b,metadata.namespace=default"}, "a,c"},
		{metav1.ListOptions{FieldSelector: "spec.image=x"}, "field label not supported: spec.image"},
	} {
		if got := names(tc.opts); got != tc.want {
			t.Errorf("list %+v: got %q, want %q", tc.opts, got, tc.want)
		}
	}
}

func TestPatchAndApply(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	if _, err := c.Create(ctx, cronTab("a", map[string]any{"image": "one"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	out, err := c.Patch(ctx, "a", types.JSONPatchType, []byte(`[{"op":"replace","path":"/spec/image","value":"two"}]`), metav1.PatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if img, _, _ := unstructured.NestedString(out.Object, "spec", "image"); img != "two" || out.GetGeneration() != 2 {
		t.Errorf("after JSON patch: image %q, generation %d", img, out.GetGeneration())
	}
	_, err = c.Patch(ctx, "a", types.MergePatchType, []byte(`{"spec":{"replicas":11}}`), metav1.PatchOptions{})
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10") {
		t.Errorf("invalid merge patch: %v", err)
	}
	_, err = c.Patch(ctx, "a", types.StrategicMergePatchType, []byte(`{"spec":{"image":"x"}}`), metav1.PatchOptions{})
	if err == nil || !apierrors.IsUnsupportedMediaType(err) {
		t.Errorf("strategic merge patch of a custom resource: %v, want 415", err)
	}
	apply := []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"b"},"spec":{"image":"mine"}}`)
	if _, err := c.Patch(ctx, "b", types.ApplyPatchType, apply, metav1.PatchOptions{FieldManager: "one"}); err != nil {
		t.Fatal(err)
	}
	other := []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"b"},"spec":{"image":"theirs"}}`)
	_, err = c.Patch(ctx, "b", types.ApplyPatchType, other, metav1.PatchOptions{FieldManager: "two"})
	if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), `conflict with "one"`) {
		t.Errorf("conflicting apply: %v", err)
	}
	force := true
	out, err = c.Patch(ctx, "b", types.ApplyPatchType, other, metav1.PatchOptions{FieldManager: "two", Force: &force})
	if err != nil {
		t.Fatal(err)
	}
	if img, _, _ := unstructured.NestedString(out.Object, "spec", "image"); img != "theirs" {
		t.Errorf("forced apply: image %q", img)
	}
	// A create through an apply reaches etcd through its update, which
	// replaces the resourceVersion the object carries rather than
	// refusing it; a dry run returns it.
	withRV := []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"rv","resourceVersion":"7"},"spec":{"image":"mine"}}`)
	out, err = c.Patch(ctx, "rv", types.ApplyPatchType, withRV, metav1.PatchOptions{FieldManager: "one", DryRun: []string{metav1.DryRunAll}})
	if err != nil || out.GetResourceVersion() != "7" {
		t.Errorf("dry-run apply create with a resourceVersion: %v %v", err, out)
	}
	out, err = c.Patch(ctx, "rv", types.ApplyPatchType, withRV, metav1.PatchOptions{FieldManager: "one"})
	if err != nil || out.GetResourceVersion() == "" {
		t.Errorf("apply create with a resourceVersion: %v %v", err, out)
	}
	// On an existing object, it is a precondition, as in an update.
	stale := []byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"b","resourceVersion":"999"},"spec":{"image":"theirs"}}`)
	if _, err := c.Patch(ctx, "b", types.ApplyPatchType, stale, metav1.PatchOptions{FieldManager: "two"}); !apierrors.IsConflict(err) || !strings.Contains(err.Error(), "the object has been modified") {
		t.Errorf("apply with a stale resourceVersion: %v", err)
	}
}

func TestDryRunAndFieldValidation(t *testing.T) {
	srv, _ := startCronTab(t)
	ws := &kubeapitest.Warnings{}
	cfg := srv.RESTConfig()
	cfg.WarningHandler = ws
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	body := cronTab("a", map[string]any{"image": "x", "bogus": "y"})
	if _, err := c.Create(ctx, body, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(ctx, "a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("dry run stored the object: %v", err)
	}
	_, err = c.Create(ctx, body, metav1.CreateOptions{FieldValidation: "Strict"})
	want := `CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.bogus"`
	if !apierrors.IsBadRequest(err) || err.Error() != want {
		t.Errorf("strict: %v, want %s", err, want)
	}
	ws.Take()
	if _, err := c.Create(ctx, body, metav1.CreateOptions{FieldValidation: "Warn"}); err != nil {
		t.Fatal(err)
	}
	if got := ws.Take(); len(got) != 1 || got[0] != `unknown field "spec.bogus"` {
		t.Errorf("warnings: %q", got)
	}
	body.SetName("b")
	if _, err := c.Create(ctx, body, metav1.CreateOptions{FieldValidation: "Ignore"}); err != nil {
		t.Fatal(err)
	}
	if got := ws.Take(); len(got) != 0 {
		t.Errorf("warnings under Ignore: %q", got)
	}
	// A dry run never reaches storage: the object keeps the request's
	// resourceVersion (or has none), which a stored create refuses, and
	// an object of the same name still makes it fail.
	dry := cronTab("dry", map[string]any{"image": "x"})
	out, err := c.Create(ctx, dry, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if err != nil || out.GetResourceVersion() != "" {
		t.Errorf("dry run: %v, resourceVersion %q, want none", err, out.GetResourceVersion())
	}
	dry.SetResourceVersion("5")
	if out, err := c.Create(ctx, dry, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}); err != nil || out.GetResourceVersion() != "5" {
		t.Errorf("dry run with a resourceVersion: %v, %v", err, out)
	}
	if _, err := c.Create(ctx, dry, metav1.CreateOptions{}); !apierrors.IsInternalError(err) || !strings.Contains(err.Error(), "resourceVersion should not be set on objects to be created") {
		t.Errorf("create with a resourceVersion: %v", err)
	}
	if _, err := c.Create(ctx, cronTab("a", map[string]any{"image": "x"}), metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}); !apierrors.IsAlreadyExists(err) {
		t.Errorf("dry run of an existing name: %v", err)
	}
}

func TestStatusSubresource(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	o := cronTab("a", map[string]any{"image": "x"})
	o.Object["status"] = map[string]any{"replicas": int64(3)}
	out, err := c.Create(ctx, o, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, found, _ := unstructured.NestedFieldNoCopy(out.Object, "status"); found {
		t.Errorf("create kept the status: %v", out.Object["status"])
	}
	out.Object["status"] = map[string]any{"replicas": int64(3)}
	out, err = c.UpdateStatus(ctx, out, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _ := unstructured.NestedInt64(out.Object, "status", "replicas"); r != 3 || out.GetGeneration() != 1 {
		t.Errorf("status update: replicas %d, generation %d", r, out.GetGeneration())
	}
	out.Object["status"] = map[string]any{"replicas": int64(5)}
	_ = unstructured.SetNestedField(out.Object, "y", "spec", "image")
	out, err = c.Update(ctx, out, metav1.UpdateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _ := unstructured.NestedInt64(out.Object, "status", "replicas"); r != 3 || out.GetGeneration() != 2 {
		t.Errorf("main update: status.replicas %d (want the stored 3), generation %d (want 2)", r, out.GetGeneration())
	}
	// A stale resourceVersion is a conflict.
	out.SetResourceVersion("1")
	if _, err := c.Update(ctx, out, metav1.UpdateOptions{}); !apierrors.IsConflict(err) {
		t.Errorf("stale update: %v, want 409", err)
	}
}

func TestFinalizers(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	o := cronTab("a", map[string]any{})
	o.SetFinalizers([]string{"example.com/hold"})
	if _, err := c.Create(ctx, o, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := c.Delete(ctx, "a", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := c.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("object with a finalizer is gone: %v", err)
	}
	if got.GetDeletionTimestamp() == nil {
		t.Errorf("no deletionTimestamp")
	}
	if _, err := c.Patch(ctx, "a", types.JSONPatchType, []byte(`[{"op":"remove","path":"/metadata/finalizers"}]`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Get(ctx, "a", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("after removing the finalizer: %v, want NotFound", err)
	}
}

var crdsGVR = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

func widgetCRD(name, group, plural, kind string) *unstructured.Unstructured {
	var m map[string]any
	_ = json.Unmarshal([]byte(`{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": {"name": "`+name+`"},
		"spec": {"group": "`+group+`", "scope": "Namespaced",
			"names": {"plural": "`+plural+`", "kind": "`+kind+`"},
			"versions": [{"name": "v1", "served": true, "storage": true,
				"schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object",
					"properties": {"size": {"type": "integer", "maximum": 5}}}}}}}]}}`), &m)
	return &unstructured.Unstructured{Object: m}
}

func condition(u *unstructured.Unstructured, typ string) (status, reason, message string) {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m := c.(map[string]any)
		if m["type"] == typ {
			return m["status"].(string), m["reason"].(string), m["message"].(string)
		}
	}
	return "", "", ""
}

func TestCRDAtRunTime(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	crds := dc.Resource(crdsGVR)
	out, err := crds.Create(ctx, widgetCRD("widgets.example.com", "example.com", "widgets", "Widget"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st, reason, _ := condition(out, "Established"); st != "True" || reason != "InitialNamesAccepted" {
		t.Errorf("Established: %s %s", st, reason)
	}
	widgets := dc.Resource(schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}).Namespace("default")
	w := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w"}, "spec": map[string]any{"size": int64(9)}}}
	_, err = widgets.Create(ctx, w, metav1.CreateOptions{})
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.size: Invalid value: 9: spec.size in body should be less than or equal to 5") {
		t.Errorf("invalid widget: %v", err)
	}
	// Same names in the same group: stored, names not accepted, not served.
	out, err = crds.Create(ctx, widgetCRD("gadgets.example.com", "example.com", "gadgets", "Widget"), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st, reason, msg := condition(out, "NamesAccepted"); st != "False" || reason != "ListKindConflict" || msg != `"WidgetList" is already in use` {
		t.Errorf("NamesAccepted: %s %s %s", st, reason, msg)
	}
	// An invalid CRD is refused with the API server's error.
	bad := widgetCRD("things.example.com", "example.com", "stuff", "Thing")
	_, err = crds.Create(ctx, bad, metav1.CreateOptions{})
	want := `CustomResourceDefinition.apiextensions.k8s.io "things.example.com" is invalid: metadata.name: Invalid value: "things.example.com": must be spec.names.plural+"."+spec.group`
	if !apierrors.IsInvalid(err) || err.Error() != want {
		t.Errorf("invalid CRD:\n got %v\nwant %s", err, want)
	}
	w0, err := crds.Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=widgets.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	defer w0.Stop()
	if err := crds.Delete(ctx, "widgets.example.com", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	// The CRD finalizer removes the CRD once its (no) objects are gone.
	waitFor(t, w0, "the CRD's deletion", func(e watch.Event) bool { return e.Type == watch.Deleted })
	if _, err := widgets.List(ctx, metav1.ListOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("list after the CRD's deletion: %v, want NotFound", err)
	}
}

func TestBuiltins(t *testing.T) {
	srv, _ := startCronTab(t)
	cs, err := kubernetes.NewForConfig(srv.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := cs.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cfg"}, Data: map[string]string{"k": "v"}}
	if _, err := cs.CoreV1().ConfigMaps("team").Create(ctx, cm, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	got, err := cs.CoreV1().ConfigMaps("team").Get(ctx, "cfg", metav1.GetOptions{})
	if err != nil || got.Data["k"] != "v" {
		t.Fatalf("get configmap: %v %v", got, err)
	}
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "s"}, StringData: map[string]string{"p": "w"}}
	s, err := cs.CoreV1().Secrets("team").Create(ctx, sec, metav1.CreateOptions{})
	if err != nil || string(s.Data["p"]) != "w" || s.Type != corev1.SecretTypeOpaque {
		t.Fatalf("secret: %+v %v", s, err)
	}
	nss, err := cs.CoreV1().Namespaces().List(ctx, metav1.ListOptions{})
	if err != nil || len(nss.Items) != 5 {
		t.Fatalf("namespaces: %d %v", len(nss.Items), err)
	}
	if _, err := cs.CoordinationV1().Leases("team").List(ctx, metav1.ListOptions{}); err != nil {
		t.Fatal(err)
	}
}

func TestDiscoveryTableOpenAPI(t *testing.T) {
	srv, dc := startCronTab(t)
	disc, err := discovery.NewDiscoveryClientForConfig(srv.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	rl, err := disc.ServerResourcesForGroupVersion("stable.example.com/v1")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range rl.APIResources {
		names = append(names, r.Name)
	}
	if got := strings.Join(names, ","); got != "crontabs,crontabs/status,crontabs/scale" {
		t.Errorf("resources: %s", got)
	}
	ctx := context.Background()
	if _, err := dc.Resource(crontabs).Namespace("default").Create(ctx, cronTab("a", map[string]any{"cronSpec": "1 2 3 4 5"}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	rc, err := rest.HTTPClientFor(srv.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, accept string) []byte {
		req, _ := http.NewRequest(http.MethodGet, srv.URL()+path, nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		resp, err := rc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var buf strings.Builder
		_, _ = bufCopy(&buf, resp)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, buf.String())
		}
		return []byte(buf.String())
	}
	var table metav1.Table
	if err := json.Unmarshal(get("/apis/stable.example.com/v1/namespaces/default/crontabs", "application/json;as=Table;v=v1;g=meta.k8s.io"), &table); err != nil {
		t.Fatal(err)
	}
	var cols []string
	for _, c := range table.ColumnDefinitions {
		cols = append(cols, c.Name)
	}
	if got := strings.Join(cols, ","); got != "Name,Spec,Replicas,Age" || len(table.Rows) != 1 || table.Rows[0].Cells[1] != "1 2 3 4 5" {
		t.Errorf("table: columns %s, rows %v", got, table.Rows)
	}
	var v3 map[string]any
	if err := json.Unmarshal(get("/openapi/v3/apis/stable.example.com/v1", ""), &v3); err != nil {
		t.Fatal(err)
	}
	if _, ok := v3["components"].(map[string]any)["schemas"].(map[string]any)["com.example.stable.v1.CronTab"]; !ok {
		t.Errorf("OpenAPI v3 has no CronTab schema")
	}
	var v2 map[string]any
	if err := json.Unmarshal(get("/openapi/v2", ""), &v2); err != nil {
		t.Fatal(err)
	}
	if _, ok := v2["definitions"].(map[string]any)["com.example.stable.v1.CronTab"]; !ok {
		t.Errorf("OpenAPI v2 has no CronTab definition")
	}
}

func TestScaleSubresource(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	if _, err := c.Create(ctx, cronTab("a", map[string]any{"replicas": int64(2)}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	sc, err := c.Get(ctx, "a", metav1.GetOptions{}, "scale")
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _ := unstructured.NestedInt64(sc.Object, "spec", "replicas"); r != 2 || sc.GetKind() != "Scale" {
		t.Fatalf("scale: %v", sc.Object)
	}
	_ = unstructured.SetNestedField(sc.Object, int64(5), "spec", "replicas")
	if _, err := c.Update(ctx, sc, metav1.UpdateOptions{}, "scale"); err != nil {
		t.Fatal(err)
	}
	got, err := c.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas"); r != 5 || got.GetGeneration() != 2 {
		t.Errorf("after the scale update: replicas %d, generation %d", r, got.GetGeneration())
	}
	sc.SetResourceVersion(got.GetResourceVersion())
	_ = unstructured.SetNestedField(sc.Object, int64(50), "spec", "replicas")
	_, err = c.Update(ctx, sc, metav1.UpdateOptions{}, "scale")
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.replicas: Invalid value: 50: spec.replicas in body should be less than or equal to 10") {
		t.Errorf("invalid scale: %v", err)
	}
}

// TestScalePatch patches the scale subresource as `kubectl scale` and
// autoscalers do: a merge patch and a JSON patch apply to the current
// Scale and go through the pipeline (the schema's maximum gives the API
// server's 422), a JSON patch that does not apply gets the patch handler's
// 422, and a patch type the subresource does not accept is 415.
func TestScalePatch(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	if _, err := c.Create(ctx, cronTab("a", map[string]any{"replicas": int64(2)}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	sc, err := c.Patch(ctx, "a", types.MergePatchType, []byte(`{"spec":{"replicas":3}}`), metav1.PatchOptions{}, "scale")
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _ := unstructured.NestedInt64(sc.Object, "spec", "replicas"); r != 3 || sc.GetKind() != "Scale" {
		t.Errorf("merge patch: %v", sc.Object)
	}
	if _, err := c.Patch(ctx, "a", types.JSONPatchType, []byte(`[{"op":"replace","path":"/spec/replicas","value":4}]`), metav1.PatchOptions{}, "scale"); err != nil {
		t.Fatal(err)
	}
	got, err := c.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas"); r != 4 || got.GetGeneration() != 3 {
		t.Errorf("after the patches: replicas %d, generation %d, want 4 and 3", r, got.GetGeneration())
	}
	_, err = c.Patch(ctx, "a", types.MergePatchType, []byte(`{"spec":{"replicas":50}}`), metav1.PatchOptions{}, "scale")
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.replicas: Invalid value: 50: spec.replicas in body should be less than or equal to 10") {
		t.Errorf("invalid scale patch: %v", err)
	}
	_, err = c.Patch(ctx, "a", types.JSONPatchType, []byte(`[{"op":"test","path":"/spec/replicas","value":9}]`), metav1.PatchOptions{}, "scale")
	// The patch handler's 422 for a patch that does not apply: a generic
	// message (NewGenericServerResponse keeps no cause).
	if st, ok := err.(apierrors.APIStatus); !ok || st.Status().Code != http.StatusUnprocessableEntity ||
		st.Status().Message != "the server rejected our request due to an error in our request" {
		t.Errorf("failing JSON patch test op: %v", err)
	}
	_, err = c.Patch(ctx, "a", types.StrategicMergePatchType, []byte(`{"spec":{"replicas":3}}`), metav1.PatchOptions{}, "scale")
	if !apierrors.IsUnsupportedMediaType(err) {
		t.Errorf("strategic merge patch of the scale: %v, want 415", err)
	}
	if _, err := c.Patch(ctx, "missing", types.MergePatchType, []byte(`{"spec":{"replicas":3}}`), metav1.PatchOptions{}, "scale"); !apierrors.IsNotFound(err) {
		t.Errorf("patch of a missing object's scale: %v, want 404", err)
	}
}

// TestScaleManagedFieldsAndApply follows apiextensions-apiserver's
// TestApplyScaleSubresource: a merge patch of the scale by a field manager
// is recorded in the object's managedFields as an Update of subresource
// "scale" owning the spec replicas path, which it takes from the applier's
// entry. An apply patch of the Scale itself first meets the scaler's
// ownership (409); forced, it fails in the field manager as in
// kube-apiserver 1.37 (a 500): the applied Scale comes out of the merge as
// an unstructured object, which the converter of custom resources refuses
// to convert to autoscaling/v1 (apiextensions-apiserver's crConverter
// converts only typed Scales).
func TestScaleManagedFieldsAndApply(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	applied := `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"a"},"spec":{"cronSpec":"* * * * */5","replicas":3}}`
	if _, err := c.Patch(ctx, "a", types.ApplyPatchType, []byte(applied), metav1.PatchOptions{FieldManager: "applier"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Patch(ctx, "a", types.MergePatchType, []byte(`{"spec":{"replicas":5}}`), metav1.PatchOptions{FieldManager: "scaler"}, "scale"); err != nil {
		t.Fatal(err)
	}
	got, err := c.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var entries []string
	for _, e := range got.GetManagedFields() {
		entries = append(entries, fmt.Sprintf("%s %s %s %q %s", e.Manager, e.Operation, e.APIVersion, e.Subresource, e.FieldsV1.GetRawString()))
	}
	want := []string{
		`applier Apply stable.example.com/v1 "" {"f:spec":{"f:cronSpec":{}}}`,
		`scaler Update stable.example.com/v1 "scale" {"f:spec":{"f:replicas":{}}}`,
	}
	if !reflect.DeepEqual(entries, want) {
		t.Errorf("managedFields:\n%s\nwant\n%s", strings.Join(entries, "\n"), strings.Join(want, "\n"))
	}
	// As upstream's ScaleREST.Get, a Scale read carries no managedFields.
	sc, err := c.Get(ctx, "a", metav1.GetOptions{}, "scale")
	if err != nil {
		t.Fatal(err)
	}
	if mf := sc.GetManagedFields(); len(mf) != 0 {
		t.Errorf("the Scale's managedFields: %v", mf)
	}

	scaleApply := `{"apiVersion":"autoscaling/v1","kind":"Scale","metadata":{"name":"a","namespace":"default"},"spec":{"replicas":7}}`
	// Without force, the field manager first finds the conflict with the
	// scaler's replicas.
	_, err = c.Patch(ctx, "a", types.ApplyPatchType, []byte(scaleApply), metav1.PatchOptions{FieldManager: "hpa"}, "scale")
	if !apierrors.IsConflict(err) || !strings.Contains(err.Error(), `conflict with "scaler" with subresource "scale" using autoscaling/v1: .spec.replicas`) {
		t.Errorf("apply of the Scale without force: %v, want a conflict", err)
	}
	force := true
	_, err = c.Patch(ctx, "a", types.ApplyPatchType, []byte(scaleApply), metav1.PatchOptions{FieldManager: "hpa", Force: &force}, "scale")
	wantText := `failed to convert new object (default/a; autoscaling/v1, Kind=Scale) to proper version: request to convert CR to an invalid group/version: autoscaling/v1`
	if st, ok := err.(apierrors.APIStatus); !ok || st.Status().Code != http.StatusInternalServerError || !strings.Contains(err.Error(), wantText) {
		t.Errorf("apply of the Scale: %v, want a 500 with %q", err, wantText)
	}
	if got, err := c.Get(ctx, "a", metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	} else if r, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas"); r != 5 {
		t.Errorf("replicas after the failed apply: %d, want 5", r)
	}
}

// TestScaleWithoutSpecReplicas follows upstream's ScaleREST for an object
// without spec replicas: reading its Scale is a 500, a patch of the Scale
// that sets the replicas writes them, and one that leaves them unset is a
// 400.
func TestScaleWithoutSpecReplicas(t *testing.T) {
	_, dc := startCronTab(t)
	ctx := context.Background()
	c := dc.Resource(crontabs).Namespace("default")
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "stable.example.com/v1", "kind": "CronTab", "metadata": map[string]any{"name": "a"}}}
	if _, err := c.Create(ctx, obj, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err := c.Get(ctx, "a", metav1.GetOptions{}, "scale")
	if !apierrors.IsInternalError(err) || !strings.Contains(err.Error(), `the spec replicas field ".spec.replicas" does not exist`) {
		t.Errorf("get of the scale: %v, want a 500", err)
	}
	_, err = c.Patch(ctx, "a", types.MergePatchType, []byte(`{"status":{"replicas":1}}`), metav1.PatchOptions{}, "scale")
	if !apierrors.IsBadRequest(err) || !strings.Contains(err.Error(), `the spec replicas field ".spec.replicas" cannot be empty`) {
		t.Errorf("a patch leaving the replicas unset: %v, want a 400", err)
	}
	if _, err := c.Patch(ctx, "a", types.MergePatchType, []byte(`{"spec":{"replicas":3}}`), metav1.PatchOptions{}, "scale"); err != nil {
		t.Fatal(err)
	}
	got, err := c.Get(ctx, "a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if r, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas"); r != 3 {
		t.Errorf("replicas after the patch: %d, want 3", r)
	}
}
