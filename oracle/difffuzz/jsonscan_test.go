package difffuzz

import (
	"reflect"
	"testing"

	kjson "sigs.k8s.io/json"

	"github.com/crdschema/crdschema/internal/jsonscan"
)

// FuzzJSONScan compares internal/jsonscan's decoder, whose fast path
// decodes what it is sure about itself, with sigs.k8s.io/json, the decoder
// the API server uses for request bodies: the same value (int64 for
// integers that fit, float64 otherwise), or an error with the same text.
func FuzzJSONScan(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":1,"b":1.0,"c":-0,"d":1e3,"e":9223372036854775808}`,
		`{"a":"\u00e9\ud83d\ude00\n","a":2}`, `{"A":1,"a":2}`, `[1,[2,[3,{"x":null}]]]`, `"\ud800"`, `{"a":tru}`,
		` {"a" : [ true , false , null ] } `, `1 2`, `{"a":1}x`, `"\u0000\/"`, `123456789012345678901234567890`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := jsonscan.Decode(data)
		var want any
		werr := kjson.UnmarshalCaseSensitivePreserveInts(data, &want)
		switch {
		case (err == nil) != (werr == nil):
			t.Fatalf("%q: jsonscan error %v, sigs.k8s.io/json error %v", data, err, werr)
		case err != nil:
			if err.Error() != werr.Error() {
				t.Fatalf("%q: jsonscan error %q, sigs.k8s.io/json error %q", data, err, werr)
			}
		case !reflect.DeepEqual(got, want):
			t.Fatalf("%q:\njsonscan          %#v\nsigs.k8s.io/json  %#v", data, got, want)
		}
	})
}
