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
	"encoding/json"
	"fmt"
	"github.com/crdschema/crdschema/manifest"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/casefile"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
	var files []string
	err := filepath.WalkDir(casesDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".yaml") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance cases under %s: %v", casesDir, err)
	}
	var requests, skipped int
	skips := map[string]int{}
	for _, f := range files {
		golden := strings.TrimSuffix(f, ".yaml") + ".golden.json"
		if _, err := os.Stat(golden); err != nil {
			continue
		}
		c, err := casefile.Read(f, golden)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		greqs, _ := c.Golden["requests"].([]any)
		if len(c.Requests) == 0 || len(greqs) != len(c.Requests) {
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(f, casesDir+"/"), ".yaml")
		t.Run(name, func(t *testing.T) {
			for i, r := range c.Requests {
				want, _ := greqs[i].(map[string]any)
				reason := runOverHTTP(t, c, r, want, i)
				if reason != "" {
					skipped++
					skips[reason]++
					continue
				}
				requests++
			}
		})
	}
	t.Logf("%d requests compared, %d not comparable", requests, skipped)
	for r, n := range skips {
		t.Logf("  %d: %s", n, r)
	}
	if requests < 100 {
		t.Errorf("only %d requests compared", requests)
	}
}

// runOverHTTP runs one request; it returns why it cannot be compared, or "".
func runOverHTTP(t *testing.T, c *casefile.Case, r casefile.Request, want map[string]any, i int) string {
	def, _, err := manifest.UnmarshalCRD(c.CRD)
	if err != nil {
		return "the CRD does not decode"
	}
	body, err := manifest.UnmarshalObject(r.Object)
	if err != nil {
		return "the body is not a JSON object"
	}
	if again, err := json.Marshal(body); err != nil {
		return "the body does not encode"
	} else if back, err := manifest.UnmarshalObject(again); err != nil || !reflect.DeepEqual(back, body) {
		return "number literals a Go client cannot send (they change when encoded from Go values)"
	}
	obj := &unstructured.Unstructured{Object: body}
	if obj.GetKind() == "" || obj.GetAPIVersion() == "" {
		return "no apiVersion or kind: the dynamic client cannot send it"
	}
	if obj.GetKind() != def.Spec.Names.Kind || obj.GroupVersionKind().Group != def.Spec.Group {
		return "a kind the CRD does not serve: no URL to send it to"
	}
	if c.Version != "" && obj.GroupVersionKind().Version != c.Version {
		return "the body names another version than the case's"
	}
	namespaced := def.Spec.Scope == "Namespaced"
	opts := []Option{WithCRDs(def)}
	var old *unstructured.Unstructured
	if r.Operation != "create" {
		oldBody, err := manifest.UnmarshalObject(r.OldObject)
		if err != nil {
			return "the old object is not a JSON object"
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
			return "the old object has no name"
		}
		if obj.GetUID() != "" && obj.GetUID() != old.GetUID() {
			return "another uid than the stored object's: the registry answers 409 (a failed precondition) before validation, as kube-apiserver's does"
		}
		opts = append(opts, WithObjects(old.Object))
	}
	if md, ok := body["metadata"].(map[string]any); ok && md["managedFields"] != nil {
		return "managedFields in the body: the field manager of the HTTP path rewrites them before validation, as kube-apiserver's does"
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
			return "the CRD is accepted only as an update of oldCRD"
		}
		if strings.Contains(err.Error(), "is invalid") {
			t.Errorf("request %d: the CRD is refused by the server but accepted upstream: %v", i, err)
			return ""
		}
		return "the initial object cannot be stored: " + err.Error()
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
			return "the stored object cannot be read: " + gerr.Error()
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
			return "the body has no name: no URL to send it to"
		}
		if r.Subresource == "status" {
			_, err = rc.UpdateStatus(ctx, obj, metav1.UpdateOptions{})
		} else {
			_, err = rc.Update(ctx, obj, metav1.UpdateOptions{})
		}
	}
	if _, refused := want["requestError"]; refused {
		if err == nil {
			t.Errorf("request %d: accepted, but upstream refused it: %v", i, want["requestError"])
		} else if _, ok := err.(*apierrors.StatusError); !ok {
			t.Errorf("request %d: refused with %T, not a status error: %v", i, err, err)
		}
		return ""
	}
	wantErrs, _ := want["errors"].([]any)
	if len(wantErrs) == 0 {
		if err != nil {
			t.Errorf("request %d: refused, but upstream accepted it: %v", i, err)
		}
		return ""
	}
	se, ok := err.(*apierrors.StatusError)
	if !ok || !apierrors.IsInvalid(err) {
		t.Errorf("request %d: got %v, want an Invalid error with %d causes", i, err, len(wantErrs))
		return ""
	}
	var got, exp []string
	for _, cs := range se.ErrStatus.Details.Causes {
		msg := cs.Message
		if cs.Field != "" {
			msg = cs.Field + ": " + cs.Message
		}
		got = append(got, fmt.Sprintf("%s|%s|%s", cs.Type, cs.Field, msg))
	}
	for _, w := range wantErrs {
		m, _ := w.(map[string]any)
		exp = append(exp, fmt.Sprintf("%s|%s|%s", m["type"], m["field"], normalizeType(fmt.Sprint(m["message"]))))
	}
	for j := range got {
		got[j] = normalizeType(got[j])
	}
	sort.Strings(got)
	sort.Strings(exp)
	if strings.Join(got, "\n") != strings.Join(exp, "\n") {
		t.Errorf("request %d: causes differ\nonly got: %s\nonly wanted: %s", i, strings.Join(minus(got, exp), "\n      "), strings.Join(minus(exp, got), "\n      "))
	}
	if !strings.Contains(err.Error(), " is invalid: ") {
		t.Errorf("request %d: message %q is not the API server's", i, err.Error())
	}
	return ""
}

// minus returns the elements of a not in b, as multisets.
func minus(a, b []string) []string {
	n := map[string]int{}
	for _, s := range b {
		n[s]++
	}
	var out []string
	for _, s := range a {
		if n[s] > 0 {
			n[s]--
			continue
		}
		out = append(out, s)
	}
	return out
}

var selfType = regexp.MustCompile(`selfType[0-9]+`)

// normalizeType writes the CEL type name upstream derives from the clock
// as the goldens do.
func normalizeType(s string) string {
	return selfType.ReplaceAllString(s, "selfType<N>")
}
