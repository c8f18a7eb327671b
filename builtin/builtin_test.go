package builtin

import (
	"encoding/json"
	"fmt"
	"github.com/crdschema/crdschema/manifest"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
)

func mustNew(t testing.TB, opts ...Option) *API {
	t.Helper()
	a, err := New(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func object(t testing.TB, y string) map[string]any {
	t.Helper()
	v, err := manifest.UnmarshalObject([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestReleases(t *testing.T) {
	for _, v := range []string{"1.33", "1.34", "1.35", "1.36", "1.37"} {
		a := mustNew(t, WithKubernetesVersion(mustVersion(t, v)))
		if a.KubernetesVersion() != v {
			t.Errorf("%s: version %s", v, a.KubernetesVersion())
		}
		kinds := a.Kinds()
		if len(kinds) < 80 {
			t.Errorf("%s: %d kinds", v, len(kinds))
		}
		for _, want := range []struct {
			apiVersion, kind, resource string
			namespaced                 bool
		}{
			{"v1", "ConfigMap", "configmaps", true},
			{"v1", "Namespace", "namespaces", false},
			{"apps/v1", "Deployment", "deployments", true},
			{"rbac.authorization.k8s.io/v1", "ClusterRole", "clusterroles", false},
			{"policy/v1", "PodDisruptionBudget", "poddisruptionbudgets", true},
		} {
			k, ok := a.Lookup(want.apiVersion, want.kind)
			if !ok || k.Resource != want.resource || k.Namespaced != want.namespaced || k.ListKind != want.kind+"List" {
				t.Errorf("%s: Lookup(%s, %s) = %+v, %v", v, want.apiVersion, want.kind, k, ok)
			}
		}
		if _, ok := a.Lookup("policy/v1beta1", "PodDisruptionBudget"); ok {
			t.Errorf("%s: policy/v1beta1 served", v)
		}
		// Every kind's schema inlines and round-trips through JSON.
		for _, k := range kinds {
			s, ok := a.Schema(k)
			if !ok || s.Type != "object" {
				t.Fatalf("%s: schema of %s: %v %q", v, k.Definition, ok, s.Type)
			}
			if _, err := json.Marshal(s); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := crdschema.ParseKubernetesVersion("1.32"); err == nil {
		t.Error("1.32 accepted")
	}
}

func TestSchemaInlined(t *testing.T) {
	a := mustNew(t)
	k, _ := a.Lookup("apps/v1", "Deployment")
	s, _ := a.Schema(k)
	c := s.Properties["spec"].Properties["template"].Properties["spec"].Properties["containers"]
	if c.Items == nil || c.Items.Schema == nil || c.Items.Schema.Properties["image"].Type != "string" ||
		c.XListType == nil || *c.XListType != "map" || strings.Join(c.XListMapKeys, ",") != "name" {
		t.Errorf("containers: %+v", c)
	}
	// Schema returns a new value each time.
	s.Properties = nil
	s2, _ := a.Schema(k)
	if s2.Properties == nil {
		t.Error("Schema shares its result")
	}
	// The recursive JSONSchemaProps of a CRD is cut where it recurs.
	crd, _ := a.Lookup("apiextensions.k8s.io/v1", "CustomResourceDefinition")
	cs, _ := a.Schema(crd)
	ps := cs.Properties["spec"].Properties["versions"].Items.Schema.Properties["schema"].Properties["openAPIV3Schema"]
	if p := ps.Properties["not"]; p.XPreserveUnknownFields == nil || !*p.XPreserveUnknownFields {
		t.Errorf("recursion: %+v", p)
	}
}

const deployment = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: prod, labels: {app: web}}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: nginx
        ports: [{containerPort: 80}]
        resources: {limits: {cpu: 500m, memory: 1Gi}}
`

func TestCreate(t *testing.T) {
	a := mustNew(t)
	strict := mustNew(t, WithStrictFieldValidation())
	for _, tc := range []struct {
		name   string
		api    *API
		edit   func(m map[string]any)
		obj    string
		decode string
		errs   []string // "layer: text"
		warns  []string
	}{
		{name: "valid", obj: deployment},
		{name: "unknown field", obj: deployment, edit: func(m map[string]any) { spec(m)["replica"] = int64(1) },
			warns: []string{`unknown field "spec.replica"`}},
		{name: "unknown field strict", api: strict, obj: deployment, edit: func(m map[string]any) { spec(m)["replica"] = int64(1); spec(m)["Paused"] = true },
			decode: `Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.Paused", unknown field "spec.replica"`},
		{name: "string for int32", obj: deployment, edit: func(m map[string]any) { spec(m)["replicas"] = "3" },
			decode: `Deployment in version "v1" cannot be handled as a Deployment: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`},
		{name: "int32 out of range", obj: deployment, edit: func(m map[string]any) { container(m)["ports"] = []any{map[string]any{"containerPort": int64(1) << 40}} },
			decode: `Deployment in version "v1" cannot be handled as a Deployment: cannot unmarshal number 1099511627776 into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32`},
		{name: "object for string", obj: deployment, edit: func(m map[string]any) { container(m)["image"] = map[string]any{} },
			decode: `Deployment in version "v1" cannot be handled as a Deployment: cannot unmarshal object into Go struct field Container.spec.template.spec.containers.image of type string`},
		{name: "array for struct", obj: deployment, edit: func(m map[string]any) { spec(m)["template"] = []any{} },
			decode: `Deployment in version "v1" cannot be handled as a Deployment: cannot unmarshal array into Go struct field DeploymentSpec.spec.template of type v1.PodTemplateSpec`},
		{name: "bad quantity", obj: deployment, edit: func(m map[string]any) {
			container(m)["resources"] = map[string]any{"limits": map[string]any{"cpu": "half"}}
		}, decode: `Deployment in version "v1" cannot be handled as a Deployment: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`},
		{name: "numeric quantity", obj: deployment, edit: func(m map[string]any) {
			container(m)["resources"] = map[string]any{"limits": map[string]any{"cpu": 0.5, "memory": int64(1000)}}
		}},
		{name: "int-or-string", obj: deployment, edit: func(m map[string]any) {
			spec(m)["strategy"] = map[string]any{"rollingUpdate": map[string]any{"maxSurge": true}}
		}, decode: `Deployment in version "v1" cannot be handled as a Deployment: cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32`},
		{name: "time", obj: deployment, edit: func(m map[string]any) { meta(m)["creationTimestamp"] = "yesterday" },
			decode: `Deployment in version "v1" cannot be handled as a Deployment: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
		{name: "null anywhere", obj: deployment, edit: func(m map[string]any) { spec(m)["replicas"] = nil; container(m)["ports"] = nil }},
		{name: "required", obj: deployment, edit: func(m map[string]any) { delete(container(m), "name") },
			errs: []string{"schema: spec.template.spec.containers[0].name: Required value"}},
		{name: "name", obj: deployment, edit: func(m map[string]any) { meta(m)["name"] = "Web" },
			errs: []string{`metadata: metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`}},
		{name: "generateName", obj: deployment, edit: func(m map[string]any) { delete(meta(m), "name"); meta(m)["generateName"] = "web-" }},
		{name: "label", obj: deployment, edit: func(m map[string]any) { meta(m)["labels"] = map[string]any{"a": "-"} },
			errs: []string{`metadata: metadata.labels: Invalid value: "-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`}},
		{name: "service name", obj: "apiVersion: v1\nkind: Service\nmetadata: {name: web.1}\nspec: {ports: [{port: 80}]}",
			errs: []string{`metadata: metadata.name: Invalid value: "web.1": must not contain dots`}},
		{name: "service name with a digit first", obj: "apiVersion: v1\nkind: Service\nmetadata: {name: 1web}\nspec: {ports: [{port: 80}]}"},
		{name: "limitrange without name", obj: "apiVersion: v1\nkind: LimitRange\nmetadata: {}\nspec: {limits: []}"},
		{name: "struct not required", obj: "apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: {name: x}"},
		{name: "role name", obj: "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: 'system:Admin'}"},
		{name: "secret base64", obj: "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {a: 'not base64!'}",
			decode: `Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 3`},
		{name: "list-map duplicates warn", obj: deployment, edit: func(m map[string]any) {
			container(m)["env"] = []any{map[string]any{"name": "A"}, map[string]any{"name": "A", "value": "x"}}
		}, warns: []string{`spec.template.spec.containers[0].env[1]: duplicate entries for key [name="A"]: server-side apply would refuse this object`}},
		{name: "status not required", obj: deployment, edit: func(m map[string]any) {
			m["status"] = map[string]any{"conditions": []any{map[string]any{}}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			api := tc.api
			if api == nil {
				api = a
			}
			obj := object(t, tc.obj)
			if tc.edit != nil {
				tc.edit(obj)
			}
			before, _ := json.Marshal(obj)
			r, err := api.Create(obj)
			if err != nil {
				t.Fatal(err)
			}
			if after, _ := json.Marshal(obj); string(after) != string(before) {
				t.Error("Create modified its input")
			}
			got := ""
			if r.DecodeError != nil {
				got = r.DecodeError.Error()
			}
			if got != tc.decode {
				t.Errorf("decode error\n got %s\nwant %s", got, tc.decode)
			}
			var errs, warns []string
			for _, p := range r.Errors {
				errs = append(errs, p.Layer+": "+p.Error.Error())
			}
			warns = append(warns, r.Warnings...)
			if strings.Join(errs, "\n") != strings.Join(tc.errs, "\n") {
				t.Errorf("errors\n got %q\nwant %q", errs, tc.errs)
			}
			if strings.Join(warns, "\n") != strings.Join(tc.warns, "\n") {
				t.Errorf("warnings\n got %q\nwant %q", warns, tc.warns)
			}
			if r.Refused() != (tc.decode != "" || len(tc.errs) > 0) {
				t.Errorf("Refused() = %v", r.Refused())
			}
		})
	}
}

func TestUpdate(t *testing.T) {
	a := mustNew(t)
	old := object(t, deployment)
	meta(old)["uid"] = "u1"
	meta(old)["resourceVersion"] = "7"
	obj := object(t, deployment)
	r, err := a.Update(obj, old)
	if err != nil || r.Refused() {
		t.Fatalf("unchanged: %v %v", err, r.Err())
	}
	meta(obj)["name"] = "other"
	r, _ = a.Update(obj, old)
	if e := r.Err(); e == nil || !strings.Contains(e.Error(), "metadata.name: Invalid value: \"other\": field is immutable") {
		t.Errorf("renamed: %v", e)
	}
	if !strings.HasPrefix(r.Err().Error(), `Deployment.apps "other" is invalid: `) {
		t.Errorf("text: %v", r.Err())
	}
}

func TestNotServed(t *testing.T) {
	a := mustNew(t)
	for _, y := range []string{"apiVersion: extensions/v1beta1\nkind: Deployment", "apiVersion: example.com/v1\nkind: Foo", "kind: Pod"} {
		if _, err := a.Create(object(t, y)); err == nil {
			t.Errorf("%q: no error", y)
		}
	}
}

func spec(m map[string]any) map[string]any { return m["spec"].(map[string]any) }
func meta(m map[string]any) map[string]any { return m["metadata"].(map[string]any) }
func container(m map[string]any) map[string]any {
	return spec(spec(m)["template"].(map[string]any))["containers"].([]any)[0].(map[string]any)
}

func FuzzCreate(f *testing.F) {
	f.Add([]byte(deployment), []byte(deployment))
	f.Add([]byte("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {a: 'x'}"), []byte(""))
	f.Add([]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","spec":{"versions":[{"schema":{"openAPIV3Schema":{"not":{"not":{}}}}}]}}`), []byte("{}"))
	a := mustNew(f)
	strict := mustNew(f, WithStrictFieldValidation(), WithKubernetesVersion(mustVersion(f, "1.33")))
	f.Fuzz(func(t *testing.T, body, oldBody []byte) {
		obj, err := manifest.UnmarshalObject(body)
		if err != nil {
			return
		}
		old, _ := manifest.UnmarshalObject(oldBody)
		for _, api := range []*API{a, strict} {
			r, err := api.Create(obj)
			if err == nil {
				_ = r.Err()
			}
			r, err = api.Update(obj, old)
			if err == nil {
				_ = r.Err()
			}
		}
	})
}

func mustVersion(t testing.TB, s string) crdschema.KubernetesVersion {
	t.Helper()
	v, err := crdschema.ParseKubernetesVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRequiredPerRelease: a missing required field is refused at every
// release, but where the API server of a release defaults it or does not
// validate it (requiredSince): a StatefulSet's pod template in 1.33, a
// binding's roleRef.apiGroup (defaulted).
func TestRequiredPerRelease(t *testing.T) {
	const sts = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\nspec:\n  selector: {matchLabels: {app: a}}\n  template: {metadata: {labels: {app: a}}, spec: {containers: [{image: i}]}}\n"
	const crb = "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: b}\nroleRef: {kind: ClusterRole, name: r}\n"
	for _, tc := range []struct {
		version, obj string
		refused      bool
	}{
		{"1.33", deployment, true}, {"1.36", deployment, true}, {"1.37", deployment, true},
		{"1.33", sts, false}, {"1.34", sts, true}, {"1.37", sts, true},
		{"1.33", crb, false}, {"1.36", crb, false}, {"1.37", crb, false},
	} {
		obj := object(t, tc.obj)
		if tc.obj == deployment {
			delete(container(obj), "name")
		}
		r, err := mustNew(t, WithKubernetesVersion(mustVersion(t, tc.version))).Create(obj)
		if err != nil || r.Refused() != tc.refused {
			t.Errorf("%s %s: refused %v, want %v (%v %v)", tc.version, obj["kind"], r.Refused(), tc.refused, err, r.Err())
		}
	}
}

// TestDeclarative: the declarative validation tags a release makes
// authoritative, with the API server's texts; tags of a later release or
// alpha ones are not checked.
func TestDeclarative(t *testing.T) {
	const rc = "apiVersion: v1\nkind: ReplicationController\nmetadata: {name: rc}\nspec:\n  replicas: -1\n  minReadySeconds: 0\n  selector: {app: a}\n  template: {metadata: {labels: {app: a}}, spec: {containers: [{name: c, image: i}]}}\n"
	const runtimeClass = "apiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: {name: rc}\nhandler: %s\n"
	for _, tc := range []struct {
		version, obj, old string
		want              string
	}{
		{"1.33", rc, "", `ReplicationController "rc" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
		{"1.37", rc, "", `ReplicationController "rc" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0`},
		{"1.37", fmt.Sprintf(runtimeClass, "Bad_Name"), "", `RuntimeClass.node.k8s.io "rc" is invalid: handler: Invalid value: "Bad_Name": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
		{"1.36", fmt.Sprintf(runtimeClass, "Bad_Name"), "", ""}, // alpha in 1.36
		{"1.37", fmt.Sprintf(runtimeClass, "b"), fmt.Sprintf(runtimeClass, "a"), `RuntimeClass.node.k8s.io "rc" is invalid: handler: Invalid value: null: field is immutable`},
		{"1.37", fmt.Sprintf(runtimeClass, "a"), fmt.Sprintf(runtimeClass, "a"), ""},
		// Unchanged on update: declarative validation ratchets.
		{"1.37", rc, rc, ""},
	} {
		a := mustNew(t, WithKubernetesVersion(mustVersion(t, tc.version)))
		var r *Result
		var err error
		if tc.old == "" {
			r, err = a.Create(object(t, tc.obj))
		} else {
			r, err = a.Update(object(t, tc.obj), object(t, tc.old))
		}
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if e := r.Err(); e != nil {
			got = e.Error()
		}
		if got != tc.want {
			t.Errorf("%s %q (old %q):\n got %s\nwant %s", tc.version, tc.obj, tc.old, got, tc.want)
		}
		for _, p := range r.Errors {
			if p.Layer != "declarative" {
				t.Errorf("%s: layer %s", p.Error, p.Layer)
			}
		}
	}
}
