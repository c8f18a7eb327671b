package testserver

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// kubectl runs the kubectl binary of the machine against srv.
type kubectl struct {
	t          *testing.T
	bin        string
	kubeconfig string
}

func newKubectl(t *testing.T, srv *Server) *kubectl {
	t.Helper()
	bin, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skipf("kubectl is not installed (%v): the kubectl checks need a kubectl binary on PATH", err)
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
}
