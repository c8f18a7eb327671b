package builtin

import (
	"strings"
	"testing"
)

func TestCreateJSON(t *testing.T) {
	const cm = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","labels":{"a":"1","a":"2"}},"data":{"k":"v"},"zz":1,"data":{"k":"w"}}`
	for _, tc := range []struct {
		body           string
		strict         bool
		decode, warns  string
		dups, errsText string
	}{
		{body: cm, warns: `duplicate field "metadata.labels.a"|unknown field "zz"|duplicate field "data"`, dups: "metadata.labels.a|data"},
		{body: cm, strict: true, decode: `ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.labels.a", unknown field "zz", duplicate field "data"`, dups: "metadata.labels.a|data"},
		// Of two decoding errors, the first in the body is reported.
		{body: `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":"3","minReadySeconds":true}}`,
			decode: `Deployment in version "v1" cannot be handled as a Deployment: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`},
		{body: `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"minReadySeconds":true,"replicas":"3"}}`,
			decode: `Deployment in version "v1" cannot be handled as a Deployment: cannot unmarshal bool into Go struct field DeploymentSpec.spec.minReadySeconds of type int32`},
		// A number as written: 1.0 is no int32.
		{body: `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"d"},"spec":{"replicas":1.0}}`,
			decode: `Deployment in version "v1" cannot be handled as a Deployment: cannot unmarshal number 1.0 into Go struct field DeploymentSpec.spec.replicas of type int32`},
		// The later value of a duplicate is validated.
		{body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"Bad_Name","name":"good"}}`, warns: `duplicate field "metadata.name"`, dups: "metadata.name"},
		{body: `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"good","name":"Bad_Name"}}`, warns: `duplicate field "metadata.name"`, dups: "metadata.name",
			errsText: `ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
	} {
		var opts []Option
		if tc.strict {
			opts = append(opts, WithStrictFieldValidation())
		}
		body := []byte(tc.body)
		r, err := mustNew(t, opts...).CreateJSON(body)
		if err != nil {
			t.Fatal(err)
		}
		if string(body) != tc.body {
			t.Error("CreateJSON modified its input")
		}
		got := ""
		if r.DecodeError != nil {
			got = r.DecodeError.Error()
		}
		if got != tc.decode {
			t.Errorf("%s: decode error\n got %s\nwant %s", tc.body, got, tc.decode)
		}
		if w := strings.Join(r.Warnings, "|"); w != tc.warns {
			t.Errorf("%s: warnings\n got %s\nwant %s", tc.body, w, tc.warns)
		}
		if d := strings.Join(r.DuplicateFields, "|"); d != tc.dups {
			t.Errorf("%s: duplicates %s, want %s", tc.body, d, tc.dups)
		}
		got = ""
		if tc.decode == "" && r.Err() != nil {
			got = r.Err().Error()
		}
		if got != tc.errsText {
			t.Errorf("%s: errors\n got %s\nwant %s", tc.body, got, tc.errsText)
		}
	}
	for _, bad := range []string{``, `[]`, `{"a":`, `{} {}`, `{"apiVersion":"v1","kind":"Nope"}`} {
		if _, err := mustNew(t).CreateJSON([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	old := object(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, uid: u}\n")
	r, err := mustNew(t).UpdateJSON([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"d"}}`), old)
	if err != nil || r.Err() == nil || !strings.Contains(r.Err().Error(), "field is immutable") {
		t.Errorf("UpdateJSON renamed: %v %v", err, r.Err())
	}
}

func FuzzCreateJSON(f *testing.F) {
	f.Add([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","name":"d"},"data":{"a":"b","a":1}}`))
	f.Add([]byte(`{"apiVersion":"apps/v1","kind":"Deployment","spec":{"replicas":1e400,"template":{"spec":{"containers":[{"resources":{"limits":{"cpu":1.5}}}]}}}}`))
	a := mustNew(f)
	strict := mustNew(f, WithStrictFieldValidation(), WithKubernetesVersion(mustVersion(f, "1.35")))
	old := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, api := range []*API{a, strict} {
			if r, err := api.CreateJSON(body); err == nil {
				_ = r.Err()
			}
			if r, err := api.UpdateJSON(body, old); err == nil {
				_ = r.Err()
			}
		}
	})
}
