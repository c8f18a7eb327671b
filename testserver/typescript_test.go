package testserver

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// clientNodeVersion is the version of @kubernetes/client-node the test
// installs from the npm registry.
const clientNodeVersion = "1.4.0"

// TestTypeScriptClient runs testdata/typescript/client.mjs with the
// TypeScript client of Kubernetes against the server. The client is
// installed once from the npm registry into the user's cache directory.
func TestTypeScriptClient(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the TypeScript client test installs @kubernetes/client-node from the npm registry")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skipf("node is not installed (%v): the TypeScript client test needs node and npm", err)
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("npm is not installed (%v): the TypeScript client test needs node and npm", err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "crdschema-testserver", "client-node-"+clientNodeVersion)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@kubernetes", "client-node", "package.json")); err != nil {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"private": true}`), 0o644); err != nil {
			t.Fatal(err)
		}
		install := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "@kubernetes/client-node@"+clientNodeVersion)
		install.Dir = dir
		if out, err := install.CombinedOutput(); err != nil {
			t.Skipf("npm could not install @kubernetes/client-node@%s (is the npm registry reachable?): %v\n%s", clientNodeVersion, err, out)
		}
	}
	script, err := os.ReadFile("testdata/typescript/client.mjs")
	if err != nil {
		t.Fatal(err)
	}
	// The script must sit beside node_modules for its import to resolve.
	if err := os.WriteFile(filepath.Join(dir, "client.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	srv, _ := startCronTab(t)
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	if err := srv.WriteKubeconfig(kc); err != nil {
		t.Fatal(err)
	}
	run := exec.CommandContext(ctx, node, "client.mjs")
	run.Dir = dir
	run.Env = append(os.Environ(), "KUBECONFIG="+kc)
	out, err := run.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node client.mjs: %v\n%s\n%s", err, out, stderr)
	}
	var got struct {
		CreatedCronSpec string   `json:"createdCronSpec"`
		Listed          []string `json:"listed"`
		Events          []string `json:"events"`
		WatchError      string   `json:"watchError"`
		Invalid         struct {
			Code    int    `json:"code"`
			Reason  string `json:"reason"`
			Message string `json:"message"`
		} `json:"invalid"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("output %s: %v", out, err)
	}
	if got.CreatedCronSpec != "5 0 * * *" {
		t.Errorf("created object not defaulted: cronSpec %q", got.CreatedCronSpec)
	}
	if !reflect.DeepEqual(got.Listed, []string{"from-node"}) {
		t.Errorf("listed %v", got.Listed)
	}
	if !reflect.DeepEqual(got.Events, []string{"ADDED second", "DELETED second"}) || got.WatchError != "" {
		t.Errorf("watch events %v, error %q", got.Events, got.WatchError)
	}
	want := `CronTab.stable.example.com "bad" is invalid: spec.replicas: Invalid value: 50: spec.replicas in body should be less than or equal to 10`
	if got.Invalid.Code != 422 || got.Invalid.Reason != "Invalid" || got.Invalid.Message != want {
		t.Errorf("invalid object: %+v", got.Invalid)
	}
}
