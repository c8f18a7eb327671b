package objectmeta

import (
	"reflect"
	"testing"
	"time"

	"github.com/crdschema/crdschema/internal/jsonscan"
)

// FuzzGetObjectMeta checks that the fast metadata decoder, when it
// accepts metadata, gives exactly what the exact (JSON round trip)
// decoder gives, and that GetObjectMeta never panics.
func FuzzGetObjectMeta(f *testing.F) {
	for _, s := range []string{
		`{"name":"n","namespace":"ns","labels":{"a":"b"},"annotations":{"x":""},"generation":2}`,
		`{"creationTimestamp":"2020-01-01T10:00:00.5+02:00","deletionTimestamp":"0001-01-01T00:00:00Z","deletionGracePeriodSeconds":0}`,
		`{"ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"p","uid":"u","controller":true,"blockOwnerDeletion":null},null]}`,
		`{"managedFields":[{"manager":"m","operation":"Apply","time":"2020-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{".":{}}}},null,{"fieldsV1":"s"}]}`,
		`{"finalizers":["a",null],"labels":{"a":null},"name":null,"generation":null}`,
		`{"name":5}`, `{"bogus":1}`, `null`, `"x"`, `{"generation":1.0}`,
	} {
		f.Add([]byte(s), false, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, drop, unknown bool) {
		md, err := jsonscan.Decode(data)
		if err != nil {
			return
		}
		opts := MetaOptions{DropMalformedFields: drop, ReturnUnknownFieldPaths: unknown}
		if fast, fu, ok := decodeFast(md, opts); ok {
			exact, found, eu, err := decodeExact(md, opts)
			if err != nil || !found {
				t.Fatalf("fast path accepted what the exact path refuses: %v", err)
			}
			if !reflect.DeepEqual(metaToMap(&fast.om, fast.fields), metaToMap(&exact.om, exact.fields)) {
				t.Fatalf("fast %v\nexact %v", metaToMap(&fast.om, fast.fields), metaToMap(&exact.om, exact.fields))
			}
			if len(fu) != 0 || len(eu) != 0 {
				t.Fatalf("unknown fields on the fast path: %q %q", fu, eu)
			}
		}
		m, _, err := GetObjectMeta(map[string]any{"metadata": md}, opts)
		if err == nil && m != nil {
			// Written back and decoded again, metadata reaches a fixed
			// point after one more round (a zero deletionTimestamp
			// becomes null, and null nothing).
			o := map[string]any{}
			if err := SetObjectMeta(o, m); err != nil {
				t.Fatal(err)
			}
			// Timestamps before year 0 in UTC are written in a form that
			// does not parse again, as upstream writes them.
			o2 := roundTrip(t, o)
			if o2 == nil {
				return
			}
			if o3 := roundTrip(t, o2); !reflect.DeepEqual(o2, o3) {
				t.Fatalf("round trip changed\n%v\n%v", o2, o3)
			}
		}
	})
}

func roundTrip(t *testing.T, o map[string]any) map[string]any {
	m, u, err := GetObjectMeta(o, MetaOptions{ReturnUnknownFieldPaths: true})
	if _, ok := err.(*time.ParseError); ok {
		return nil
	}
	if err != nil || len(u) > 0 {
		t.Fatalf("round trip: %v %q", err, u)
	}
	out := map[string]any{}
	if err := SetObjectMeta(out, m); err != nil {
		t.Fatal(err)
	}
	return out
}
