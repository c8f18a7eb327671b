package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/crdschema/crdschema"
)

const (
	crds    = "testdata/crds"
	badCRDs = "testdata/badcrds"
	objects = "testdata/objects"
	good    = "testdata/objects/good.yaml"
	bad     = "testdata/objects/bad.json"
	update  = "testdata/objects/update.yaml"
	live    = "testdata/old/live.yaml"
)

// Expected texts, as the API server words them (see the conformance
// cases validation/keywords-mixed, celrules/transition-immutability and
// structural cases).
const (
	fooNotString    = `spec.foo: Invalid value: "integer": spec.foo in body must be of type string: "integer"`
	replicasNotInt  = `spec.replicas: Invalid value: "string": spec.replicas in body must be of type integer: "string"`
	rulesNotChecked = `<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation`
	fooImmutable    = `spec: Invalid value: foo is immutable`
	typeRequired    = `spec.validation.openAPIV3Schema.properties[foo].type: Required value: must not be empty for specified object fields`
)

func runArgs(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestExitStatus(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"accepted", []string{"-crds", crds, good}, exitOK},
		{"CRDs only", []string{"-crds", crds}, exitOK},
		{"rejected object", []string{"-crds", crds, good, bad}, exitRejected},
		{"directory of manifests", []string{"-crds", crds, objects}, exitRejected},
		{"update rejected", []string{"-crds", crds, "-old", live, update}, exitRejected},
		{"create of the same object accepted", []string{"-crds", crds, update}, exitOK},
		{"an object not checked fails with -fail-unchecked", []string{"-crds", crds, "-fail-unchecked", good}, exitRejected},
		{"-strict-kinds is -fail-unchecked", []string{"-crds", crds, good, "-strict-kinds"}, exitRejected},
		{"rejected CRD", []string{"-crds", badCRDs}, exitRejected},
		{"nothing to check", []string{}, exitUsage},
		{"flags after the files", []string{good, "-crds", crds}, exitOK},
		{"flags after the files, rejected", []string{objects, "-crds", crds}, exitRejected},
		{"built-in kinds no release serves are not checked, and pass", []string{"-crds", crds, good}, exitOK},
		{"bad -o", []string{"-crds", crds, "-o", "yaml", good}, exitUsage},
		{"bad -j", []string{"-crds", crds, "-j", "0", good}, exitUsage},
		{"unknown flag", []string{"-crds", crds, "-nope", good}, exitUsage},
		{"missing manifest", []string{"-crds", crds, "testdata/nope.yaml"}, exitUsage},
		{"missing CRD directory", []string{"-crds", "testdata/nope"}, exitUsage},
		{"missing old file", []string{"-crds", crds, "-old", "testdata/nope.yaml", update}, exitUsage},
		{"help", []string{"-h"}, exitOK},
		{"version", []string{"-version"}, exitOK},
		{"version command", []string{"version"}, exitOK},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runArgs(t, tt.args...)
			if code != tt.want {
				t.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.want, out, errOut)
			}
			if tt.want == exitUsage && errOut == "" && !strings.Contains(out, "unreadable") {
				t.Errorf("no diagnostic on stderr")
			}
		})
	}
}

func TestUsage(t *testing.T) {
	_, _, errOut := runArgs(t, "-h")
	for _, want := range []string{"usage: crdcheck [check] [flags] FILE...", "-old FILE", "-o format", "-fail-unchecked", "Exit status", "upgrade ", "schema "} {
		if !strings.Contains(errOut, want) {
			t.Errorf("usage lacks %q:\n%s", want, errOut)
		}
	}
}

// jsonRun runs crdcheck with -o json and decodes its output.
func jsonRun(t *testing.T, args ...string) (int, map[string]any) {
	t.Helper()
	code, out, errOut := runArgs(t, append([]string{"-o", "json"}, args...)...)
	var v map[string]any
	d := json.NewDecoder(strings.NewReader(out))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatalf("output is not JSON: %v\n%s\nstderr: %s", err, out, errOut)
	}
	return code, v
}

func keys(m map[string]any) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	sort.Strings(k)
	return k
}

func TestJSONShape(t *testing.T) {
	code, v := jsonRun(t, "-crds", crds, good, bad)
	if code != exitRejected {
		t.Errorf("exit status %d, want %d", code, exitRejected)
	}
	if got, want := keys(v), []string{"crds", "objects", "summary"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("top-level keys %v, want %v", got, want)
	}

	crdList := v["crds"].([]any)
	if len(crdList) != 1 {
		t.Fatalf("%d CRDs, want 1 (the PodSecurityPolicy is not one)", len(crdList))
	}
	c := crdList[0].(map[string]any)
	wantCRD := map[string]any{
		"file": filepath.Join(crds, "crontab.yaml"), "document": json.Number("2"), "line": json.Number("8"), "source": "crds",
		"name": "crontabs.stable.example.com", "status": "accepted", "errors": []any{}, "unknownFields": []any{},
	}
	if !reflect.DeepEqual(c, wantCRD) {
		t.Errorf("crd entry\n got %v\nwant %v", c, wantCRD)
	}

	objs := v["objects"].([]any)
	if len(objs) != 4 {
		t.Fatalf("%d objects, want 4", len(objs))
	}
	objectKeys := []string{"apiVersion", "document", "errors", "file", "kind", "line", "name", "namespace", "operation", "status", "unknownFields", "warnings"}
	type row struct{ where, ns, name, op, status, errKey string }
	wantRows := []row{
		{good + ":1#1", "default", "good", "create", "accepted", ""},
		{good + ":11#2", "prod", "unknown-field", "create", "accepted", ""},
		{good + ":20#3", "", "skipped", "", "notChecked", "error"},
		{bad + ":1#1", "default", "bad", "create", "rejected", "message"},
	}
	for i, o := range objs {
		m := o.(map[string]any)
		w := wantRows[i]
		wantKeys := append([]string(nil), objectKeys...)
		if w.errKey != "" {
			wantKeys = append(wantKeys, w.errKey)
			sort.Strings(wantKeys)
		}
		if got := keys(m); !reflect.DeepEqual(got, wantKeys) {
			t.Errorf("object %d keys %v, want %v", i, got, wantKeys)
		}
		got := row{fmt.Sprintf("%s:%s#%s", m["file"], m["line"], m["document"]), m["namespace"].(string), m["name"].(string),
			m["operation"].(string), m["status"].(string), w.errKey}
		if got != w {
			t.Errorf("object %d: %+v, want %+v", i, got, w)
		}
	}
	if uf := objs[1].(map[string]any)["unknownFields"]; !reflect.DeepEqual(uf, []any{"spec.someRandomField"}) {
		t.Errorf("unknownFields %v, want [spec.someRandomField]", uf)
	}
	if e := objs[2].(map[string]any)["error"]; e != `PodSecurityPolicy (policy/v1beta1) is not served by Kubernetes 1.37` {
		t.Errorf("skipped object's error %q", e)
	}

	// the rejected object: every error with its type, field, detail and text
	badObj := objs[3].(map[string]any)
	var gotErrs []string
	for _, e := range badObj["errors"].([]any) {
		em := e.(map[string]any)
		if got, want := keys(em), []string{"column", "detail", "field", "line", "message", "type"}; !reflect.DeepEqual(got, want) {
			t.Errorf("error keys %v, want %v", got, want)
		}
		field := em["field"].(string)
		if field == "" {
			field = "<nil>" // the whole object: "" in JSON, "<nil>" in kubectl's text
		}
		if want := field + ": "; !strings.HasPrefix(em["message"].(string), want) {
			t.Errorf("message %q does not start with its field", em["message"])
		}
		gotErrs = append(gotErrs, fmt.Sprintf("%s|%s", em["type"], em["message"]))
	}
	sort.Strings(gotErrs)
	wantErrs := []string{
		"FieldValueInvalid|" + rulesNotChecked,
		"FieldValueTypeInvalid|" + fooNotString,
		"FieldValueTypeInvalid|" + replicasNotInt,
	}
	if !reflect.DeepEqual(gotErrs, wantErrs) {
		t.Errorf("errors\n got %q\nwant %q", gotErrs, wantErrs)
	}
	if msg := badObj["message"].(string); !strings.HasPrefix(msg, "The CronTab \"bad\" is invalid: \n* ") {
		t.Errorf("message %q", msg)
	}

	wantSummary := map[string]any{
		"crds": json.Number("1"), "crdsRejected": json.Number("0"), "objects": json.Number("4"),
		"accepted": json.Number("2"), "rejected": json.Number("1"), "notChecked": json.Number("1"), "errors": json.Number("0"), "warnings": json.Number("1"),
	}
	if !reflect.DeepEqual(v["summary"], wantSummary) {
		t.Errorf("summary %v, want %v", v["summary"], wantSummary)
	}
}

func TestStdin(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"-crds", crds, "-o", "json", "-"}, strings.NewReader(readFile(t, bad)), &out, &errOut)
	if code != exitRejected {
		t.Errorf("exit status %d, want %d: %s", code, exitRejected, errOut.String())
	}
	var rep struct {
		Objects []struct{ File, Name, Status string }
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Objects) != 1 || rep.Objects[0].File != "<stdin>" || rep.Objects[0].Name != "bad" || rep.Objects[0].Status != "rejected" {
		t.Errorf("objects from stdin: %+v", rep.Objects)
	}
}

func TestFailUnchecked(t *testing.T) {
	code, v := jsonRun(t, "-crds", crds, "-fail-unchecked", good)
	if code != exitRejected {
		t.Errorf("exit status %d, want %d", code, exitRejected)
	}
	o := v["objects"].([]any)[2].(map[string]any)
	// still not checked: the API server did not refuse it
	if o["status"] != "notChecked" || o["kind"] != "PodSecurityPolicy" {
		t.Errorf("PodSecurityPolicy: %v, want notChecked", o)
	}
	_, out, _ := runArgs(t, "-crds", crds, "-fail-unchecked", good)
	want := good + ":20: PodSecurityPolicy skipped (policy/v1beta1): not checked\nPodSecurityPolicy (policy/v1beta1) is not served by Kubernetes 1.37\n"
	if !strings.Contains(out, want) || strings.Contains(out, "no matches") || strings.Contains(out, "): rejected") {
		t.Errorf("text output lacks %q or words it as a refusal:\n%s", want, out)
	}
}

func TestTextOutput(t *testing.T) {
	_, out, _ := runArgs(t, "-crds", crds, good, bad)
	for _, want := range []string{
		bad + ":1: CronTab default/bad (stable.example.com/v1): rejected\n" +
			"The CronTab \"bad\" is invalid: \n",
		"* " + fooNotString + "\n",
		"* " + replicasNotInt + "\n",
		good + ":11: CronTab prod/unknown-field (stable.example.com/v1): accepted\n" +
			"Warning: unknown field \"spec.someRandomField\"\n\n" + // a blank line between objects
			bad + ":1: CronTab default/bad",
		"not checked, no accepted CRD of the input serves their apiVersion and kind: policy/v1beta1 PodSecurityPolicy (built-in): 1\n",
		"CRDs: 1 accepted, 0 rejected\n",
		"objects: 2 accepted, 1 rejected, 1 not checked, 0 unreadable; 1 warning(s)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, good+":1:") {
		t.Errorf("accepted object without warnings listed without -v:\n%s", out)
	}
	_, out, _ = runArgs(t, "-v", "-crds", crds, good)
	if !strings.Contains(out, good+":1: CronTab default/good (stable.example.com/v1): accepted\n") {
		t.Errorf("-v does not list accepted objects:\n%s", out)
	}
}

func TestStrictFieldValidation(t *testing.T) {
	code, v := jsonRun(t, "-crds", crds, "-strict", good)
	if code != exitRejected {
		t.Errorf("exit status %d, want %d", code, exitRejected)
	}
	o := v["objects"].([]any)[1].(map[string]any)
	// the API server's BadRequest for a strict decoding error
	wantErr := `CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.someRandomField"`
	if o["status"] != "rejected" || o["error"] != wantErr || len(o["errors"].([]any)) != 0 {
		t.Errorf("object with an unknown field under -strict: %v", o)
	}
	if want := `Error from server (BadRequest): error when creating "` + good + `": ` + wantErr; o["message"] != want {
		t.Errorf("message %q, want %q", o["message"], want)
	}
	_, out, _ := runArgs(t, "-crds", crds, "-strict", good)
	if !strings.Contains(out, good+":11: CronTab prod/unknown-field (stable.example.com/v1): rejected\nError from server (BadRequest): ") {
		t.Errorf("text output:\n%s", out)
	}
}

func TestUpdate(t *testing.T) {
	code, v := jsonRun(t, "-crds", crds, "-old", live, update, bad)
	if code != exitRejected {
		t.Errorf("exit status %d, want %d", code, exitRejected)
	}
	objs := v["objects"].([]any)
	upd := objs[0].(map[string]any)
	if upd["operation"] != "update" {
		t.Errorf("operation %v, want update (old object from a List)", upd["operation"])
	}
	errs := upd["errors"].([]any)
	if len(errs) != 1 || errs[0].(map[string]any)["message"] != fooImmutable {
		t.Errorf("errors %v, want %q", errs, fooImmutable)
	}
	if msg := upd["message"]; msg != `The CronTab "good" is invalid: `+fooImmutable {
		t.Errorf("message %q", msg)
	}
	// an object without an old one is created
	if op := objs[1].(map[string]any)["operation"]; op != "create" {
		t.Errorf("object without old object: operation %v, want create", op)
	}

	// an unchanged foo passes the transition rule
	dir := t.TempDir()
	same := filepath.Join(dir, "same.yaml")
	writeFile(t, same, strings.Replace(readFile(t, update), "foo: b", "foo: a", 1))
	if code, out, _ := runArgs(t, "-crds", crds, "-old", live, same); code != exitOK {
		t.Errorf("unchanged update: exit status %d\n%s", code, out)
	}
}

func TestUpdateRatchets(t *testing.T) {
	// An update that keeps a value the schema no longer allows is accepted;
	// the same object is refused on create (the conformance case
	// ratchet/crdcheck-example-unchanged-too-long).
	legacy := filepath.Join(t.TempDir(), "legacy.yaml")
	writeFile(t, legacy, "apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: legacy\nspec:\n  foo: a\n  bar: too-long\n  replicas: 2\n")
	code, v := jsonRun(t, "-crds", crds, "-old", live, legacy)
	if o := v["objects"].([]any)[0].(map[string]any); code != exitOK || o["operation"] != "update" || o["status"] != "accepted" {
		t.Errorf("ratcheted update: exit status %d, %v", code, o)
	}
	code, v = jsonRun(t, "-crds", crds, legacy)
	o := v["objects"].([]any)[0].(map[string]any)
	var got []string
	for _, e := range o["errors"].([]any) {
		got = append(got, e.(map[string]any)["message"].(string))
	}
	sort.Strings(got)
	want := []string{rulesNotChecked, "spec.bar: Too long: may not be more than 3 bytes"}
	if code != exitRejected || o["operation"] != "create" || !reflect.DeepEqual(got, want) {
		t.Errorf("create: exit status %d, %s, errors %q; want %q", code, o["operation"], got, want)
	}
}

func TestRefusedUpdate(t *testing.T) {
	// a stale resourceVersion: the store refuses the update before
	// validation, with the API server's Conflict message
	stale := filepath.Join(t.TempDir(), "stale.yaml")
	writeFile(t, stale, strings.Replace(readFile(t, update), "name: good", "name: good\n  resourceVersion: \"3\"", 1))
	code, v := jsonRun(t, "-crds", crds, "-old", live, stale)
	if code != exitRejected {
		t.Errorf("exit status %d, want %d", code, exitRejected)
	}
	o := v["objects"].([]any)[0].(map[string]any)
	want := `Operation cannot be fulfilled on crontabs.stable.example.com "good": the object has been modified; please apply your changes to the latest version and try again`
	if o["status"] != "rejected" || o["operation"] != "update" || o["error"] != want || len(o["errors"].([]any)) != 0 {
		t.Errorf("stale update: %v", o)
	}
	_, out, _ := runArgs(t, "-crds", crds, "-old", live, stale)
	if !strings.Contains(out, "): rejected\nError from server (Conflict): error when replacing \""+stale+"\": "+want+"\n") {
		t.Errorf("text output:\n%s", out)
	}
}

func TestRejectedCRD(t *testing.T) {
	dir := t.TempDir()
	widget := filepath.Join(dir, "widget.yaml")
	writeFile(t, widget, "apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n")
	code, v := jsonRun(t, "-crds", badCRDs, widget)
	if code != exitRejected {
		t.Errorf("exit status %d, want %d", code, exitRejected)
	}
	c := v["crds"].([]any)[0].(map[string]any)
	if c["status"] != "rejected" {
		t.Errorf("CRD status %v", c["status"])
	}
	if msg := c["message"]; msg != `The CustomResourceDefinition "widgets.example.com" is invalid: `+typeRequired {
		t.Errorf("CRD message %q", msg)
	}
	o := v["objects"].([]any)[0].(map[string]any)
	if o["status"] != "notChecked" || !strings.Contains(o["error"].(string), "widgets.example.com") {
		t.Errorf("object of a rejected CRD: %v", o)
	}
}

// TestDuplicateCRD: a CRD given twice identically is one CRD; a different
// definition of the same name is rejected (exit status 1), and the first is
// used.
func TestDuplicateCRD(t *testing.T) {
	dir := t.TempDir()
	data := readFile(t, filepath.Join(crds, "crontab.yaml"))
	writeFile(t, filepath.Join(dir, "a.yaml"), data)
	writeFile(t, filepath.Join(dir, "b.yaml"), data)
	code, v := jsonRun(t, "-crds", dir, good)
	if code != exitOK {
		t.Errorf("the same CRD twice: exit status %d, want %d", code, exitOK)
	}
	if list := v["crds"].([]any); len(list) != 1 || list[0].(map[string]any)["status"] != "accepted" {
		t.Errorf("the same CRD twice: %v", list)
	}

	changed := strings.Replace(data, "self.foo == oldSelf.foo", "self.foo == oldSelf.foo || true", 1)
	if changed == data {
		t.Fatal("the test CRD changed: no rule to alter")
	}
	writeFile(t, filepath.Join(dir, "b.yaml"), changed)
	code, v = jsonRun(t, "-crds", dir, good)
	if code != exitRejected {
		t.Errorf("a different CRD of the same name: exit status %d, want %d", code, exitRejected)
	}
	list := v["crds"].([]any)
	if s := list[0].(map[string]any)["status"]; s != "accepted" {
		t.Errorf("first definition: %v", s)
	}
	second := list[1].(map[string]any)
	if second["status"] != "rejected" || !strings.Contains(second["error"].(string), "defined again, differently") {
		t.Errorf("second definition: %v", second)
	}
	// the first one is used
	if s := v["summary"].(map[string]any)["accepted"]; s != json.Number("2") {
		t.Errorf("accepted %v, want 2", s)
	}
}

func TestUndecodableDocument(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "broken.yaml")
	writeFile(t, f, "apiVersion: [\n")
	code, v := jsonRun(t, "-crds", crds, f)
	if code != exitUsage {
		t.Errorf("exit status %d, want %d", code, exitUsage)
	}
	o := v["objects"].([]any)[0].(map[string]any)
	if o["status"] != "error" || !strings.HasPrefix(o["error"].(string), "cannot decode: ") {
		t.Errorf("broken document: %v", o)
	}
}

// manyObjects writes n CronTabs into one file.
func manyObjects(t *testing.T, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c%d\nspec:\n  foo: x%d\n", i, i)
	}
	f := filepath.Join(t.TempDir(), "many.yaml")
	writeFile(t, f, b.String())
	return f
}

func TestProgress(t *testing.T) {
	many := manyObjects(t, 300)
	code, _, errOut := runArgs(t, "-crds", crds, many)
	if code != exitOK {
		t.Errorf("exit status %d", code)
	}
	if errOut != "" {
		t.Errorf("progress written to a stderr that is not a terminal, without -progress: %q", errOut)
	}
	code, out, errOut := runArgs(t, "-progress", "-crds", crds, many)
	if code != exitOK {
		t.Errorf("exit status %d", code)
	}
	if want := "checked 300 objects in "; !strings.Contains(errOut, want) {
		t.Errorf("-progress: stderr %q lacks %q", errOut, want)
	}
	if strings.Contains(out, "objects in ") || strings.Contains(errOut, "\r") {
		t.Errorf("progress on stdout, or terminal control on a pipe")
	}
}

func TestProgressLines(t *testing.T) {
	for _, terminal := range []bool{true, false} {
		var b bytes.Buffer
		p := &progress{w: &b, terminal: terminal, start: time.Now()}
		p.add(1500)
		p.print(false)
		p.add(1500)
		p.print(true)
		got := b.String()
		lines := []string{"checked 1500 objects (", "checked 3000 objects in "}
		if terminal {
			// one line, rewritten in place
			if !strings.HasPrefix(got, "\r\033[K"+lines[0]) || !strings.Contains(got, "\r\033[K"+lines[1]) ||
				strings.Count(got, "\n") != 1 || !strings.HasSuffix(got, " objects/s)\n") {
				t.Errorf("terminal progress %q", got)
			}
			continue
		}
		if strings.Contains(got, "\r") || strings.Count(got, "\n") != 2 ||
			!strings.HasPrefix(got, lines[0]) || !strings.Contains(got, ")\n"+lines[1]) {
			t.Errorf("plain progress %q", got)
		}
	}
	// a terminal run shorter than progressDelay shows nothing
	var b bytes.Buffer
	p := &progress{w: &b, terminal: true, start: time.Now(), stop: make(chan struct{})}
	p.stopped.Add(1)
	go p.loop(time.Millisecond)
	p.add(10)
	p.finish()
	if b.Len() != 0 && time.Since(p.start) < progressDelay {
		t.Errorf("progress of a short run: %q", b.String())
	}
	var nilProgress *progress // disabled
	nilProgress.add(1)
	nilProgress.finish()
}

func TestParallelOutputIsDeterministic(t *testing.T) {
	many := manyObjects(t, 300)
	_, one, _ := runArgs(t, "-o", "json", "-j", "1", "-crds", crds, many, good, bad)
	_, four, _ := runArgs(t, "-o", "json", "-j", "4", "-crds", crds, many, good, bad)
	if one != four {
		t.Errorf("-j 1 and -j 4 give different reports")
	}
}

func TestInvalidMessage(t *testing.T) {
	p := crdschema.NewPath("spec", "x")
	e1 := crdschema.Invalid(p, "a", "bad")
	e2 := crdschema.Required(crdschema.NewPath("spec", "y"), "")
	tests := []struct {
		errs crdschema.ErrorList
		want string
	}{
		{crdschema.ErrorList{e1}, "The Foo \"n\" is invalid: spec.x: Invalid value: \"a\": bad\n"},
		{crdschema.ErrorList{e1, e2}, "The Foo \"n\" is invalid: \n* spec.x: Invalid value: \"a\": bad\n* spec.y: Required value\n"},
		// kubectl shows a repeated cause once
		{crdschema.ErrorList{e1, e1}, "The Foo \"n\" is invalid: spec.x: Invalid value: \"a\": bad\n"},
	}
	for _, tt := range tests {
		if got := invalidMessage("Foo", "n", tt.errs); got != tt.want {
			t.Errorf("invalidMessage(%v)\n got %q\nwant %q", tt.errs, got, tt.want)
		}
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkCheck(b *testing.B) {
	dir := b.TempDir()
	var s strings.Builder
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&s, "---\napiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c%d\nspec:\n  foo: x%d\n  replicas: %d\n", i, i, i)
	}
	f := filepath.Join(dir, "many.yaml")
	if err := os.WriteFile(f, []byte(s.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var out, errOut bytes.Buffer
		if code := run([]string{"-crds", crds, f}, nil, &out, &errOut); code != exitOK {
			b.Fatalf("exit status %d: %s%s", code, out.String(), errOut.String())
		}
	}
	b.ReportMetric(float64(1000*b.N)/b.Elapsed().Seconds(), "objects/s")
}

// FuzzCheck feeds arbitrary manifest files through the whole command
// (decoding, CRDs found in the stream, checking, every output format):
// nothing may panic, the JSON report parses, every document gets a known
// status, and the exit status agrees with the summary.
func FuzzCheck(f *testing.F) {
	for _, name := range []string{good, bad, update, live, filepath.Join(crds, "crontab.yaml"), filepath.Join(badCRDs, "widget.yaml")} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [1, {kind: CronTab}]\n"))
	f.Add([]byte(`{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"x","resourceVersion":"a"},"spec":null}`))
	f.Add([]byte("a: 1\n---\nb: [\n--- # c\nkind: X\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file := filepath.Join(t.TempDir(), "m.yaml")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var text string
		for _, format := range []string{"text", "json", "junit", "tap", "github"} {
			var out, errOut bytes.Buffer
			code := run([]string{"-crds", crds, "-old", live, "-o", format, "-"}, bytes.NewReader(data), &out, &errOut)
			if code != exitOK && code != exitRejected && code != exitUsage {
				t.Fatalf("exit status %d", code)
			}
			// the same documents streamed from a file (where the outputs
			// name the input as is)
			var fromFile bytes.Buffer
			if c := run([]string{"-crds", crds, "-old", live, "-o", format, file}, nil, &fromFile, io.Discard); c != code ||
				(format == "text" || format == "json") && strings.ReplaceAll(out.String(), stdinLabel, file) != fromFile.String() {
				t.Fatalf("-o %s: from the standard input (exit status %d)\n%s\nfrom a file (exit status %d)\n%s", format, code, out.String(), c, fromFile.String())
			}
			if format == "text" {
				text = out.String()
			}
			if format != "json" {
				continue
			}
			var rep struct {
				Objects []struct{ Status, Error string }
				Summary map[string]int
			}
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatalf("report: %v\n%s", err, out.String())
			}
			for _, o := range rep.Objects {
				switch o.Status {
				case statusAccepted, statusRejected, statusUnchecked, statusError:
				default:
					t.Fatalf("status %q", o.Status)
				}
				if o.Status == statusError && o.Error == "" {
					t.Fatalf("an error without its reason")
				}
			}
			if (rep.Summary["errors"] > 0) != (code == exitUsage) {
				t.Fatalf("exit status %d with summary %v", code, rep.Summary)
			}
			// the text output counts what it does not list
			s := rep.Summary
			counts := fmt.Sprintf("objects: %d accepted, %d rejected, %d not checked, %d unreadable; %d warning(s)\n",
				s["accepted"], s["rejected"], s["notChecked"], s["errors"], s["warnings"])
			if !strings.HasSuffix(text, counts) {
				t.Fatalf("text output\n%s\nJSON summary %v", text, s)
			}
		}
	})
}

// TestUnreadableCRDFile: a -crds document that is not YAML is an input
// error (exit status 2, reported with its location), not a rejected CRD
// without a name.
func TestUnreadableCRDFile(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "bad.yaml"), "apiVersion: v1\nkind: [\n  x: : :\n")
	code, v := jsonRun(t, "-crds", dir, good)
	if code != exitUsage {
		t.Errorf("exit status %d, want %d", code, exitUsage)
	}
	if list := v["crds"].([]any); len(list) != 0 {
		t.Errorf("an unreadable document listed as a CRD: %v", list)
	}
	if n := v["summary"].(map[string]any)["errors"]; n != json.Number("1") {
		t.Errorf("summary errors %v, want 1", n)
	}
}

// TestRootErrorField: an error about the whole object has the field "" in
// the JSON output, and its message kubectl's "<nil>: ...".
func TestRootErrorField(t *testing.T) {
	got := fieldErrors(crdschema.ErrorList{crdschema.Invalid(nil, nil, "bar must not be x")})
	if len(got) != 1 || got[0].Field != "" || !strings.HasPrefix(got[0].Message, "<nil>: Invalid value") {
		t.Errorf("%+v", got)
	}
}

// TestJUnitWarnings: warnings (unknown fields) appear in the JUnit output,
// in the test case's system-out.
func TestJUnitWarnings(t *testing.T) {
	_, out, _ := runArgs(t, "-o", "junit", "-crds", crds, good)
	if !strings.Contains(out, "<system-out>Warning: ") {
		t.Errorf("junit output without warnings:\n%s", out)
	}
}

// TestKubebuilderLayout: -crds on kubebuilder's config/crd reads the CRDs
// of bases/ and leaves out the kustomize patches of patches/ (CRD
// documents without group or kind), which are no second definition.
func TestKubebuilderLayout(t *testing.T) {
	code, v := jsonRun(t, "-crds", "../../fakeclient/testdata/kubebuilder/config/crd", good)
	list := v["crds"].([]any)
	if code != exitOK || len(list) != 1 || list[0].(map[string]any)["status"] != "accepted" {
		t.Errorf("exit status %d, CRDs %v", code, list)
	}
}
