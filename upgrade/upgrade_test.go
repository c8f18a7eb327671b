package upgrade

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/manifest"
)

// crontab is a CRD with versions v1alpha1 (not served) and v1 (storage),
// a status subresource, and schema fragments that the tests replace.
const crontab = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: crontabs, singular: crontab, kind: CronTab, listKind: CronTabList}
  versions:
  - name: v1alpha1
    served: VALPHA
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
  - name: v1
    served: true
    storage: true
    subresources: {status: {}}
    schema:
      openAPIV3Schema:
        type: object
ROOT
        properties:
          spec:
            type: object
            properties:
              image:
                type: string
IMAGE
SPEC
          status:
            type: object
            properties:
              phase: {type: string}
`

// crontabCRD builds the CRD with the fragments replaced.
func crontabCRD(t *testing.T, alpha bool, root, image, spec string) *crdschema.CustomResourceDefinition {
	t.Helper()
	s := strings.NewReplacer("VALPHA", map[bool]string{true: "true", false: "false"}[alpha],
		"ROOT\n", root, "IMAGE\n", image, "SPEC\n", spec).Replace(crontab)
	def, _, err := manifest.UnmarshalCRD([]byte(s))
	if err != nil {
		t.Fatalf("%v\n%s", err, s)
	}
	return def
}

func cronTab(name, image string, extra map[string]any) map[string]any {
	spec := map[string]any{"image": image}
	for k, v := range extra {
		spec[k] = v
	}
	return map[string]any{
		"apiVersion": "stable.example.com/v1", "kind": "CronTab",
		"metadata": map[string]any{"name": name, "namespace": "default", "resourceVersion": "5",
			"uid": "u-" + name, "creationTimestamp": "2024-01-01T00:00:00Z", "generation": int64(1)},
		"spec":   spec,
		"status": map[string]any{"phase": "Running"},
	}
}

func check(t *testing.T, def, old *crdschema.CustomResourceDefinition, objs ...map[string]any) *Report {
	t.Helper()
	r, err := Check(context.Background(), def, old, objs)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestVerdicts(t *testing.T) {
	old := crontabCRD(t, false, "", "", "              legacy: {type: string}\n")
	tests := []struct {
		name      string
		def       *crdschema.CustomResourceDefinition
		obj       map[string]any
		want      Verdict
		errors    []string // texts of Errors
		blocking  []string // "update: text" of Blocking
		changes   []string
		wantError bool
	}{{
		name: "valid",
		def:  crontabCRD(t, false, "", "                maxLength: 10\n", "              legacy: {type: string}\n"),
		obj:  cronTab("short", "nginx", nil),
		want: Valid,
	}, {
		name:   "ratcheted: a new maxLength",
		def:    crontabCRD(t, false, "", "                maxLength: 10\n", "              legacy: {type: string}\n"),
		obj:    cronTab("long", "registry.example.com/nginx", nil),
		want:   Ratcheted,
		errors: []string{"spec.image: Too long: may not be more than 10 bytes"},
	}, {
		// upstream does not ratchet rules at the root, even on a no-op update
		// (checked with the oracle)
		name: "blocked: a rule at the root",
		def: crontabCRD(t, false, "        x-kubernetes-validations:\n        - rule: self.spec.image.size() <= 10\n          message: image too long\n",
			"", "              legacy: {type: string}\n"),
		obj:    cronTab("root", "registry.example.com/nginx", nil),
		want:   Blocked,
		errors: []string{"<nil>: Invalid value: image too long"},
		blocking: []string{"no-op update: <nil>: Invalid value: image too long",
			"metadata-only update: <nil>: Invalid value: image too long",
			"status update: <nil>: Invalid value: image too long"},
	}, {
		// a manifest rather than kubectl get output: no namespace, no
		// resourceVersion; read as stored in "default", not blocked by a
		// namespace change
		name:   "ratcheted: no namespace, no resourceVersion",
		def:    crontabCRD(t, false, "", "                maxLength: 10\n", "              legacy: {type: string}\n"),
		obj:    withoutMeta(cronTab("long", "registry.example.com/nginx", nil), "namespace", "resourceVersion"),
		want:   Ratcheted,
		errors: []string{"spec.image: Too long: may not be more than 10 bytes"},
	}, {
		name:    "changed on read: a property removed is pruned",
		def:     crontabCRD(t, false, "", "", ""),
		obj:     cronTab("legacy", "nginx", map[string]any{"legacy": "x"}),
		want:    ChangedOnRead,
		changes: []string{`spec.legacy: pruned (was "x")`},
	}, {
		name:    "changed on read: a new default",
		def:     crontabCRD(t, false, "", "", "              legacy: {type: string}\n              replicas: {type: integer, default: 1}\n"),
		obj:     cronTab("defaults", "nginx", nil),
		want:    ChangedOnRead,
		changes: []string{"spec.replicas: defaulted to 1"},
	}, {
		name:      "not an object of the CRD",
		def:       crontabCRD(t, false, "", "", ""),
		obj:       map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "x"}},
		want:      Unreadable,
		wantError: true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Check(context.Background(), tt.def, old, []map[string]any{tt.obj})
			if (err != nil) != tt.wantError {
				t.Fatalf("error %v", err)
			}
			if len(r.Errors) != 0 {
				t.Errorf("the update is refused: %v", r.Errors)
			}
			o := r.Objects[0]
			if o.Verdict != tt.want {
				t.Errorf("verdict %s, want %s (%+v)", o.Verdict, tt.want, o)
			}
			if got := texts(o.Errors); strings.Join(got, "\n") != strings.Join(tt.errors, "\n") {
				t.Errorf("errors\n%q\nwant\n%q", got, tt.errors)
			}
			var blocking, changes []string
			for _, b := range o.Blocking {
				blocking = append(blocking, b.Update+": "+b.Error.Error())
			}
			for _, c := range o.Changes {
				changes = append(changes, c.String())
			}
			if strings.Join(blocking, "\n") != strings.Join(tt.blocking, "\n") {
				t.Errorf("blocking\n%q\nwant\n%q", blocking, tt.blocking)
			}
			if strings.Join(changes, "\n") != strings.Join(tt.changes, "\n") {
				t.Errorf("changes\n%q\nwant\n%q", changes, tt.changes)
			}
		})
	}
}

// withoutMeta returns obj without the metadata fields keys.
func withoutMeta(obj map[string]any, keys ...string) map[string]any {
	meta := obj["metadata"].(map[string]any)
	for _, k := range keys {
		delete(meta, k)
	}
	return obj
}

func texts(errs crdschema.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func TestStoredVersionHazards(t *testing.T) {
	old := crontabCRD(t, true, "", "", "")
	old.Status.StoredVersions = []string{"v1alpha1", "v1"}
	def := crontabCRD(t, true, "", "", "")
	def.Spec.Versions = def.Spec.Versions[1:] // v1alpha1 removed
	obj := cronTab("alpha", "nginx", nil)
	obj["apiVersion"] = "stable.example.com/v1alpha1"
	r := check(t, def, old, obj)
	if len(r.Errors) == 0 || !strings.Contains(strings.Join(texts(r.Errors), "\n"), "status.storedVersions") {
		t.Errorf("the API server refuses removing a stored version; errors: %v", r.Errors)
	}
	if len(r.Hazards) != 1 || r.Hazards[0].Version != "v1alpha1" || !strings.Contains(r.Hazards[0].Message, "can no longer be read") {
		t.Errorf("hazards %+v", r.Hazards)
	}
	if o := r.Objects[0]; o.Verdict != Unreadable || !strings.Contains(o.Problem, "no longer in the CRD") {
		t.Errorf("object stored in v1alpha1: %+v", o)
	}

	// the storage version moves to v1alpha1 (served) without conversion
	def = crontabCRD(t, true, "", "", "")
	def.Spec.Versions[0].Storage, def.Spec.Versions[1].Storage = true, false
	old = crontabCRD(t, true, "", "", "")
	r = check(t, def, old)
	if len(r.Hazards) != 1 || !strings.Contains(r.Hazards[0].Message, "storage version changes from v1 to v1alpha1 without conversion") {
		t.Errorf("hazards %+v", r.Hazards)
	}
}

func TestSchemaChanges(t *testing.T) {
	old := crontabCRD(t, false, "", "", "              legacy: {type: string}\n")
	def := crontabCRD(t, false, "        x-kubernetes-validations:\n        - rule: has(self.spec)\n", "                maxLength: 10\n", "              replicas: {type: integer, default: 1}\n")
	r := check(t, def, old)
	var got []string
	for _, c := range r.SchemaChanges {
		got = append(got, c.String())
	}
	want := []string{"v1 <root>: rule added: has(self.spec)", "v1 spec.image: maxLength 10 added", "v1 spec.legacy: property removed: stored values are pruned"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("schema changes\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(r.Objects) != 0 {
		t.Errorf("objects without objects: %v", r.Objects)
	}
}

func TestInputsNotModified(t *testing.T) {
	old := crontabCRD(t, false, "", "", "              legacy: {type: string}\n")
	def := crontabCRD(t, false, "", "", "              replicas: {type: integer, default: 1}\n")
	obj := cronTab("x", "nginx", map[string]any{"legacy": "y"})
	delete(obj["metadata"].(map[string]any), "resourceVersion")
	check(t, def, old, obj)
	if _, ok := obj["metadata"].(map[string]any)["resourceVersion"]; ok {
		t.Errorf("the object was modified")
	}
	if obj["spec"].(map[string]any)["legacy"] != "y" {
		t.Errorf("the object was pruned")
	}
}

func readCRD(t *testing.T, path string) *crdschema.CustomResourceDefinition {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	def, _, err := manifest.UnmarshalCRD(data)
	if err != nil {
		t.Fatal(err)
	}
	return def
}

// TestGatewayAPIReleases runs real CRD pairs of Gateway API releases whose
// schemas tightened (testdata/gateway-api/README.md).
func TestGatewayAPIReleases(t *testing.T) {
	gateway := func(name string, listener map[string]any) map[string]any {
		return map[string]any{
			"apiVersion": "gateway.networking.k8s.io/v1", "kind": "Gateway",
			"metadata": map[string]any{"name": name, "namespace": "default", "resourceVersion": "9", "generation": int64(1)},
			"spec":     map[string]any{"gatewayClassName": "example", "listeners": []any{listener}},
		}
	}
	http := gateway("http", map[string]any{"name": "http", "protocol": "HTTP", "port": int64(80)})
	// HTTPS with TLS passthrough: v1.1.0's new listener rule refuses it
	passthrough := gateway("passthrough", map[string]any{"name": "https", "protocol": "HTTPS", "port": int64(443),
		"tls": map[string]any{"mode": "Passthrough"}})
	old := readCRD(t, "testdata/gateway-api/v1.0.0/gateways.yaml")
	def := readCRD(t, "testdata/gateway-api/v1.1.0/gateways.yaml")
	r := check(t, def, old, http, passthrough)
	if len(r.Errors) != 0 {
		t.Errorf("the API server refuses the update: %v", r.Errors)
	}
	if o := r.Objects[0]; o.Verdict != Valid {
		t.Errorf("HTTP gateway: %+v", o)
	}
	o := r.Objects[1]
	if o.Verdict != Ratcheted || len(o.Errors) == 0 || !strings.HasPrefix(o.Errors[0].Field, "spec.listeners") {
		t.Errorf("passthrough gateway: %s %v %v", o.Verdict, o.Errors, o.Blocking)
	}
	if len(r.Hazards) != 1 || !strings.Contains(r.Hazards[0].Message, "from v1beta1 to v1") {
		t.Errorf("hazards %v", r.Hazards)
	}

	// v1.1.0 -> v1.2.0: the GatewayClass status default changes its reason
	oldGC := readCRD(t, "testdata/gateway-api/v1.1.0/gatewayclasses.yaml")
	newGC := readCRD(t, "testdata/gateway-api/v1.2.0/gatewayclasses.yaml")
	gc := map[string]any{"apiVersion": "gateway.networking.k8s.io/v1", "kind": "GatewayClass",
		"metadata": map[string]any{"name": "example", "resourceVersion": "3"},
		"spec":     map[string]any{"controllerName": "example.com/gateway-controller"}}
	r = check(t, newGC, oldGC, gc)
	o = r.Objects[0]
	var changes []string
	for _, c := range o.Changes {
		changes = append(changes, c.String())
	}
	if o.Verdict != ChangedOnRead || strings.Join(changes, "\n") != `status.conditions[0].reason: "Waiting" becomes "Pending"` {
		t.Errorf("GatewayClass without status: %s %q", o.Verdict, changes)
	}
}
