package objectmeta_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/objectmeta"
)

// Error texts are the API server's (see testdata/cases/metadata-type-errors).
func TestGetObjectMetaErrors(t *testing.T) {
	tests := []struct {
		md   string
		drop bool
		want string
	}{
		{`{"name":5}`, false, "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"},
		{`"x"`, false, "json: cannot unmarshal string into Go value of type v1.ObjectMeta"},
		{`[1]`, false, "json: cannot unmarshal array into Go value of type v1.ObjectMeta"},
		{`{"ownerReferences":[{"name":5}]}`, false, "json: cannot unmarshal number into Go struct field OwnerReference.ownerReferences.name of type string"},
		{`{"creationTimestamp":5}`, false, "json: cannot unmarshal number into Go struct field ObjectMeta.creationTimestamp of type string"},
		{`{"creationTimestamp":"yesterday"}`, false, `parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`},
		{`{"generation":1.5}`, false, "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64"},
		{`{"uid":true}`, false, "json: cannot unmarshal bool into Go struct field ObjectMeta.uid of type types.UID"},
		{`{"labels":{"a":1}}`, false, "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"},
		{`{"ownerReferences":{}}`, false, "json: cannot unmarshal object into Go struct field ObjectMeta.ownerReferences of type []v1.OwnerReference"},
		{`{"managedFields":[{"operation":1}]}`, false, "json: cannot unmarshal number into Go struct field ManagedFieldsEntry.managedFields.operation of type v1.ManagedFieldsOperationType"},
		{`"x"`, true, "invalid metadata: expected object, got string"},
		{`[]`, true, "invalid metadata: expected object, got []interface {}"},
	}
	for _, tt := range tests {
		o := obj(t, `{"metadata":`+tt.md+`}`)
		for _, ret := range []bool{false, true} {
			m, _, err := objectmeta.GetObjectMeta(o, objectmeta.MetaOptions{DropMalformedFields: tt.drop, ReturnUnknownFieldPaths: ret})
			if err == nil || err.Error() != tt.want {
				t.Errorf("%s (drop %v, unknown %v): error %v\nwant %s", tt.md, tt.drop, ret, err, tt.want)
			}
			if m != nil {
				t.Errorf("%s: metadata %v with an error", tt.md, m)
			}
		}
	}
}

func TestGetObjectMetaUnknownFields(t *testing.T) {
	o := obj(t, `{"metadata":{"name":"n","clusterName":"c","Name":"x","ownerReferences":[{"name":"o","bogus":1},{"uid":"u","x":{}}],"managedFields":[{"manager":"m","y":1}]}}`)
	m, unknown, err := objectmeta.GetObjectMeta(o, objectmeta.MetaOptions{ReturnUnknownFieldPaths: true, ParentPath: crdschema.NewPath("spec", "template")})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"spec.template.metadata.Name",
		"spec.template.metadata.clusterName",
		"spec.template.metadata.managedFields[0].y",
		"spec.template.metadata.ownerReferences[0].bogus",
		"spec.template.metadata.ownerReferences[1].x",
	}
	if !reflect.DeepEqual(unknown, want) {
		t.Errorf("unknown\n got %q\nwant %q", unknown, want)
	}
	if m.Name != "n" || len(m.OwnerReferences) != 2 || m.OwnerReferences[1].UID != "u" {
		t.Errorf("metadata %+v", m)
	}
	// Without ReturnUnknownFieldPaths the same fields are dropped silently.
	if _, unknown, err := objectmeta.GetObjectMeta(o, objectmeta.MetaOptions{}); err != nil || unknown != nil {
		t.Errorf("unknown %q, error %v", unknown, err)
	}
	if m, _, _ := objectmeta.GetObjectMeta(map[string]any{}, objectmeta.MetaOptions{}); m != nil {
		t.Errorf("metadata %v for an object without", m)
	}
}

func TestGetObjectMetaDrop(t *testing.T) {
	o := obj(t, `{"metadata":{"name":"n","namespace":5,"labels":{"a":"b","c":1},"generation":2,"bogus":1,"ownerReferences":[{"name":"o","bogus":1}]}}`)
	m, unknown, err := objectmeta.GetObjectMeta(o, objectmeta.MetaOptions{DropMalformedFields: true, ReturnUnknownFieldPaths: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"metadata.bogus", "metadata.ownerReferences[0].bogus"}; !reflect.DeepEqual(unknown, want) {
		t.Errorf("unknown %q, want %q", unknown, want)
	}
	got := map[string]any{}
	if err := objectmeta.SetObjectMeta(got, m); err != nil {
		t.Fatal(err)
	}
	want := obj(t, `{"metadata":{"name":"n","generation":2,"ownerReferences":[{"apiVersion":"","kind":"","name":"o","uid":""}]}}`)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

func TestSetObjectMetaRoundTrip(t *testing.T) {
	tests := []struct {
		in, want string
		raw      any // when set, the metadata instead of in
	}{
		// Times: UTC, second precision; a zero creationTimestamp is left out,
		// a zero deletionTimestamp becomes null.
		{`{"creationTimestamp":"2020-01-01T10:00:00.5+02:00","deletionTimestamp":"2021-06-01T00:00:00.123Z"}`,
			`{"creationTimestamp":"2020-01-01T08:00:00Z","deletionTimestamp":"2021-06-01T00:00:00Z"}`, nil},
		{`{"creationTimestamp":"0001-01-01T00:00:00Z","deletionTimestamp":"0001-01-01T00:00:00Z"}`, `{"deletionTimestamp":null}`, nil},
		{`{"creationTimestamp":null,"deletionTimestamp":null,"name":null}`, `{}`, nil},
		// Empty values are left out; integers are int64.
		{`{"name":"","labels":{},"annotations":{"a":""},"finalizers":[],"generation":0,"deletionGracePeriodSeconds":0}`,
			`{"annotations":{"a":""},"deletionGracePeriodSeconds":0}`, nil},
		{`{"labels":{"a":null},"finalizers":[null,"f"]}`, `{"labels":{"a":""},"finalizers":["","f"]}`, nil},
		// Owner references always have their four names.
		{`{"ownerReferences":[null,{"controller":false,"blockOwnerDeletion":null}]}`,
			`{"ownerReferences":[{"apiVersion":"","kind":"","name":"","uid":""},{"apiVersion":"","kind":"","name":"","uid":"","controller":false}]}`, nil},
		// Managed fields keep fieldsV1 as JSON.
		{`{"managedFields":[{"manager":"m","operation":"Apply","time":"2020-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:a":{}}}},{"fieldsV1":null},null]}`,
			`{"managedFields":[{"manager":"m","operation":"Apply","time":"2020-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:a":{}}}},{},{}]}`, nil},
		// Floats that are integers come back as int64.
		{``, `{"managedFields":[{"fieldsV1":{"n":2,"m":2.5}}]}`,
			map[string]any{"managedFields": []any{map[string]any{"fieldsV1": map[string]any{"n": 2.0, "m": 2.5}}}}},
		// Invalid UTF-8 is replaced, byte by byte.
		{``, `{"name":"a\ufffd\ufffdb"}`, map[string]any{"name": "a\xff\xfeb"}},
		{`null`, `{}`, nil},
	}
	for _, tt := range tests {
		var in map[string]any
		if tt.raw != nil {
			in = map[string]any{"metadata": tt.raw}
		} else {
			in = obj(t, `{"metadata":`+tt.in+`}`)
		}
		m, _, err := objectmeta.GetObjectMeta(in, objectmeta.MetaOptions{})
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		got := map[string]any{}
		if err := objectmeta.SetObjectMeta(got, m); err != nil {
			t.Fatal(err)
		}
		want := obj(t, `{"metadata":`+tt.want+`}`)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s\n got %v\nwant %v", tt.in, got, want)
		}
		// Coerce at a resource root gives the same metadata.
		if ferr, _ := objectmeta.Coerce(nil, in, nil, true, objectmeta.CoerceOptions{}); ferr != nil || !reflect.DeepEqual(in, want) {
			t.Errorf("Coerce %s: %v\n got %v\nwant %v", tt.in, ferr, in, want)
		}
	}
}

func TestSetObjectMeta(t *testing.T) {
	yes := true
	n := int64(30)
	ts := crdschema.Time{Time: time.Date(2020, 1, 2, 3, 4, 5, 600, time.FixedZone("x", 3600))}
	m := &crdschema.ObjectMeta{
		Name:                       "n",
		Generation:                 3,
		CreationTimestamp:          ts,
		DeletionGracePeriodSeconds: &n,
		Labels:                     map[string]string{"a": "b"},
		OwnerReferences:            []crdschema.OwnerReference{{Name: "o", Controller: &yes}},
		ManagedFields:              []crdschema.ManagedFieldsEntry{{Manager: "m", FieldsV1: json.RawMessage(`{"f:a":{},"n":1}`)}},
	}
	o := map[string]any{"metadata": map[string]any{"old": true}}
	if err := objectmeta.SetObjectMeta(o, m); err != nil {
		t.Fatal(err)
	}
	want := obj(t, `{"metadata":{"name":"n","generation":3,"creationTimestamp":"2020-01-02T02:04:05Z","deletionGracePeriodSeconds":30,
		"labels":{"a":"b"},"ownerReferences":[{"apiVersion":"","kind":"","name":"o","uid":"","controller":true}],
		"managedFields":[{"manager":"m","fieldsV1":{"f:a":{},"n":1}}]}}`)
	if !reflect.DeepEqual(o, want) {
		t.Errorf("got %v\nwant %v", o, want)
	}
	if err := objectmeta.SetObjectMeta(o, nil); err != nil || len(o) != 0 {
		t.Errorf("nil metadata: %v, %v", o, err)
	}
	bad := &crdschema.ObjectMeta{ManagedFields: []crdschema.ManagedFieldsEntry{{FieldsV1: json.RawMessage(`{`)}}}
	if err := objectmeta.SetObjectMeta(map[string]any{}, bad); err == nil {
		t.Error("no error for invalid fieldsV1")
	}
}

func TestCoerce(t *testing.T) {
	s := object("spec", object(
		"tmpl", preserve(embedded(object())),
		"tmpls", mapOf(embedded(object("spec", str()))),
		"list", array(embedded(object())),
	))
	tests := []struct {
		name    string
		in      string
		drop    bool
		want    string
		err     string
		unknown []string
	}{
		{
			name: "metadata cleaned, unknown fields reported",
			in: `{"spec":{"tmpl":{"apiVersion":"v1","kind":"Pod","foo":"bar","metadata":{"name":"t","clusterName":"c","creationTimestamp":"2020-01-01T10:00:00.5+02:00"}},
				"tmpls":{"one":{"metadata":{"name":"o","x":1}}},"list":[{"metadata":{"y":1}}]}}`,
			want: `{"spec":{"tmpl":{"apiVersion":"v1","kind":"Pod","foo":"bar","metadata":{"name":"t","creationTimestamp":"2020-01-01T08:00:00Z"}},
				"tmpls":{"one":{"metadata":{"name":"o"}}},"list":[{"metadata":{}}]}}`,
			unknown: []string{"spec.list[0].metadata.y", "spec.tmpl.metadata.clusterName", "spec.tmpls[one].metadata.x"},
		},
		{
			name: "kind must be a string",
			in:   `{"spec":{"tmpl":{"apiVersion":"v1","kind":7}}}`,
			err:  "spec.tmpl.kind: Invalid value: 7: must be a string",
		},
		{
			name: "apiVersion must be a string",
			in:   `{"spec":{"list":[{},{"apiVersion":["v1"]}]}}`,
			err:  `spec.list[1].apiVersion: Invalid value: ["v1"]: must be a string`,
		},
		{
			name: "metadata must decode",
			in:   `{"spec":{"tmpl":{"metadata":{"name":5}}}}`,
			err:  `spec.tmpl.metadata: Invalid value: {"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`,
		},
		{
			name: "dropped when invalid",
			in:   `{"spec":{"tmpl":{"kind":7,"metadata":{"name":5,"namespace":"ns"}},"tmpls":{"a":{"metadata":"x"}}}}`,
			drop: true,
			want: `{"spec":{"tmpl":{"metadata":{"namespace":"ns"}},"tmpls":{"a":{"metadata":"x"}}}}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := obj(t, tt.in)
			err, unknown := objectmeta.Coerce(nil, o, s, false, objectmeta.CoerceOptions{DropInvalidFields: tt.drop, ReturnUnknownFieldPaths: true})
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Errorf("error %v\nwant %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := obj(t, tt.want); !reflect.DeepEqual(o, want) {
				t.Errorf("object\n got %v\nwant %v", o, want)
			}
			if !reflect.DeepEqual(unknown, tt.unknown) {
				t.Errorf("unknown %q\nwant %q", unknown, tt.unknown)
			}
		})
	}
}
