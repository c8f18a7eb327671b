package testserver

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// kubectl runs a kubectl binary against srv: the machine's, or one built
// from k8s.io/kubectl when none is installed or TESTSERVER_KUBECTL=build.
type kubectl struct {
	t          *testing.T
	bin        string
	kubeconfig string
}

// kubectlModule is the k8s.io/kubectl release a missing kubectl is built
// from: the client-go release of this module's go.mod.
const kubectlModule = "k8s.io/kubectl@v0.37.2"

// kubectlMain is the main package of the kubectl command, as
// kubernetes/cmd/kubectl has it.
const kubectlMain = `package main

import (
	"k8s.io/component-base/cli"
	"k8s.io/kubectl/pkg/cmd"
	"k8s.io/kubectl/pkg/cmd/util"
)

func main() {
	command := cmd.NewDefaultKubectlCommand()
	if err := cli.RunNoErrOutput(command); err != nil {
		util.CheckErr(err)
	}
}
`

var builtKubectl struct {
	once sync.Once
	bin  string
	err  error
}

// buildKubectl builds kubectl from k8s.io/kubectl in a temporary module,
// once per test process, with the go command running the tests and its
// module proxy. The binary goes to the user's cache directory, replacing
// the one an earlier run built, so that runs leave one binary behind.
func buildKubectl(t *testing.T) string {
	builtKubectl.once.Do(func() { builtKubectl.bin, builtKubectl.err = buildKubectlOnce() })
	if builtKubectl.err != nil {
		t.Fatalf("building kubectl from %s: %v", kubectlModule, builtKubectl.err)
	}
	return builtKubectl.bin
}

func buildKubectlOnce() (string, error) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("no go command to build kubectl with: %w", err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	cache = filepath.Join(cache, "crdschema-testserver")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp(cache, "build-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	files := map[string]string{"go.mod": "module kubectlbuild\n\ngo 1.25\n", "main.go": kubectlMain}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			return "", err
		}
	}
	start := time.Now()
	for _, args := range [][]string{{"get", kubectlModule}, {"mod", "tidy"}, {"build", "-o", "kubectl", "."}} {
		c := exec.Command(goBin, args...)
		c.Dir = dir
		c.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
		if out, err := c.CombinedOutput(); err != nil {
			return "", fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	bin := filepath.Join(cache, "kubectl-"+strings.TrimPrefix(kubectlModule, "k8s.io/kubectl@"))
	if err := os.Rename(filepath.Join(dir, "kubectl"), bin); err != nil {
		return "", err
	}
	fmt.Printf("built kubectl from %s in %s: %s\n", kubectlModule, time.Since(start).Round(time.Second), bin)
	return bin, nil
}

func newKubectl(t *testing.T, srv *Server) *kubectl {
	t.Helper()
	bin, err := exec.LookPath("kubectl")
	switch {
	case os.Getenv("TESTSERVER_KUBECTL") == "build":
		t.Logf("TESTSERVER_KUBECTL=build: building kubectl from %s", kubectlModule)
		bin = buildKubectl(t)
	case err != nil:
		t.Logf("kubectl is not installed (%v): building it from %s", err, kubectlModule)
		bin = buildKubectl(t)
	default:
		t.Logf("kubectl: %s", bin)
	}
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	if err := srv.WriteKubeconfig(kc); err != nil {
		t.Fatal(err)
	}
	return &kubectl{t: t, bin: bin, kubeconfig: kc}
}

func (k *kubectl) cmd(ctx context.Context, stdin string, args ...string) *exec.Cmd {
	c := exec.CommandContext(ctx, k.bin, append([]string{"--kubeconfig", k.kubeconfig}, args...)...)
	c.Env = append(os.Environ(), "KUBECACHEDIR="+filepath.Join(filepath.Dir(k.kubeconfig), "cache"))
	if stdin != "" {
		c.Stdin = strings.NewReader(stdin)
	}
	return c
}

// run runs kubectl and returns its combined output; wantErr says whether it
// must fail.
func (k *kubectl) run(stdin string, wantErr bool, args ...string) string {
	k.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := k.cmd(ctx, stdin, args...).CombinedOutput()
	if (err != nil) != wantErr {
		k.t.Fatalf("kubectl %s: error %v, want error %v; output:\n%s", strings.Join(args, " "), err, wantErr, out)
	}
	return string(out)
}

const cronTabYAML = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: my-cron
spec:
  cronSpec: "* * * * */5"
  image: my-image
`

func wantContains(t *testing.T, what, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s: output does not contain %q:\n%s", what, w, got)
		}
	}
}

func TestKubectl(t *testing.T) {
	srv, _ := startCronTab(t)
	k := newKubectl(t, srv)

	wantContains(t, "apply", k.run(cronTabYAML, false, "apply", "-f", "-"), "crontab.stable.example.com/my-cron created")
	wantContains(t, "get", k.run("", false, "get", "crontabs"), "NAME", "SPEC", "REPLICAS", "AGE", "my-cron", "* * * * */5", "1")
	wantContains(t, "get crd", k.run("", false, "get", "crd"), "crontabs.stable.example.com")
	wantContains(t, "explain", k.run("", false, "explain", "crontab.spec.replicas"), "FIELD: replicas <integer>")
	wantContains(t, "dry run", k.run(strings.Replace(cronTabYAML, "my-image", "other", 1), false, "apply", "--dry-run=server", "-f", "-"),
		"crontab.stable.example.com/my-cron configured (server dry run)")
	wantContains(t, "after the dry run", k.run("", false, "get", "crontab", "my-cron", "-o", "jsonpath={.spec.image}"), "my-image")
	wantContains(t, "strict", k.run(strings.Replace(cronTabYAML, "image:", "imagee:", 1), true, "apply", "--validate=strict", "-f", "-"),
		`strict decoding error: unknown field "spec.imagee"`)
	wantContains(t, "invalid patch", k.run("", true, "patch", "crontab", "my-cron", "--type=merge", "-p", `{"spec":{"replicas":50}}`),
		`The CronTab "my-cron" is invalid: spec.replicas: Invalid value: 50: spec.replicas in body should be less than or equal to 10`)
	wantContains(t, "patch", k.run("", false, "patch", "crontab", "my-cron", "--type=json", "-p", `[{"op":"replace","path":"/spec/replicas","value":3}]`),
		"crontab.stable.example.com/my-cron patched")
	wantContains(t, "server-side apply", k.run(cronTabYAML, false, "apply", "--server-side", "--force-conflicts", "-f", "-"),
		"crontab.stable.example.com/my-cron serverside-applied")

	// get -w prints the objects, then the changes.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	w := k.cmd(ctx, "", "get", "crontabs", "-w", "--output-watch-events")
	stdout, err := w.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = w.Process.Kill(); _ = w.Wait() }()
	lines := bufio.NewScanner(stdout)
	expect := func(want string) {
		t.Helper()
		for lines.Scan() {
			if strings.Contains(lines.Text(), want) {
				return
			}
		}
		t.Fatalf("kubectl get -w ended before a line with %q", want)
	}
	expect("my-cron")
	k.run(strings.Replace(cronTabYAML, "my-cron", "second", 1), false, "apply", "-f", "-")
	expect("second")
	wantContains(t, "delete", k.run("", false, "delete", "crontab", "second"), `crontab.stable.example.com "second" deleted`)
	expect("DELETED")

	// Paged lists (kubectl pages by 500 by default) and the scale
	// subresource (kubectl scale patches it).
	for _, name := range []string{"third", "fourth"} {
		k.run(strings.Replace(cronTabYAML, "my-cron", name, 1), false, "apply", "-f", "-")
	}
	got := k.run("", false, "get", "crontabs", "--chunk-size=1", "-o", "name")
	if want := "crontab.stable.example.com/fourth\ncrontab.stable.example.com/my-cron\ncrontab.stable.example.com/third\n"; got != want {
		t.Errorf("get --chunk-size=1:\n%s\nwant\n%s", got, want)
	}
	wantContains(t, "scale", k.run("", false, "scale", "crontab", "third", "--replicas=4"), "crontab.stable.example.com/third scaled")
	wantContains(t, "after scale", k.run("", false, "get", "crontab", "third", "-o", "jsonpath={.spec.replicas}"), "4")
	wantContains(t, "patch --subresource=scale", k.run("", false, "patch", "crontab", "third", "--subresource=scale", "--type=merge", "-p", `{"spec":{"replicas":2}}`),
		"scale.autoscaling/third patched")
	// The Scale as a table, with the API server's scale columns.
	got = k.run("", false, "get", "crontab", "third", "--subresource=scale")
	if f := strings.Fields(got); len(f) < 7 || strings.Join(f[:6], " ") != "NAME DESIRED AVAILABLE AGE third 2" {
		t.Errorf("get --subresource=scale:\n%s", got)
	}
	// kubectl applies the CronTab itself to the scale subresource, which the
	// scale's field manager refuses, as kube-apiserver's does: it manages
	// Scales.
	wantContains(t, "apply --subresource=scale", k.run(strings.Replace(cronTabYAML, "my-cron", "third", 1), true, "apply", "--server-side", "--subresource=scale", "-f", "-"),
		"Error from server (BadRequest): invalid object type: stable.example.com/v1, Kind=CronTab")
}
