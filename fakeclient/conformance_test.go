package fakeclient_test

// The conformance cases of the library (../conformance/testdata/cases), run
// through the client: each request with a golden is sent as a client write,
// and the client must accept or refuse it as the API server did, with
// exactly the golden's errors as the causes of its Invalid error.

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/fakeclient"
	"github.com/crdschema/crdschema/manifest"

	"github.com/crdschema/crdschema/internal/casefile"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
)

const casesDir = "../conformance/testdata/cases"

func TestConformanceThroughClient(t *testing.T) {
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
				reason := runThroughClient(t, c, r, want, i)
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

func resourceOptions() []crd.Option {
	return []crd.Option{
		crd.WithClock(func() time.Time { return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) }),
		crd.WithUID(func() string { return "00000000-0000-0000-0000-000000000001" }),
		crd.WithNameSuffix(func() string { return "xxxxx" }),
	}
}

// runThroughClient runs one request; it returns why it cannot be compared,
// or "".
func runThroughClient(t *testing.T, c *casefile.Case, r casefile.Request, want map[string]any, i int) string {
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
		if _, ok := want["requestError"]; !ok {
			t.Errorf("request %d: a body without apiVersion or kind was not refused upstream", i)
		}
		return "no apiVersion or kind: the client cannot send it"
	}
	if obj.GetKind() != def.Spec.Names.Kind || obj.GroupVersionKind().Group != def.Spec.Group {
		cl, err := fakeclient.NewClientBuilder().WithScheme(runtime.NewScheme()).WithCRDDefinitions(def).Build()
		if err == nil {
			if err := cl.Create(context.Background(), obj); err == nil {
				t.Errorf("request %d: a kind the CRD does not serve was accepted", i)
			}
		}
		return "a kind the CRD does not serve: the client refuses it before sending"
	}
	if c.Version != "" && obj.GroupVersionKind().Version != c.Version {
		return "the body names another version than the case's: the client serves every version"
	}
	b := fakeclient.NewClientBuilder().WithScheme(runtime.NewScheme()).
		WithCRDDefinitions(def).WithResourceOptions(resourceOptions()...).
		WithWarningHandler(rest.NoWarnings{})
	if r.Operation != "create" {
		oldBody, err := manifest.UnmarshalObject(r.OldObject)
		if err != nil {
			return "the old object is not a JSON object"
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
			return "the CRD is accepted only as an update of oldCRD"
		}
		if asCRDError(err, &ce) {
			t.Errorf("request %d: the CRD is refused by the client but accepted upstream: %v", i, err)
			return ""
		}
		return "the initial object cannot be stored: " + err.Error()
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
	if _, refused := want["requestError"]; refused {
		if err == nil {
			t.Errorf("request %d: accepted, but upstream refused it: %v", i, want["requestError"])
		} else if _, ok := err.(*apierrors.StatusError); !ok && !meta.IsNoMatchError(err) {
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

func asCRDError(err error, target **fakeclient.CRDError) bool {
	ce, ok := err.(*fakeclient.CRDError)
	if ok {
		*target = ce
	}
	return ok
}

var selfType = regexp.MustCompile(`selfType[0-9]+`)

// normalizeType writes the CEL type name upstream derives from the clock
// as the goldens do.
func normalizeType(s string) string {
	return selfType.ReplaceAllString(s, "selfType<N>")
}
