package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

const gatewayAPI = "../../upgrade/testdata/gateway-api"

func TestUpgradeCommand(t *testing.T) {
	stored := "testdata/upgrade/stored.yaml"
	from, to := filepath.Join(gatewayAPI, "v1.1.0"), filepath.Join(gatewayAPI, "v1.2.0")
	code, out, errOut := runArgs(t, "upgrade", stored, "-from", from, "-to", to)
	if code != exitOK {
		t.Errorf("exit status %d, want %d\n%s", code, exitOK, errOut)
	}
	for _, want := range []string{
		"CustomResourceDefinition gateways.gateway.networking.k8s.io (" + from + "/gateways.yaml:1 -> " + to + "/gateways.yaml:1): update accepted\n",
		"  schema change: v1 spec.listeners[*].protocol: pattern ",
		stored + ":10 items[1]: Gateway default/passthrough (gateway.networking.k8s.io/v1): ratcheted\n" +
			"  invalid: spec.listeners: Invalid value: tls mode must be Terminate for protocol HTTPS\n" +
			"  (updates that leave these fields alone still pass)\n\n",
		stored + ":16 items[2]: GatewayClass example (gateway.networking.k8s.io/v1): changed on read\n" +
			"  on read: status.conditions[0].reason: \"Waiting\" becomes \"Pending\"\n",
		"objects: 1 valid, 1 ratcheted, 0 blocked, 1 changed on read, 0 unreadable, 1 not checked; 0 input error(s)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}

	// JSON, and objects from stdin
	var o, e bytes.Buffer
	code = run([]string{"upgrade", "-o", "json", "-from", from, "-to", to, "-"}, strings.NewReader(readFile(t, stored)), &o, &e)
	var rep struct {
		CRDs    []struct{ Name, Status string }
		Objects []struct {
			Where, Status string
			Changes       []struct{ Kind, Path string }
		}
		Summary map[string]int
	}
	if err := json.Unmarshal(o.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s", err, o.String())
	}
	if code != exitOK || len(rep.Objects) != 4 || rep.Objects[2].Status != "changedOnRead" ||
		rep.Objects[2].Changes[0].Kind != "modified" || rep.Objects[0].Where != "<stdin>:4 items[0]" || rep.Summary["valid"] != 1 {
		t.Errorf("exit status %d, report %+v", code, rep)
	}

	// usage and input errors
	if code, _, _ := runArgs(t, "upgrade", "-from", from); code != exitUsage {
		t.Errorf("without -to: exit status %d", code)
	}
	if code, out, _ := runArgs(t, "upgrade", "-from", from, "-to", to, "testdata/nope.yaml"); code != exitUsage || !strings.Contains(out, "testdata/nope.yaml: error") {
		t.Errorf("missing file: exit status %d\n%s", code, out)
	}
	// a missing -from or -to is an input error at once, with no report
	for _, args := range [][]string{{"-from", "testdata/nope", "-to", to}, {"-from", from, "-to", "testdata/nope"}} {
		code, out, errOut := runArgs(t, append([]string{"upgrade", stored}, args...)...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "testdata/nope") {
			t.Errorf("%v: exit status %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
}

func TestUpgradeBlocked(t *testing.T) {
	dir := t.TempDir()
	crd := readFile(t, filepath.Join(crds, "crontab.yaml"))
	writeFile(t, filepath.Join(dir, "old.yaml"), crd)
	// the new CRD adds a rule at the root, which upstream never ratchets
	tightened := strings.Replace(crd, "        type: object\n", "        type: object\n        x-kubernetes-validations:\n        - rule: \"!has(self.spec.bar) || self.spec.bar != 'x'\"\n          message: bar must not be x\n", 1)
	if tightened == crd {
		t.Fatal("the CRD's root schema was not found")
	}
	writeFile(t, filepath.Join(dir, "new.yaml"), tightened)
	code, out, _ := runArgs(t, "upgrade", "-from", filepath.Join(dir, "old.yaml"), "-to", filepath.Join(dir, "new.yaml"), live)
	if code != exitRejected || !strings.Contains(out, "CronTab default/good (stable.example.com/v1): blocked\n") ||
		!strings.Contains(out, "  a metadata-only update fails: <nil>: Invalid value: bar must not be x\n") {
		t.Errorf("exit status %d\n%s", code, out)
	}
}

func TestUpgradePrunes(t *testing.T) {
	dir := t.TempDir()
	crd := readFile(t, filepath.Join(crds, "crontab.yaml"))
	writeFile(t, filepath.Join(dir, "old.yaml"), crd)
	// the new CRD drops bar: stored values are lost on read
	dropped := strings.Replace(crd, "              bar:\n                type: string\n                maxLength: 3\n", "", 1)
	if dropped == crd {
		t.Fatal("bar was not found in the CRD")
	}
	writeFile(t, filepath.Join(dir, "new.yaml"), dropped)
	code, out, _ := runArgs(t, "upgrade", "-from", filepath.Join(dir, "old.yaml"), "-to", filepath.Join(dir, "new.yaml"), live)
	for _, want := range []string{
		"  schema change: v1 spec.bar: property removed: stored values are pruned\n",
		live + ":5 items[0]: CronTab default/good (stable.example.com/v1): changed on read\n  on read: spec.bar: pruned (was \"x\")\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code != exitRejected {
		t.Errorf("exit status %d, want %d", code, exitRejected)
	}
	// without objects, the schema changes alone
	code, out, _ = runArgs(t, "upgrade", "-from", filepath.Join(dir, "old.yaml"), "-to", filepath.Join(dir, "new.yaml"))
	if code != exitOK || !strings.Contains(out, "spec.bar: property removed") {
		t.Errorf("without objects: exit status %d\n%s", code, out)
	}
}

// TestUpgradeCIOutputs: upgrade writes JUnit, TAP and GitHub output like
// the check command: a blocked object is a failure (with its file and
// line), a hazard or ratcheted object a warning.
func TestUpgradeCIOutputs(t *testing.T) {
	dir := t.TempDir()
	crd := readFile(t, filepath.Join(crds, "crontab.yaml"))
	writeFile(t, filepath.Join(dir, "old.yaml"), crd)
	tightened := strings.Replace(crd, "        type: object\n", "        type: object\n        x-kubernetes-validations:\n        - rule: \"!has(self.spec.bar) || self.spec.bar != 'x'\"\n          message: bar must not be x\n", 1)
	writeFile(t, filepath.Join(dir, "new.yaml"), tightened)
	args := []string{"upgrade", "-from", filepath.Join(dir, "old.yaml"), "-to", filepath.Join(dir, "new.yaml"), live}

	code, out, _ := runArgs(t, append(args, "-o", "junit")...)
	if code != exitRejected || !strings.Contains(out, `failures="1"`) || !strings.Contains(out, `<failure message="blocked" type="blocked">`) ||
		!strings.Contains(out, `file="`+live+`" line="5"`) {
		t.Errorf("junit: exit status %d\n%s", code, out)
	}
	code, out, _ = runArgs(t, append(args, "-o", "github")...)
	if code != exitRejected || !strings.Contains(out, "::error file="+live+",line=5,title=crdcheck%3A CronTab default/good (stable.example.com/v1) blocked::blocked%0A") ||
		!strings.Contains(out, "::warning file="+live+",line=17,title=crdcheck upgrade%3A warning::CronTab default/legacy (stable.example.com/v1): ratcheted\n") ||
		!strings.Contains(out, "objects: 0 valid, 1 ratcheted, 1 blocked") {
		t.Errorf("github: exit status %d\n%s", code, out)
	}
	code, out, _ = runArgs(t, append(args, "-o", "tap")...)
	if code != exitRejected || !strings.Contains(out, "not ok 2 - "+live+":5 items[0]: CronTab default/good (stable.example.com/v1)\n") {
		t.Errorf("tap: exit status %d\n%s", code, out)
	}
}

// TestUpgradeRelease checks that -kubernetes-version reaches the verdicts:
// before 1.35 the API server shows a failed rule's value as its type name.
func TestUpgradeRelease(t *testing.T) {
	stored := "testdata/upgrade/stored.yaml"
	from, to := filepath.Join(gatewayAPI, "v1.1.0"), filepath.Join(gatewayAPI, "v1.2.0")
	for _, c := range []struct{ release, want string }{
		{"1.34", `spec.listeners: Invalid value: "array": tls mode must be Terminate for protocol HTTPS`},
		{"1.37", `spec.listeners: Invalid value: tls mode must be Terminate for protocol HTTPS`},
	} {
		code, out, errOut := runArgs(t, "upgrade", stored, "-from", from, "-to", to, "-kubernetes-version", c.release)
		if code != exitOK || !strings.Contains(out, c.want) {
			t.Errorf("-kubernetes-version %s: exit status %d, output lacks %q:\n%s%s", c.release, code, c.want, out, errOut)
		}
	}
	code, _, errOut := runArgs(t, "upgrade", "-kubernetes-version", "1.99", "-from", from, "-to", to)
	if code != exitUsage || !strings.Contains(errOut, "crdcheck upgrade: -kubernetes-version: unsupported Kubernetes version \"1.99\"") {
		t.Errorf("-kubernetes-version 1.99: exit status %d, want %d with the error:\n%s", code, exitUsage, errOut)
	}
}
