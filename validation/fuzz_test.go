package validation

import (
	"github.com/crdschema/crdschema/internal/objectcheck"
	"github.com/crdschema/crdschema/ratchet"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonscan"
)

const fuzzSchema = `{"type":"object","required":["spec"],"properties":{
	"metadata":{"type":"object"},
	"spec":{"type":"object","minProperties":1,"maxProperties":20,"properties":{
		"s":{"type":"string","maxLength":5,"minLength":1,"pattern":"^[a-z]+$"},
		"e":{"type":"string","enum":["a","b",null]},
		"f":{"type":"string","format":"date-time"},
		"h":{"type":"string","format":"hostname"},
		"ip":{"type":"string","format":"cidr"},
		"i":{"type":"integer","format":"int32","minimum":-3,"maximum":1000,"multipleOf":2},
		"n":{"type":"number","format":"float","exclusiveMaximum":true,"maximum":2.5,"multipleOf":0.25},
		"b":{"type":"boolean","nullable":true},
		"ios":{"x-kubernetes-int-or-string":true,"anyOf":[{"type":"integer"},{"type":"string"}],"pattern":"^\\d+%$"},
		"set":{"type":"array","x-kubernetes-list-type":"set","maxItems":4,"minItems":1,"items":{"x-kubernetes-int-or-string":true}},
		"lm":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"},"v":{"type":"integer","enum":[1,2]}}}},
		"m":{"type":"object","additionalProperties":{"type":"string","format":"uuid"}},
		"closed":{"type":"object","additionalProperties":false},
		"emb":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
		"any":{"x-kubernetes-preserve-unknown-fields":true},
		"j":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string"}},
			"oneOf":[{"required":["a"]},{"required":["b"]}],"not":{"properties":{"a":{"enum":[0]}}},
			"allOf":[{"properties":{"a":{"minimum":-5}}},{"properties":{"b":{"maxLength":3}}}]}
	}}}}`

// FuzzValidate validates random JSON against a rich schema: it must never
// panic, and must give the same errors every time.
func FuzzValidate(f *testing.F) {
	seeds := []string{
		`{"spec":{"s":"abc","e":"a","i":4,"n":0.5,"ios":"50%","set":[1,"a"],"lm":[{"k":"x","v":1}]}}`,
		`{"spec":{"s":"ABCDEFG","e":"z","i":3000000000,"n":7.1,"ios":1.5,"set":[1,1,1.0],"lm":[{"k":"x"},{"k":"x"},null,"y"]}}`,
		`{"spec":{"f":"2020-01-01T00:00:00Z","h":"-x-","ip":"1.2.3.4/40","m":{"a":"nope"},"closed":{"x":1}}}`,
		`{"spec":{"emb":{"apiVersion":"a/b/c","kind":"k","metadata":{"name":"a/b","labels":{"!":"?"}}}}}`,
		`{"spec":{"j":{"a":0,"b":"long"},"any":{"deep":[[[{}]]]}}}`,
		`{"spec":null}`, `[]`, `null`, `"x"`, `{"spec":{"b":null,"e":null,"set":[],"m":{}}}`,
	}
	for _, s := range seeds {
		f.Add(s)
	}
	s := mustStructural(f, []byte(fuzzSchema))
	v, err := New(s)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data string) {
		obj, err := jsonscan.Decode([]byte(data))
		if err != nil {
			return
		}
		first := strings.Join(errorTexts(v.Validate(crdschema.NewPath("x"), obj)), "\n")
		second := strings.Join(errorTexts(v.Validate(crdschema.NewPath("x"), obj)), "\n")
		if first != second {
			t.Fatalf("not deterministic:\n%s\n---\n%s", first, second)
		}
		objectcheck.EmbeddedMeta(nil, obj, s, true)
		if m, ok := obj.(map[string]any); ok {
			objectcheck.ListSetsAndMaps(nil, m, s)
		}
		v.ValidateUpdate(nil, obj, ratchet.Correlate(obj, obj, s))
	})
}
