package metavalidation

import (
	"strings"
	"testing"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonscan"
)

func errorTexts(l crdschema.ErrorList) []string {
	out := make([]string, len(l))
	for i, e := range l {
		out[i] = e.Error()
	}
	return out
}

func checkErrors(t *testing.T, got crdschema.ErrorList, want []string) {
	t.Helper()
	g := errorTexts(got)
	sortTexts(g)
	w := append([]string(nil), want...)
	sortTexts(w)
	if strings.Join(g, "\n") != strings.Join(w, "\n") {
		t.Errorf("errors:\n got %d:\n  %s\nwant %d:\n  %s", len(g), strings.Join(g, "\n  "), len(w), strings.Join(w, "\n  "))
	}
}

func sortTexts(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestValidateObjectMeta(t *testing.T) {
	md := crdschema.NewPath("metadata")
	tests := []struct {
		name       string
		meta       crdschema.ObjectMeta
		namespaced bool
		want       []string
	}{
		{"ok", crdschema.ObjectMeta{Name: "a", Namespace: "default"}, true, nil},
		{"missing name", crdschema.ObjectMeta{Namespace: "default"}, true,
			[]string{"metadata.name: Required value: name or generateName is required"}},
		{"bad name", crdschema.ObjectMeta{Name: "Not_Valid", Namespace: "default"}, true,
			[]string{`metadata.name: Invalid value: "Not_Valid": ` + msgSubdomain}},
		{"bad generateName", crdschema.ObjectMeta{Name: "a", GenerateName: "Bad-", Namespace: "default"}, true,
			[]string{`metadata.generateName: Invalid value: "Bad-": ` + msgSubdomain}},
		{"missing namespace", crdschema.ObjectMeta{Name: "a"}, true,
			[]string{"metadata.namespace: Required value"}},
		{"bad namespace", crdschema.ObjectMeta{Name: "a", Namespace: "a.b"}, true,
			[]string{`metadata.namespace: Invalid value: "a.b": must not contain dots`}},
		{"namespace on cluster-scoped", crdschema.ObjectMeta{Name: "a", Namespace: "x"}, false,
			[]string{"metadata.namespace: Forbidden: not allowed on this type"}},
		{"negative generation", crdschema.ObjectMeta{Name: "a", Generation: -1}, false,
			[]string{"metadata.generation: Invalid value: -1: must be greater than or equal to 0"}},
		{"labels and annotations", crdschema.ObjectMeta{Name: "a",
			Labels:      map[string]string{"bad key!": "x", "ok": "bad value!"},
			Annotations: map[string]string{"/bad": "x", "Upper.Case/OK": "y"}}, false,
			[]string{
				`metadata.annotations: Invalid value: "/bad": prefix part must be non-empty`,
				`metadata.labels: Invalid value: "bad value!": ` + msgLabelValue,
				`metadata.labels: Invalid value: "bad key!": ` + msgNamePart,
			}},
		{"annotations too big", crdschema.ObjectMeta{Name: "a",
			Annotations: map[string]string{"a": strings.Repeat("x", 256*1024)}}, false,
			[]string{"metadata.annotations: Too long: may not be more than 262144 bytes"}},
		{"annotations at limit", crdschema.ObjectMeta{Name: "a",
			Annotations: map[string]string{"a": strings.Repeat("x", 256*1024-1)}}, false, nil},
		{"finalizers", crdschema.ObjectMeta{Name: "a", Finalizers: []string{"orphan", "foregroundDeletion", "a/b/c"}}, false,
			[]string{
				`metadata.finalizers: Invalid value: "a/b/c": a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
				`metadata.finalizers: Invalid value: ["orphan","foregroundDeletion","a/b/c"]: finalizer orphan and foregroundDeletion cannot be both set`,
			}},
		{"owner references", crdschema.ObjectMeta{Name: "a", OwnerReferences: []crdschema.OwnerReference{
			{},
			{APIVersion: "a/b/c", Kind: "K", Name: "n", UID: "u", Controller: ptr(true)},
			{APIVersion: "v1", Kind: "Event", Name: "e", UID: "u2", Controller: ptr(true)},
			{APIVersion: "g/", Kind: "K", Name: "n", UID: "u"},
		}}, false,
			[]string{
				"metadata.ownerReferences[0].apiVersion: Required value: must not be empty",
				"metadata.ownerReferences[0].kind: Required value: must not be empty",
				"metadata.ownerReferences[0].name: Required value: must not be empty",
				"metadata.ownerReferences[0].uid: Required value: must not be empty",
				`metadata.ownerReferences[1].apiVersion: Invalid value: "a/b/c": must be <group>/<version> or <version>`,
				`metadata.ownerReferences[2]: Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u2","controller":true}: /v1, Kind=Event is disallowed from being an owner`,
				`metadata.ownerReferences: Invalid value: [{"apiVersion":"","kind":"","name":"","uid":""},{"apiVersion":"a/b/c","kind":"K","name":"n","uid":"u","controller":true},{"apiVersion":"v1","kind":"Event","name":"e","uid":"u2","controller":true},{"apiVersion":"g/","kind":"K","name":"n","uid":"u"}]: Only one reference can have Controller set to true. Found "true" in references for K/n and Event/e`,
				`metadata.ownerReferences[3].apiVersion: Invalid value: "g/": must be <group>/<version> or <version>`,
			}},
		{"managed fields", crdschema.ObjectMeta{Name: "a", ManagedFields: []crdschema.ManagedFieldsEntry{
			{Operation: "Apply", FieldsType: "FieldsV1", Manager: "kubectl"},
			{FieldsType: "FieldsV2", Manager: "a\tb", Subresource: strings.Repeat("s", 257)},
			{Operation: "Patch", Manager: strings.Repeat("m", 129)},
		}}, false,
			[]string{
				"metadata.managedFields[1].operation: Required value: must not be empty",
				"metadata.managedFields[1].fieldsType: Invalid value: \"FieldsV2\": must be `FieldsV1`",
				`metadata.managedFields[1].manager: Invalid value: "a\tb": invalid character U+0009 (at position 1)`,
				"metadata.managedFields[1].subresource: Too long: may not be more than 256 bytes",
				`metadata.managedFields[2].operation: Unsupported value: "Patch": supported values: "Apply", "Update"`,
				"metadata.managedFields[2].manager: Too long: may not be more than 128 bytes",
			}},
		// apimachinery prints a value of a string type of its own with
		// json.Marshal, which escapes &, < and >.
		{"managed fields operation escaped", crdschema.ObjectMeta{Name: "a", ManagedFields: []crdschema.ManagedFieldsEntry{
			{Operation: "<&>", FieldsType: "FieldsV1", Manager: "m"},
		}}, false,
			[]string{
				`metadata.managedFields[0].operation: Unsupported value: "\u003c\u0026\u003e": supported values: "Apply", "Update"`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErrors(t, ValidateObjectMeta(&tt.meta, tt.namespaced, NameIsDNSSubdomain, md), tt.want)
		})
	}
}

func TestValidateObjectMetaUpdate(t *testing.T) {
	md := crdschema.NewPath("metadata")
	t0 := crdschema.Time{Time: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)}
	t1 := crdschema.Time{Time: time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)}
	old := crdschema.ObjectMeta{Name: "a", Namespace: "ns", UID: "u", ResourceVersion: "1", Generation: 3,
		CreationTimestamp: t0, Finalizers: []string{"f"}}
	tests := []struct {
		name string
		new  crdschema.ObjectMeta
		old  crdschema.ObjectMeta
		want []string
	}{
		{"unchanged", old, old, nil},
		{"same time other zone", func() crdschema.ObjectMeta {
			m := old
			m.CreationTimestamp = crdschema.Time{Time: t0.In(time.FixedZone("x", 3600))}
			return m
		}(), old, nil},
		{"everything changed", crdschema.ObjectMeta{Name: "b", Namespace: "ns2", UID: "v", Generation: 2,
			CreationTimestamp: t1, DeletionTimestamp: &t1, DeletionGracePeriodSeconds: ptr(int64(30))}, old,
			[]string{
				`metadata.resourceVersion: Invalid value: "": must be specified for an update`,
				"metadata.generation: Invalid value: 2: must not be decremented",
				`metadata.name: Invalid value: "b": field is immutable`,
				`metadata.namespace: Invalid value: "ns2": field is immutable`,
				`metadata.uid: Invalid value: "v": field is immutable`,
				`metadata.creationTimestamp: Invalid value: "2001-01-01T00:00:00Z": field is immutable`,
				`metadata.deletionTimestamp: Invalid value: "2001-01-01T00:00:00Z": field is immutable`,
				"metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable",
			}},
		{"deletion removed", old, func() crdschema.ObjectMeta {
			m := old
			m.DeletionTimestamp = &t1
			m.DeletionGracePeriodSeconds = ptr(int64(0))
			return m
		}(), []string{
			"metadata.deletionTimestamp: Invalid value: null: field is immutable",
			"metadata.deletionGracePeriodSeconds: Invalid value: null: field is immutable",
		}},
		{"new finalizers while deleting", func() crdschema.ObjectMeta {
			m := old
			m.DeletionTimestamp = &t1
			m.Finalizers = []string{"z", "f", "b", "z"}
			return m
		}(), func() crdschema.ObjectMeta {
			m := old
			m.DeletionTimestamp = &t1
			return m
		}(), []string{
			`metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"b", "z"}`,
		}},
		{"labels checked, negative generation", func() crdschema.ObjectMeta {
			m := old
			m.Generation = -1
			m.Labels = map[string]string{"a": "-"}
			return m
		}(), old, []string{
			"metadata.generation: Invalid value: -1: must be greater than or equal to 0",
			"metadata.generation: Invalid value: -1: must not be decremented",
			`metadata.labels: Invalid value: "-": ` + msgLabelValue,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkErrors(t, ValidateObjectMetaUpdate(&tt.new, &tt.old, md), tt.want)
		})
	}
}

// FuzzObjectMeta decodes arbitrary JSON as metadata and validates it: it
// must never panic.
func FuzzObjectMeta(f *testing.F) {
	for _, s := range []string{
		`{"name":"a","namespace":"b","labels":{"a":"b"},"annotations":{"A/b":"c"}}`,
		`{"generateName":"x-","ownerReferences":[{"apiVersion":"v1","kind":"Event","name":"n","uid":"u","controller":true}]}`,
		`{"finalizers":["orphan","foregroundDeletion"],"managedFields":[{"operation":"X","manager":"\u0000"}],"generation":-1}`,
	} {
		f.Add(s, `{"name":"a"}`)
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		newObj, err1 := jsonscan.Decode([]byte(a))
		oldObj, err2 := jsonscan.Decode([]byte(b))
		if err1 != nil || err2 != nil {
			return
		}
		newMeta, err1 := DecodeObjectMeta(newObj)
		oldMeta, err2 := DecodeObjectMeta(oldObj)
		if err1 != nil || err2 != nil {
			return
		}
		for _, e := range ValidateObjectMeta(newMeta, true, NameIsDNSSubdomain, crdschema.NewPath("metadata")) {
			_ = e.Error()
		}
		for _, e := range ValidateObjectMetaUpdate(newMeta, oldMeta, crdschema.NewPath("metadata")) {
			_ = e.Error()
		}
	})
}

const (
	msgSubdomain  = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	msgLabel1123  = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	msgLabel1035  = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
	msgNamePart   = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	msgLabelValue = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)

func TestNameFuncPrefix(t *testing.T) {
	tests := []struct {
		fn     NameFunc
		in     string
		prefix bool
		ok     bool
	}{
		{NameIsDNSSubdomain, "foo-", true, true},
		{NameIsDNSSubdomain, "foo-", false, false},
		{NameIsDNSSubdomain, "-", true, false},
		{NameIsDNSLabel, "a.b-", true, false},
		{NameIsDNS1035Label, "abc-", true, true},
		{NameIsPathSegment, ".", true, true},
		{NameIsPathSegment, ".", false, false},
	}
	for _, tt := range tests {
		errs := tt.fn(tt.in, tt.prefix)
		if (len(errs) == 0) != tt.ok {
			t.Errorf("%q prefix=%v: got %q, want ok=%v", tt.in, tt.prefix, errs, tt.ok)
		}
	}
	// The masking drops two bytes, so "ab-" is checked as "aa" and is fine,
	// while "A-" becomes "a" and passes despite the upper-case letter.
	if errs := NameIsDNSSubdomain("A-", true); errs != nil {
		t.Errorf("A- as prefix: %q", errs)
	}
}

// FuzzObjectMetaNames: where ValidateObjectMeta finds nothing with DNS
// subdomain names, it finds with path-segment names exactly what
// ValidateObjectMetaNames finds (package crd relies on it).
func FuzzObjectMetaNames(f *testing.F) {
	for _, s := range [][3]string{{"a", "", "ns"}, {"a.b", "gen-", "ns"}, {"..", "", ""}, {"a", "a%", "x"}, {"", "g", "n"}, {"a", "b.", "c"}} {
		f.Add(s[0], s[1], s[2], "k", "v")
	}
	f.Fuzz(func(t *testing.T, name, generateName, namespace, labelKey, labelValue string) {
		meta := &crdschema.ObjectMeta{Name: name, GenerateName: generateName, Namespace: namespace, Labels: map[string]string{labelKey: labelValue}}
		for _, namespaced := range []bool{false, true} {
			p := crdschema.NewPath("metadata")
			if len(ValidateObjectMeta(meta, namespaced, NameIsDNSSubdomain, p)) > 0 {
				continue
			}
			want := strings.Join(errorTexts(ValidateObjectMeta(meta, namespaced, NameIsPathSegment, p)), "\n")
			got := strings.Join(errorTexts(ValidateObjectMetaNames(meta, NameIsPathSegment, p)), "\n")
			if got != want {
				t.Fatalf("ValidateObjectMetaNames:\n%s\nValidateObjectMeta:\n%s", got, want)
			}
		}
	})
}
