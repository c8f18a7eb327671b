package fakeclient_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/fakeclient"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// kubebuilderCRDs is a kubebuilder project's config/crd: the CRD in
// bases/, kustomization.yaml and kustomizeconfig.yaml beside it, and the
// kustomize patches of CRDs older kubebuilder releases scaffold in patches/.
const kubebuilderCRDs = "testdata/kubebuilder/config/crd"

// TestCRDFilesKubebuilderLayout gives WithCRDFiles a kubebuilder project's
// config/crd, as users lay it out: the CRD of bases/ is found, the other
// files are skipped, and the CRD validates what the client stores.
func TestCRDFilesKubebuilderLayout(t *testing.T) {
	c, err := fakeclient.NewClientBuilder().WithScheme(runtime.NewScheme()).WithCRDFiles(kubebuilderCRDs).Build()
	if err != nil {
		t.Fatal(err)
	}
	bad := obj("stable.example.com/v1", "CronTab", "default", "a", map[string]any{"image": "x", "replicas": int64(15)})
	err = c.Create(ctx, bad)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.replicas: Invalid value: 15") {
		t.Fatalf("an invalid CronTab: got %v, want the API server's refusal", err)
	}
	good := obj("stable.example.com/v1", "CronTab", "default", "b", map[string]any{"image": "x"})
	if err := c.Create(ctx, good); err != nil {
		t.Fatal(err)
	}
	if got := nested(good, "spec", "replicas"); got != int64(1) {
		t.Errorf("replicas defaulted to %v, want 1", got)
	}
}

// TestCRDFilesSubfolders finds CRDs folders down, in lexical order of
// their paths, whatever the folder names.
func TestCRDFilesSubfolders(t *testing.T) {
	dir := t.TempDir()
	copyFile(t, "testdata/widgets.yaml", filepath.Join(dir, "a", "b", "c", "widgets.yml"))
	copyFile(t, "testdata/crontab.yaml", filepath.Join(dir, "z", "crontab.JSON.yaml"))
	writeFile(t, filepath.Join(dir, "a", "notes.txt"), "not read")
	writeFile(t, filepath.Join(dir, "a", "values.yaml"), "replicas: 3\n")
	c, err := fakeclient.NewClientBuilder().WithScheme(runtime.NewScheme()).WithCRDFiles(dir).Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []*unstructured.Unstructured{
		widget("w", map[string]any{"replicas": int64(100)}),
		obj("stable.example.com/v1", "CronTab", "default", "ct", map[string]any{"image": "x", "replicas": int64(15)}),
	} {
		if err := c.Create(ctx, u); !apierrors.IsInvalid(err) {
			t.Errorf("an invalid %s: got %v, want Invalid", u.GetKind(), err)
		}
	}
}

// TestCRDFilesWithoutCRD refuses paths in which no CRD is found: a client
// built without the CRDs would validate nothing.
func TestCRDFilesWithoutCRD(t *testing.T) {
	empty := t.TempDir()
	noCRD := t.TempDir()
	writeFile(t, filepath.Join(noCRD, "kustomization.yaml"), "resources:\n- bases/x.yaml\n")
	writeFile(t, filepath.Join(noCRD, "sub", "deployment.yaml"), "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: x\n")
	for _, tc := range []struct {
		paths []string
		want  string
	}{
		{[]string{empty}, "no CustomResourceDefinition found: no .yaml, .yml or .json file"},
		{[]string{noCRD}, "no CustomResourceDefinition found in 2 files"},
		{[]string{filepath.Join(noCRD, "kustomization.yaml")}, "no CustomResourceDefinition found in 1 file"},
		{[]string{filepath.Join(kubebuilderCRDs, "patches")}, "no CustomResourceDefinition found in 2 files (2 kustomize patches of CRDs skipped)"},
		{[]string{"testdata/crontab.yaml", empty}, "no CustomResourceDefinition found"},
	} {
		_, err := fakeclient.NewClientBuilder().WithCRDFiles(tc.paths...).Build()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.paths[len(tc.paths)-1]) {
			t.Errorf("WithCRDFiles(%q): got %v, want an error naming the path: %s", tc.paths, err, tc.want)
		}
	}
	// A patch named as a file is a CRD the API server would refuse.
	_, err := fakeclient.NewClientBuilder().WithCRDFiles(filepath.Join(kubebuilderCRDs, "patches", "webhook_in_crontabs.yaml")).Build()
	var ce *fakeclient.CRDError
	if !errors.As(err, &ce) || !strings.HasSuffix(ce.Source, "webhook_in_crontabs.yaml") {
		t.Errorf("a patch named as a file: got %v, want a *CRDError", err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, to, string(data))
}

func writeFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
