package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// crontabCRD is the test CRD's text (with its PodSecurityPolicy).
func crontabCRD(t *testing.T) string { return readFile(t, filepath.Join(crds, "crontab.yaml")) }

// report decodes a JSON report.
type testReport struct {
	CRDs []struct {
		File, Name, Status, Source, Error, Message string
		Line, Document                             int
	}
	Objects []struct {
		File, Kind, Name, Status, Error, Operation string
		Line, Document, Item                       int
		Object                                     map[string]any
	}
	Summary map[string]int
}

func runJSON(t *testing.T, stdin string, args ...string) (int, *testReport, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(append([]string{"-o", "json"}, args...), strings.NewReader(stdin), &out, &errOut)
	var rep testReport
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("report is not JSON: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	return code, &rep, errOut.String()
}

// TestCRDsInTheStream: a rendered chart holds its CRD after the objects,
// built-in kinds, and a rejected CRD; no -crds.
func TestCRDsInTheStream(t *testing.T) {
	widget := readFile(t, filepath.Join(badCRDs, "widget.yaml"))
	stream := "# rendered\n---\n" + readFile(t, bad) + "\n---\n" +
		"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: three\n---\n" +
		"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n---\n" +
		readFile(t, good) + "\n---\n" + crontabCRD(t) + "\n---\n" + widget
	code, rep, _ := runJSON(t, stream, "-")
	if code != exitRejected {
		t.Errorf("exit status %d, want %d", code, exitRejected)
	}
	if len(rep.CRDs) != 2 {
		t.Fatalf("CRDs %+v", rep.CRDs)
	}
	if c := rep.CRDs[0]; c.Name != "crontabs.stable.example.com" || c.Status != "accepted" || c.Source != "manifests" || c.File != "<stdin>" {
		t.Errorf("CronTab CRD: %+v", c)
	}
	if c := rep.CRDs[1]; c.Name != "widgets.example.com" || c.Status != "rejected" || !strings.Contains(c.Message, typeRequired) {
		t.Errorf("Widget CRD: %+v", c)
	}
	type row struct{ kind, status string }
	var got []row
	for _, o := range rep.Objects {
		got = append(got, row{o.Kind, o.Status})
	}
	want := []row{{"CronTab", "rejected"}, {"Deployment", "rejected"}, {"Widget", "notChecked"},
		{"CronTab", "accepted"}, {"CronTab", "accepted"}, {"PodSecurityPolicy", "notChecked"}, {"PodSecurityPolicy", "notChecked"}}
	if len(got) != len(want) {
		t.Fatalf("objects %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("object %d: %v, want %v", i, got[i], want[i])
		}
	}
	if e := rep.Objects[1].Error; e != `Deployment in version "v1" cannot be handled as a Deployment: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32` {
		t.Errorf("Deployment: %q", e)
	}
	if e := rep.Objects[2].Error; !strings.Contains(e, "widgets.example.com") || !strings.Contains(e, "was rejected") {
		t.Errorf("Widget: %q", e)
	}
	if s := rep.Summary; s["notChecked"] != 3 || s["crdsRejected"] != 1 || s["objects"] != 7 {
		t.Errorf("summary %v", s)
	}
	// the same CRD with -crds and among the manifests is one CRD
	code, rep, _ = runJSON(t, crontabCRD(t)+"\n---\n"+readFile(t, good), "-crds", crds, "-")
	if code != exitOK || len(rep.CRDs) != 1 || rep.CRDs[0].Source != "crds" {
		t.Errorf("the same CRD twice: %d %+v", code, rep.CRDs)
	}
	// a different one: the -crds definition is used, the other rejected
	other := strings.Replace(crontabCRD(t), "self.foo == oldSelf.foo", "self.foo == oldSelf.foo || true", 1)
	code, rep, _ = runJSON(t, other+"\n---\n"+readFile(t, good), "-crds", crds, "-")
	if code != exitRejected || len(rep.CRDs) != 2 || rep.CRDs[1].Status != "rejected" || !strings.Contains(rep.CRDs[1].Error, "defined again") {
		t.Errorf("a different CRD of the same name: %d %+v", code, rep.CRDs)
	}
}

// TestBadInput: unreadable files, a stream that breaks halfway, objects
// without kind, a List with bad items: each with its location, the rest
// checked, exit status 2.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.yaml")
	writeFile(t, broken, readFile(t, good)+"\n---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: [x\n---\n"+
		"metadata:\n  name: nokind\n---\n"+
		"apiVersion: v1\nkind: List\nitems:\n- 7\n- apiVersion: stable.example.com/v1\n  kind: CronTab\n  metadata:\n    name: item\n  spec:\n    foo: 1\n")
	unreadable := filepath.Join(dir, "unreadable.yaml")
	writeFile(t, unreadable, "a: 1\n")
	if err := os.Chmod(unreadable, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadFile(unreadable); err == nil {
		t.Logf("running as root: the unreadable file is readable; using a missing file instead")
		unreadable = filepath.Join(dir, "missing.yaml")
	}
	code, rep, _ := runJSON(t, "", "-crds", crds, unreadable, broken, bad)
	if code != exitUsage {
		t.Errorf("exit status %d, want %d", code, exitUsage)
	}
	type row struct {
		where, status string
		errRe         string
	}
	want := []row{
		{unreadable + ":0", "error", `(permission denied|no such file)`},
		{broken + ":1", "accepted", ""},
		{broken + ":11", "accepted", ""},
		{broken + ":20", "notChecked", "not served by Kubernetes"},
		{broken + ":26", "error", `^cannot decode: yaml: line 29: did not find expected`}, // the line sigs.k8s.io/yaml's parser names
		{broken + ":31", "error", `kind not set`},
		{broken + ":37 items[0]", "error", `not an object`},
		{broken + ":38 items[1]", "rejected", ``},
		{bad + ":1", "rejected", ""},
	}
	if len(rep.Objects) != len(want) {
		t.Fatalf("%d objects, want %d: %+v", len(rep.Objects), len(want), rep.Objects)
	}
	for i, w := range want {
		o := rep.Objects[i]
		where := o.File + ":" + itoa(o.Line)
		if o.Item > 0 {
			where += " items[" + itoa(o.Item-1) + "]"
		}
		if where != w.where || o.Status != w.status || !regexp.MustCompile(w.errRe).MatchString(o.Error) {
			t.Errorf("object %d: %s %s %q, want %s %s %q", i, where, o.Status, o.Error, w.where, w.status, w.errRe)
		}
	}
	if rep.Summary["errors"] != 4 || rep.Summary["rejected"] != 2 {
		t.Errorf("summary %v", rep.Summary)
	}
	// the text output names the same places
	_, out, _ := runArgs(t, "-crds", crds, broken)
	if !strings.Contains(out, broken+":37 items[0]: document: error\nthe List item is not an object\n") {
		t.Errorf("text output:\n%s", out)
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"-version"}, {"version"}, {good, "-version"}} {
		code, out, _ := runArgs(t, args...)
		if code != exitOK || !strings.Contains(out, "crdschema ") || !strings.Contains(out, "Kubernetes API server v1.37.2") {
			t.Errorf("%v: %d %q", args, code, out)
		}
	}
}

func TestInterspersedFlags(t *testing.T) {
	code, rep, _ := runJSON(t, "", good, "-crds", crds, bad, "-j", "1")
	if code != exitRejected || len(rep.Objects) != 4 {
		t.Errorf("exit status %d, %d objects", code, len(rep.Objects))
	}
	// after "--" everything is a file
	code, _, errOut := runArgs(t, "-crds", crds, "--", "-v")
	if code != exitUsage || !strings.Contains(errOut+"", "") {
		t.Errorf("-- -v: exit status %d", code)
	}
}

func TestShowResult(t *testing.T) {
	_, rep, _ := runJSON(t, "", "-crds", crds, "-show-result", good)
	o := rep.Objects[1].Object
	spec, _ := o["spec"].(map[string]any)
	if o == nil || spec["someRandomField"] != nil || spec["foo"] != "a" {
		t.Errorf("resulting object %v: want it pruned", o)
	}
	if meta, _ := o["metadata"].(map[string]any); meta["uid"] == nil || meta["namespace"] != "prod" {
		t.Errorf("resulting object's metadata %v", meta)
	}
	_, rep, _ = runJSON(t, "", "-crds", crds, good)
	if rep.Objects[1].Object != nil {
		t.Errorf("object without -show-result")
	}
}

func TestJUnit(t *testing.T) {
	_, out, _ := runArgs(t, "-o", "junit", "-crds", crds, good, bad)
	var suites struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Skipped  int `xml:"skipped,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
				Skipped *struct{} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(out), &suites); err != nil {
		t.Fatalf("JUnit XML does not parse: %v\n%s", err, out)
	}
	if suites.Tests != 5 || suites.Failures != 1 || suites.Skipped != 1 || len(suites.Suites) != 3 {
		t.Errorf("tests %d, failures %d, skipped %d, suites %d:\n%s", suites.Tests, suites.Failures, suites.Skipped, len(suites.Suites), out)
	}
	last := suites.Suites[2]
	if last.Name != bad || last.Cases[0].Failure == nil || !strings.Contains(last.Cases[0].Failure.Text, fooNotString) ||
		last.Cases[0].Failure.Message != `The CronTab "bad" is invalid:` {
		t.Errorf("failure of %s: %+v", bad, last)
	}
}

func TestTAP(t *testing.T) {
	_, out, _ := runArgs(t, "-o", "tap", "-crds", crds, good, bad)
	lines := strings.Split(out, "\n")
	if lines[0] != "TAP version 13" || lines[1] != "1..5" {
		t.Fatalf("TAP header %q", lines[:2])
	}
	point := regexp.MustCompile(`^(ok|not ok) (\d+) - [^#]*( # SKIP .*)?$`)
	n, failed, skipped := 0, 0, 0
	for _, l := range lines[2:] {
		if strings.HasPrefix(l, "  ") || l == "" {
			continue
		}
		m := point.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("not a TAP line: %q", l)
		}
		n++
		if m[2] != itoa(n) {
			t.Errorf("test point %s, want %d", m[2], n)
		}
		if m[1] == "not ok" {
			failed++
		}
		if m[3] != "" {
			skipped++
		}
	}
	if n != 5 || failed != 1 || skipped != 1 || !strings.Contains(out, "  ---\n  status: rejected\n  message: |\n    The CronTab \"bad\" is invalid: \n") {
		t.Errorf("%d points, %d failed, %d skipped:\n%s", n, failed, skipped, out)
	}
}

func TestGitHubAnnotations(t *testing.T) {
	_, out, _ := runArgs(t, "-o", "github", "-crds", crds, good, bad)
	// the documented syntax: ::error file={name},line={line},col={col},title={title}::{message}
	cmd := regexp.MustCompile(`^::(error|warning|notice) ((file|line|col|title)=[^,:]*)(,(file|line|col|title)=[^,:]*)*::[^\n]*$`)
	var annotations []string
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.HasPrefix(l, "::") {
			if !cmd.MatchString(l) {
				t.Errorf("malformed workflow command %q", l)
			}
			annotations = append(annotations, l)
		}
	}
	// each error on its field's line and column; the first with kubectl's
	// whole message
	want := []string{
		"::warning file=" + good + ",line=11,title=crdcheck%3A warning::CronTab prod/unknown-field (stable.example.com/v1): unknown field \"spec.someRandomField\"",
		"::error file=" + bad + ",line=5,col=19,title=crdcheck%3A CronTab default/bad (stable.example.com/v1) rejected%3A spec.foo::The CronTab \"bad\" is invalid: %0A* " + fooNotString,
		"::error file=" + bad + ",line=5,col=34,title=crdcheck%3A CronTab default/bad (stable.example.com/v1) rejected%3A spec.replicas::" + replicasNotInt,
		"::error file=" + bad + ",line=1,col=1,title=crdcheck%3A CronTab default/bad (stable.example.com/v1) rejected::" + rulesNotChecked,
	}
	if len(annotations) != 4 || annotations[0] != want[0] || !strings.HasPrefix(annotations[1], want[1]) || annotations[2] != want[2] || annotations[3] != want[3] {
		t.Errorf("annotations\n%s\nwant\n%s", strings.Join(annotations, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(out, "\nobjects: 2 accepted, 1 rejected") {
		t.Errorf("no summary:\n%s", out)
	}
	if got := ghProperty("a:b,c%\n"); got != "a%3Ab%2Cc%25%0A" {
		t.Errorf("ghProperty: %q", got)
	}
}

// TestFailUncheckedWording: with -fail-unchecked, CI outputs fail objects
// not checked without calling them rejected.
func TestFailUncheckedWording(t *testing.T) {
	_, out, _ := runArgs(t, "-o", "github", "-fail-unchecked", "-crds", crds, good)
	want := "::error file=" + good + ",line=20,title=crdcheck%3A PodSecurityPolicy skipped (policy/v1beta1) not checked::PodSecurityPolicy (policy/v1beta1) is not served by Kubernetes 1.37"
	if !strings.Contains(out, want+"\n") {
		t.Errorf("github output lacks %q:\n%s", want, out)
	}
	_, out, _ = runArgs(t, "-o", "tap", "-fail-unchecked", "-crds", crds, good)
	if !strings.Contains(out, "not ok 4 - "+good+":20: PodSecurityPolicy skipped (policy/v1beta1)\n  ---\n  status: not checked\n") {
		t.Errorf("tap output:\n%s", out)
	}
	_, out, _ = runArgs(t, "-o", "junit", "-fail-unchecked", "-crds", crds, good)
	if !strings.Contains(out, `failures="1"`) || !strings.Contains(out, `type="notChecked"`) || strings.Contains(out, "rejected") {
		t.Errorf("junit output:\n%s", out)
	}
}

func TestStdinTwice(t *testing.T) {
	// -crds - and a manifest -: the standard input is read once and serves
	// both; its CRD, seen twice, is one CRD
	code, rep, _ := runJSON(t, crontabCRD(t)+"\n---\n"+readFile(t, good), "-crds", "-", "-")
	if code != exitOK || len(rep.CRDs) != 1 || rep.CRDs[0].Source != "crds" || rep.Summary["accepted"] != 2 {
		t.Errorf("exit status %d, CRDs %+v, summary %v", code, rep.CRDs, rep.Summary)
	}
}

func TestShowResultOnlyAccepted(t *testing.T) {
	_, rep, _ := runJSON(t, "", "-crds", crds, "-show-result", bad)
	if rep.Objects[0].Status != "rejected" || rep.Objects[0].Object != nil {
		t.Errorf("a rejected object carries a result: %+v", rep.Objects[0])
	}
}
