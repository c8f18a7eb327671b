package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/builtin"
)

const builtinStream = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: nginx, imagePullPolicy: Always, extra: 1}]}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: Bad_Name}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
---
apiVersion: policy/v1beta1
kind: PodDisruptionBudget
metadata: {name: old}
`

// TestBuiltinKinds: objects of built-in kinds are checked against the
// release's kinds; only kinds no release serves are not checked.
func TestBuiltinKinds(t *testing.T) {
	type obj struct {
		Kind, Status, Error string
		CheckedBy           []string
		UnknownFields       []string
		Errors              []struct{ Field, Detail string }
	}
	var rep struct {
		Objects []obj
	}
	for _, tc := range []struct {
		args     []string
		statuses string
	}{
		{nil, "Deployment accepted, ConfigMap rejected, DeviceClass accepted, PodDisruptionBudget notChecked"},
		{[]string{"-strict"}, "Deployment rejected, ConfigMap rejected, DeviceClass accepted, PodDisruptionBudget notChecked"},
		// resource.k8s.io/v1 is served from 1.34 on.
		{[]string{"-kubernetes-version", "1.33"}, "Deployment accepted, ConfigMap rejected, DeviceClass notChecked, PodDisruptionBudget notChecked"},
	} {
		var out, errOut bytes.Buffer
		run(append([]string{"-o", "json", "-"}, tc.args...), strings.NewReader(builtinStream), &out, &errOut)
		rep.Objects = nil
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("%v: %v\n%s%s", tc.args, err, out.String(), errOut.String())
		}
		var got []string
		for _, o := range rep.Objects {
			got = append(got, o.Kind+" "+o.Status)
		}
		if s := strings.Join(got, ", "); s != tc.statuses {
			t.Errorf("%v: %s, want %s", tc.args, s, tc.statuses)
		}
		d := rep.Objects[0]
		if strings.Join(d.CheckedBy, ",") != "decode,schema,declarative,metadata" || strings.Join(d.UnknownFields, ",") != "spec.template.spec.containers[0].extra" {
			t.Errorf("%v: Deployment %+v", tc.args, d)
		}
		if len(tc.args) > 0 && tc.args[0] == "-strict" && !strings.Contains(d.Error, `strict decoding error: unknown field "spec.template.spec.containers[0].extra"`) {
			t.Errorf("strict: %q", d.Error)
		}
		if c := rep.Objects[1]; len(c.Errors) != 1 || c.Errors[0].Field != "metadata.name" {
			t.Errorf("%v: ConfigMap %+v", tc.args, c)
		}
	}

	// The text report says what is not reproduced.
	var out bytes.Buffer
	run([]string{"-v", "-"}, strings.NewReader(builtinStream), &out, &bytes.Buffer{})
	for _, want := range []string{
		"3 object(s) of built-in kinds checked against Kubernetes 1.37: ",
		"hand-written validation (k8s.io/kubernetes/pkg/apis/<group>/validation), defaulting and admission are not reproduced",
		"PodDisruptionBudget old (policy/v1beta1): not checked",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("text output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestSchemaBuiltin: crdcheck schema -builtin writes a JSON Schema per
// built-in kind of the release.
func TestSchemaBuiltin(t *testing.T) {
	dir := t.TempDir()
	var out, errOut bytes.Buffer
	if code := run([]string{"schema", "-builtin", "-kubernetes-version", "1.34", "-d", dir}, strings.NewReader(""), &out, &errOut); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	files := strings.Fields(out.String())
	if len(files) < 80 {
		t.Errorf("%d schemas", len(files))
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(readFile(t, dir+"/deployment-apps-v1.json")), &s); err != nil {
		t.Fatal(err)
	}
	if s["title"] != "Deployment apps/v1" {
		t.Errorf("title %v", s["title"])
	}
	spec := s["properties"].(map[string]any)["spec"].(map[string]any)["properties"].(map[string]any)
	if _, ok := spec["template"]; !ok {
		t.Errorf("spec without template: %v", spec)
	}
	// the Events of the core group and of events.k8s.io have files of
	// their own
	for _, f := range []string{"event-v1-v1.json", "event-events.k8s.io-v1.json"} {
		if !strings.Contains(out.String(), "/"+f+"\n") {
			t.Errorf("no %s written", f)
		}
	}
}

// FuzzBuiltinStream: any stream of built-in objects is checked without a
// panic, with a defined exit status.
func FuzzBuiltinStream(f *testing.F) {
	f.Add(builtinStream)
	f.Add("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {a: '!!'}\n---\napiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: Service, spec: {ports: [{port: 1.5}]}}]")
	f.Add("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleList\nitems: [{metadata: {name: r}}, 5, null]\n---\nkind: ConfigMapList\nitems: null\n---\napiVersion: v1\nkind: Foo\nitems: x")
	f.Fuzz(func(t *testing.T, in string) {
		var out bytes.Buffer
		code := run([]string{"-o", "json", "-j", "1", "-"}, strings.NewReader(in), &out, &bytes.Buffer{})
		if code != exitOK && code != exitRejected && code != exitUsage {
			t.Fatalf("exit status %d", code)
		}
	})
}

// TestTypedLists: a typed list (RoleList, ConfigMapList) is flattened into
// its items as kubectl does, items without apiVersion and kind taking the
// list's; a list with null items holds none.
func TestTypedLists(t *testing.T) {
	const stream = `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleList
items:
- metadata: {name: r1, namespace: ns}
  rules: [{apiGroups: [""], resources: [pods], verbs: [get]}]
- metadata: {name: "bad/name", namespace: ns}
---
apiVersion: v1
kind: ConfigMapList
items: null
---
apiVersion: v1
kind: ConfigMapList
items:
- {apiVersion: v1, kind: Secret, metadata: {name: s}}
`
	var out, errOut bytes.Buffer
	run([]string{"-o", "json", "-"}, strings.NewReader(stream), &out, &errOut)
	var rep struct {
		Objects []struct {
			Kind, Status, Name string
			Item               int
		}
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
	}
	var got []string
	for _, o := range rep.Objects {
		got = append(got, fmt.Sprintf("%s %s %d %s", o.Kind, o.Name, o.Item, o.Status))
	}
	if s, want := strings.Join(got, ", "), "Role r1 1 accepted, Role bad/name 2 rejected, Secret s 1 accepted"; s != want {
		t.Errorf("got  %s\nwant %s", s, want)
	}
}

// TestBuiltinGroupsCoverReleases: every API group whose kinds package
// builtin serves, at every release crdcheck checks, is in builtinGroups.
func TestBuiltinGroupsCoverReleases(t *testing.T) {
	for minor := 33; minor <= 37; minor++ {
		v, err := crdschema.ParseKubernetesVersion(fmt.Sprintf("1.%d", minor))
		if err != nil {
			t.Fatal(err)
		}
		api, err := builtin.New(builtin.WithKubernetesVersion(v))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range api.Kinds() {
			if !builtinGroups[k.Group] {
				t.Errorf("1.%d serves %s, whose group %q is not in builtinGroups", minor, k.APIVersion(), k.Group)
			}
		}
	}
}
