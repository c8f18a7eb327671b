package prune_test

import (
	"reflect"
	"testing"

	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/structural"
)

func TestDecoder(t *testing.T) {
	nullable := str()
	nullable.Nullable = true
	s := object("spec", object("a", str(), "n", nullable, "tmpl", embedded(object())))
	schemas := map[string]*structural.Schema{"v1": s}
	tests := []struct {
		name    string
		opts    prune.DecoderOptions
		in      string
		want    string
		unknown []string
		err     string
	}{
		{
			name: "request",
			in: `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"x","bogus":1,"creationTimestamp":null},
				"spec":{"a":null,"n":null,"b":1,"tmpl":{"metadata":{"c":1}}},"status":{}}`,
			want:    `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"x"},"spec":{"n":null,"tmpl":{"metadata":{}}}}`,
			unknown: []string{"metadata.bogus", "spec.b", "status", "spec.tmpl.metadata.c"},
		},
		{
			name:    "preserveUnknownFields prunes nothing but metadata",
			opts:    prune.DecoderOptions{PreserveUnknownFields: true},
			in:      `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"x","bogus":1},"spec":{"a":null,"b":1}}`,
			want:    `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"x"},"spec":{"a":null,"b":1}}`,
			unknown: []string{"metadata.bogus"},
		},
		{
			name:    "another kind only gets its metadata cleaned",
			in:      `{"apiVersion":"g/v1","kind":"Other","metadata":{"bogus":1},"spec":{"b":1}}`,
			want:    `{"apiVersion":"g/v1","kind":"Other","metadata":{},"spec":{"b":1}}`,
			unknown: []string{"metadata.bogus"},
		},
		{
			name:    "an unknown version prunes all but the meta fields",
			in:      `{"apiVersion":"g/v9","kind":"K","spec":{"b":1}}`,
			want:    `{"apiVersion":"g/v9","kind":"K"}`,
			unknown: []string{"spec"},
		},
		{
			name: "storage: invalid metadata fields dropped, generation repaired",
			opts: prune.DecoderOptions{Storage: true},
			in:   `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"x","namespace":1},"spec":{"tmpl":{"kind":1,"metadata":{"name":2,"generateName":"g"}}}}`,
			want: `{"apiVersion":"g/v1","kind":"K","metadata":{"name":"x","generation":1},"spec":{"tmpl":{"metadata":{"generateName":"g"}}}}`,
		},
		{
			name: "storage: existing generation kept",
			opts: prune.DecoderOptions{Storage: true},
			in:   `{"apiVersion":"g/v1","kind":"K","metadata":{"generation":4}}`,
			want: `{"apiVersion":"g/v1","kind":"K","metadata":{"generation":4}}`,
		},
		{
			name: "kind must be a string",
			in:   `{"apiVersion":"g/v1","kind":5}`,
			err:  ".kind accessor error: 5 is of the type int64, expected string",
		},
		{
			name: "apiVersion must be a string",
			in:   `{"apiVersion":null,"kind":"K"}`,
			err:  ".apiVersion accessor error: <nil> is of the type <nil>, expected string",
		},
		{
			name: "apiVersion with two slashes",
			in:   `{"apiVersion":"a/b/c","kind":"K"}`,
			err:  "unexpected GroupVersion string: a/b/c",
		},
		{
			name: "root metadata that does not decode",
			in:   `{"apiVersion":"g/v1","kind":"K","metadata":{"generation":1.5}}`,
			err:  "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64",
		},
		{
			name: "root metadata that is not an object, even from storage",
			opts: prune.DecoderOptions{Storage: true},
			in:   `{"apiVersion":"g/v1","kind":"K","metadata":"x"}`,
			err:  "invalid metadata: expected object, got string",
		},
		{
			name: "embedded metadata that does not decode",
			in:   `{"apiVersion":"g/v1","kind":"K","spec":{"tmpl":{"metadata":{"name":5}}}}`,
			err:  `spec.tmpl.metadata: Invalid value: {"name":5}: json: cannot unmarshal number into Go struct field ObjectMeta.name of type string`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.Group, opts.Kind, opts.Schemas = "g", "K", schemas
			o := obj(t, tt.in)
			unknown, err := prune.NewDecoder(opts).Decode(o)
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

// A Decoder is shared by concurrent requests (run with -race).
func TestDecoderConcurrent(t *testing.T) {
	s := object("spec", object("a", str(), "tmpl", embedded(object())))
	d := prune.NewDecoder(prune.DecoderOptions{Group: "g", Kind: "K", Schemas: map[string]*structural.Schema{"v1": s}})
	done := make(chan []string)
	for i := 0; i < 4; i++ {
		go func() {
			var unknown []string
			for j := 0; j < 50; j++ {
				o := map[string]any{"apiVersion": "g/v1", "kind": "K", "metadata": map[string]any{"name": "x"},
					"spec": map[string]any{"a": "b", "c": int64(1), "tmpl": map[string]any{"metadata": map[string]any{"x": int64(1)}}}}
				unknown, _ = d.Decode(o)
			}
			done <- unknown
		}()
	}
	for i := 0; i < 4; i++ {
		if got, want := <-done, []string{"spec.c", "spec.tmpl.metadata.x"}; !reflect.DeepEqual(got, want) {
			t.Errorf("unknown %q, want %q", got, want)
		}
	}
}
