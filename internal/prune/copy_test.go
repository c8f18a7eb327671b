package prune_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/structural"
)

// checkDecodeCopy checks that DecodeCopy, and Decode on a copy, give what
// the plain Prune-then-PruneNulls decoding (referenceDecode) gives on a
// copy, and that DecodeCopy leaves its argument alone.
func checkDecodeCopy(t *testing.T, opts prune.DecoderOptions, o map[string]any) {
	t.Helper()
	d := prune.NewDecoder(opts)
	before := jsonvalue.CopyMap(o)
	want := jsonvalue.CopyMap(o)
	wantUnknown, wantErr := referenceDecode(opts, want)
	inPlace := jsonvalue.CopyMap(o)
	inPlaceUnknown, inPlaceErr := d.Decode(inPlace)
	if fmt.Sprint(inPlaceErr) != fmt.Sprint(wantErr) {
		t.Fatalf("Decode error %v, reference error %v", inPlaceErr, wantErr)
	}
	if wantErr == nil && (!reflect.DeepEqual(inPlace, want) || fmt.Sprint(inPlaceUnknown) != fmt.Sprint(wantUnknown)) {
		t.Fatalf("Decode gives\n%v %q\nthe reference\n%v %q", inPlace, inPlaceUnknown, want, wantUnknown)
	}
	got, gotUnknown, gotErr := d.DecodeCopy(o)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("DecodeCopy error %v, Decode error %v", gotErr, wantErr)
	}
	if !reflect.DeepEqual(o, before) {
		t.Fatalf("DecodeCopy changed its argument:\n%v\nwas\n%v", o, before)
	}
	if wantErr != nil {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DecodeCopy gives\n%v\nDecode\n%v", got, want)
	}
	if fmt.Sprint(gotUnknown) != fmt.Sprint(wantUnknown) {
		t.Fatalf("DecodeCopy finds unknown fields %q, Decode %q", gotUnknown, wantUnknown)
	}
}

var copySchemas = append([]string{
	`{"type":"object","properties":{"metadata":{"type":"object","properties":{"name":{"type":"string"}}},"spec":{"type":"object","properties":{"n":{"type":"string","nullable":true},"d":{"type":"string","default":"x"},"p":{"type":"string"}}}}}`,
	`{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"l":{"type":"array","items":{"type":"object","properties":{"a":{"type":"integer"}}}}}},"e":{"type":"array","items":{"type":"object","x-kubernetes-embedded-resource":true,"properties":{"metadata":{"type":"object"},"s":{"type":"string"}}}}}}`,
	`{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"l":{"type":"array","x-kubernetes-preserve-unknown-fields":true,"items":{"type":"object","properties":{"k":{"type":"string"}}}}}}`,
}, fuzzSchemas...)

var copyObjects = append([]string{
	`{"apiVersion":"g/v1","kind":"K","metadata":null,"spec":{"n":null,"d":null,"p":null,"q":null}}`,
	`{"apiVersion":"g/v1","kind":"K","metadata":{"name":null,"labels":{"a":"b"}},"spec":{"l":[{"a":null,"b":null},[1,null],null,3],"z":{"y":null}},"e":[{"apiVersion":"v1","kind":"X","metadata":{"name":"n","q":1},"s":null,"t":1},null]}`,
	`{"apiVersion":"g/v1","kind":"K","l":[{"k":null,"j":{"x":null}},[{"k":1}]],"x":{"y":null}}`,
	`{"apiVersion":"g/v2","kind":"K","spec":{"a":1}}`,
	`{"apiVersion":"h/v1","kind":"K","spec":{"a":1}}`,
	`{"apiVersion":"g/v1","kind":"K","metadata":{"managedFields":[{"manager":"m","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}}}]}}`,
	`{"apiVersion":5,"kind":"K"}`,
	`{"apiVersion":"g/v1","kind":"K","metadata":{"name":5}}`,
	`{"apiVersion":"a/b/c","kind":"K"}`,
}, fuzzObjects...)

func TestDecodeCopy(t *testing.T) {
	for i, sj := range copySchemas {
		for j, oj := range copyObjects {
			for _, storage := range []bool{false, true} {
				for _, preserve := range []bool{false, true} {
					t.Run(fmt.Sprintf("schema%d/object%d/storage=%v/preserve=%v", i, j, storage, preserve), func(t *testing.T) {
						s, o, ok := fuzzInputs(t, []byte(sj), []byte(oj))
						if !ok {
							t.Fatal("bad input")
						}
						checkDecodeCopy(t, prune.DecoderOptions{Group: "g", Kind: "K", Schemas: map[string]*structural.Schema{"v1": s}, Storage: storage, PreserveUnknownFields: preserve}, o)
					})
				}
			}
		}
	}
}

// TestDecodeCopyNilContainers: nil maps and lists, which Go callers can
// pass though JSON has none, come out as Decode leaves them on a copy.
func TestDecodeCopyNilContainers(t *testing.T) {
	for i, sj := range copySchemas {
		s, _, ok := fuzzInputs(t, []byte(sj), []byte(`{}`))
		if !ok {
			t.Fatal("bad schema")
		}
		opts := prune.DecoderOptions{Group: "g", Kind: "K", Schemas: map[string]*structural.Schema{"v1": s}}
		var nilMap map[string]any
		var nilList []any
		o := map[string]any{"apiVersion": "g/v1", "kind": "K", "spec": nilMap, "l": nilList, "m": nilMap, "tmpl": nilMap,
			"x": map[string]any{"y": nilMap, "z": nilList}, "metadata": map[string]any{"name": "n", "labels": nilMap}}
		t.Run(fmt.Sprint("schema", i), func(t *testing.T) { checkDecodeCopy(t, opts, o) })
	}
}

// FuzzDecodeCopy checks that DecodeCopy is Decode on a copy, in one walk,
// and never modifies its argument.
func FuzzDecodeCopy(f *testing.F) {
	for _, s := range copySchemas {
		for _, o := range copyObjects {
			f.Add([]byte(s), []byte(o), false, false)
		}
	}
	f.Fuzz(func(t *testing.T, schemaJSON, objJSON []byte, storage, preserve bool) {
		s, o, ok := fuzzInputs(t, schemaJSON, objJSON)
		if !ok {
			return
		}
		checkDecodeCopy(t, prune.DecoderOptions{Group: "g", Kind: "K", Schemas: map[string]*structural.Schema{"v1": s}, Storage: storage, PreserveUnknownFields: preserve}, o)
	})
}
