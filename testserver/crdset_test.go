package testserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestStartReusesCRDFiles starts servers from the same files more than once
// in a process: a CRD the API server refuses fails every start with the
// same error (a refusal is not remembered as a pass), at every release, and
// servers from the same files share no objects.
func TestStartReusesCRDFiles(t *testing.T) {
	data, err := os.ReadFile("testdata/crontab.yaml")
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	// A scope the API server refuses.
	if err := os.WriteFile(bad, []byte(strings.Replace(string(data), "scope: Namespaced", "scope: Nowhere", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	var first string
	for i := 0; i < 2; i++ {
		_, err := Start(WithCRDFiles(bad))
		if err == nil {
			t.Fatalf("start %d: no error for an invalid scope", i)
		}
		if i == 0 {
			first = err.Error()
			if !strings.Contains(first, "spec.scope") {
				t.Errorf("start %d: %v, want an error about spec.scope", i, err)
			}
		} else if err.Error() != first {
			t.Errorf("start %d: %v, want the first start's error %s", i, err, first)
		}
	}

	ctx := context.Background()
	_, dc1 := startCronTab(t)
	_, dc2 := startCronTab(t)
	if _, err := dc1.Resource(crontabs).Namespace("default").Create(ctx, cronTab("only-in-one", map[string]any{}), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := dc2.Resource(crontabs).Namespace("default").Get(ctx, "only-in-one", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("second server: %v, want NotFound", err)
	}
	// The stored CRDs are each server's own.
	crds := dc1.Resource(crdGR.WithVersion("v1"))
	c, err := crds.Get(ctx, "crontabs.stable.example.com", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c.SetLabels(map[string]string{"changed": "yes"})
	if _, err := crds.Update(ctx, c, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	c2, err := dc2.Resource(crdGR.WithVersion("v1")).Get(ctx, "crontabs.stable.example.com", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c2.GetLabels()["changed"] != "" {
		t.Errorf("an update of the CRD in one server shows in another: %v", c2.GetLabels())
	}
}
