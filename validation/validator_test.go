package validation

import (
	"encoding/json"
	"testing"

	"github.com/crdschema/crdschema/internal/objectcheck"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonscan"
)

func mustValidator(t testing.TB, schema string, opts ...Option) *Validator {
	t.Helper()
	v, err := New(mustStructural(t, []byte(schema)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func mustObject(t testing.TB, s string) any {
	t.Helper()
	v, err := jsonscan.Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// specSchema wraps the schema of spec's properties in a CR root schema.
func specSchema(props string) string {
	return `{"type":"object","properties":{"spec":{"type":"object","properties":` + props + `}}}`
}

// The expected texts come from upstream (UPSTREAM.md §3 probes, the
// conformance goldens) or follow its message templates.
func TestValidateKeywords(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		obj    string
		want   []string
	}{
		{"maxLength in runes", specSchema(`{"s":{"type":"string","maxLength":3}}`), `{"spec":{"s":"ééé"}}`, nil},
		{"maxLength", specSchema(`{"s":{"type":"string","maxLength":3}}`), `{"spec":{"s":"abcd"}}`,
			[]string{"spec.s: Too long: may not be more than 3 bytes"}},
		{"minLength", specSchema(`{"s":{"type":"string","minLength":2}}`), `{"spec":{"s":"b"}}`,
			[]string{`spec.s: Invalid value: "b": spec.s in body should be at least 2 chars long`}},
		{"only the first string failure", specSchema(`{"s":{"type":"string","maxLength":1,"pattern":"^x$"}}`), `{"spec":{"s":"ab"}}`,
			[]string{"spec.s: Too long: may not be more than 1 byte"}},
		{"pattern", specSchema(`{"s":{"type":"string","pattern":"^a+$"}}`), `{"spec":{"s":"b"}}`,
			[]string{`spec.s: Invalid value: "b": spec.s in body should match '^a+$'`}},
		{"invalid pattern", specSchema(`{"s":{"type":"string","pattern":"(a"}}`), `{"spec":{"s":"b"}}`,
			[]string{"spec.s: Invalid value: \"b\": spec.s in body should match '(a, but pattern is invalid: error parsing regexp: missing closing ): `(a`'"}},
		{"maxItems", specSchema(`{"arr":{"type":"array","maxItems":1,"items":{"type":"integer"}}}`), `{"spec":{"arr":[1,2]}}`,
			[]string{"spec.arr: Too many: 2: must have at most 1 item"}},
		{"minItems", specSchema(`{"arr":{"type":"array","minItems":3,"items":{"type":"integer"}}}`), `{"spec":{"arr":[1,2]}}`,
			[]string{"spec.arr: Invalid value: 2: spec.arr in body should have at least 3 items"}},
		{"multipleOf int", specSchema(`{"i32":{"type":"integer","format":"int32","multipleOf":3}}`), `{"spec":{"i32":4}}`,
			[]string{"spec.i32: Invalid value: 4: spec.i32 in body should be a multiple of 3"}},
		{"multipleOf float-safe", specSchema(`{"n":{"type":"number","multipleOf":0.1}}`), `{"spec":{"n":0.3}}`, nil},
		{"multipleOf float", specSchema(`{"n":{"type":"number","multipleOf":0.1}}`), `{"spec":{"n":0.35}}`,
			[]string{"spec.n: Invalid value: 0.35: spec.n in body should be a multiple of 0.1"}},
		{"multipleOf truncated for integers", specSchema(`{"n":{"type":"number","multipleOf":0.5}}`), `{"spec":{"n":3}}`,
			[]string{"spec.n: Invalid value: 0: factor MultipleOf declared for spec.n must be positive: 0"}},
		{"enum string", specSchema(`{"e":{"type":"string","enum":["a","b"]}}`), `{"spec":{"e":"c"}}`,
			[]string{`spec.e: Unsupported value: "c": supported values: "a", "b"`}},
		{"enum int", specSchema(`{"en":{"type":"integer","enum":[1,2]}}`), `{"spec":{"en":3}}`,
			[]string{`spec.en: Unsupported value: 3: supported values: "1", "2"`}},
		{"enum float truncated to int", specSchema(`{"en":{"type":"number","enum":[1,2]}}`), `{"spec":{"en":2.7}}`, nil},
		{"enum int as character", specSchema(`{"en":{"x-kubernetes-int-or-string":true,"enum":["a"]}}`), `{"spec":{"en":97}}`, nil},
		{"enum object by type", specSchema(`{"o":{"type":"object","x-kubernetes-preserve-unknown-fields":true,"enum":[{"a":1}]}}`), `{"spec":{"o":{"a":1.0}}}`,
			[]string{`spec.o: Unsupported value: {"a":1}: supported values: "{\"a\":1}"`}},
		{"enum null with nullable", specSchema(`{"n":{"type":"string","nullable":true,"enum":["x"]}}`), `{"spec":{"n":null}}`,
			[]string{`spec.n: Unsupported value: null: supported values: "x"`}},
		{"required", specSchema(`{"req":{"type":"string"}}`), `{"spec":{}}`, nil},
		{"required missing", `{"type":"object","properties":{"spec":{"type":"object","required":["req"],"properties":{"req":{"type":"string"}}}}}`,
			`{"spec":{}}`, []string{"spec.req: Required value"}},
		{"required at the root", `{"type":"object","required":["spec"],"properties":{"spec":{"type":"object"}}}`, `{}`,
			[]string{"spec: Required value"}},
		{"type boolean", specSchema(`{"b":{"type":"boolean"}}`), `{"spec":{"b":"true"}}`,
			[]string{`spec.b: Invalid value: "string": spec.b in body must be of type boolean: "string"`}},
		{"null object", specSchema(`{}`), `{"spec":null}`,
			[]string{`spec: Invalid value: "null": spec in body must be of type object: "null"`}},
		{"nullable", specSchema(`{"o":{"type":"object","nullable":true}}`), `{"spec":{"o":null}}`, nil},
		{"root type", `{"type":"object"}`, `[]`,
			[]string{`<nil>: Invalid value: "array":  in body must be of type object: "array"`}},
		{"integral float for integer", specSchema(`{"i":{"type":"integer"}}`), `{"spec":{"i":2.0}}`, nil},
		{"float for integer", specSchema(`{"i":{"type":"integer"}}`), `{"spec":{"i":1.5}}`,
			[]string{
				`<nil>: Invalid value: "": Checked value must be of type integer (default format) in spec.i`,
				`spec.i: Invalid value: "number": spec.i in body must be of type integer: "number"`,
			}},
		{"int32 range", specSchema(`{"i32":{"type":"integer","format":"int32"}}`), `{"spec":{"i32":3000000000}}`,
			[]string{`<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.i32`}},
		{"float for int32", specSchema(`{"i32":{"type":"integer","format":"int32"}}`), `{"spec":{"i32":1.5}}`,
			[]string{
				`<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.i32`,
				`spec.i32: Invalid value: "float64": spec.i32 in body must be of type int32: "float64"`,
			}},
		{"unsupported integer format cleared", specSchema(`{"u":{"type":"integer","format":"uint32"}}`), `{"spec":{"u":-3}}`, nil},
		{"exclusive bounds", specSchema(`{"r":{"type":"number","minimum":0,"exclusiveMinimum":true,"maximum":1,"exclusiveMaximum":true}}`),
			`{"spec":{"r":1}}`, []string{"spec.r: Invalid value: 1: spec.r in body should be less than 1"}},
		{"fractional bound on integer", specSchema(`{"f":{"type":"integer","maximum":2.5}}`), `{"spec":{"f":3}}`,
			[]string{
				`<nil>: Invalid value: "": Maximum boundary value must be of type integer (default format) in spec.f`,
				"spec.f: Invalid value: 3: spec.f in body should be less than or equal to 2.5",
			}},
		{"maxProperties", specSchema(`{"m":{"type":"object","additionalProperties":{"type":"string"},"maxProperties":1}}`), `{"spec":{"m":{"a":"","b":""}}}`,
			[]string{"spec.m: Too many: 2: must have at most 1 item"}},
		{"minProperties", specSchema(`{"m":{"type":"object","additionalProperties":{"type":"string"},"minProperties":1}}`), `{"spec":{"m":{}}}`,
			[]string{"spec.m: Invalid value: 0: spec.m in body should have at least 1 properties"}},
		{"additionalProperties false", specSchema(`{"m":{"type":"object","additionalProperties":false}}`), `{"spec":{"m":{"x":{}}}}`,
			[]string{`spec.m: Invalid value: "x": spec.m.x in body is a forbidden property`}},
		{"additionalProperties schema", specSchema(`{"m":{"type":"object","additionalProperties":{"type":"integer","minimum":0}}}`), `{"spec":{"m":{"a.b":-1}}}`,
			[]string{"spec.m.a.b: Invalid value: -1: spec.m.a.b in body should be greater than or equal to 0"}},
		{"format", specSchema(`{"email":{"type":"string","format":"email"}}`), `{"spec":{"email":"nope"}}`,
			[]string{`spec.email: Invalid value: "nope": spec.email in body must be of type email: "nope"`}},
		{"unknown format ignored", specSchema(`{"x":{"type":"string","format":"nonsense"}}`), `{"spec":{"x":"nope"}}`, nil},
		{"items path", specSchema(`{"a":{"type":"array","items":{"type":"string"}}}`), `{"spec":{"a":["x",1]}}`,
			[]string{`spec.a[1]: Invalid value: "integer": spec.a[1] in body must be of type string: "integer"`}},
		{"int-or-string", specSchema(`{"p":{"x-kubernetes-int-or-string":true}}`), `{"spec":{"p":true}}`,
			[]string{`spec.p: Invalid value: "boolean": spec.p in body must be of type integer,string: "boolean"`}},
		{"anyOf", specSchema(`{"any":{"type":"string","anyOf":[{"maxLength":1},{"pattern":"^b"}]}}`), `{"spec":{"any":"ab"}}`,
			[]string{
				`<nil>: Invalid value: "": "spec.any" must validate at least one schema (anyOf)`,
				"spec.any: Too long: may not be more than 1 byte",
			}},
		{"anyOf passes", specSchema(`{"any":{"type":"string","anyOf":[{"maxLength":1},{"pattern":"^a"}]}}`), `{"spec":{"any":"ab"}}`, nil},
		{"oneOf none", specSchema(`{"o":{"type":"integer","oneOf":[{"minimum":5},{"maximum":1}]}}`), `{"spec":{"o":3}}`,
			[]string{
				`<nil>: Invalid value: "": "spec.o" must validate one and only one schema (oneOf). Found none valid`,
				"spec.o: Invalid value: 3: spec.o in body should be greater than or equal to 5",
			}},
		{"oneOf two", specSchema(`{"o":{"type":"integer","oneOf":[{"minimum":1},{"maximum":5}]}}`), `{"spec":{"o":3}}`,
			[]string{`<nil>: Invalid value: "": "spec.o" must validate one and only one schema (oneOf). Found 2 valid alternatives`}},
		{"allOf", specSchema(`{"a":{"type":"integer","allOf":[{"minimum":5},{"maximum":1}]}}`), `{"spec":{"a":3}}`,
			[]string{
				`<nil>: Invalid value: "": "spec.a" must validate all the schemas (allOf). None validated`,
				"spec.a: Invalid value: 3: spec.a in body should be greater than or equal to 5",
				"spec.a: Invalid value: 3: spec.a in body should be less than or equal to 1",
			}},
		{"allOf duplicates dropped", specSchema(`{"a":{"type":"integer","maximum":1,"allOf":[{"maximum":1},{"maximum":1}]}}`), `{"spec":{"a":3}}`,
			[]string{
				`<nil>: Invalid value: "": "spec.a" must validate all the schemas (allOf). None validated`,
				"spec.a: Invalid value: 3: spec.a in body should be less than or equal to 1",
			}},
		{"not", specSchema(`{"n":{"type":"string","not":{"enum":["x"]}}}`), `{"spec":{"n":"x"}}`,
			[]string{`<nil>: Invalid value: "": "spec.n" must not validate the schema (not)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := mustValidator(t, tt.schema)
			checkErrors(t, v.Validate(nil, mustObject(t, tt.obj)), tt.want)
		})
	}
}

func TestValidateFieldPathPrefix(t *testing.T) {
	v := mustValidator(t, `{"type":"object","required":["r"],"properties":{"i":{"type":"integer","format":"int32"},"m":{"type":"object","additionalProperties":false}}}`)
	checkErrors(t, v.Validate(crdschema.NewPath("status"), mustObject(t, `{"i":3000000000,"m":{"x":1}}`)), []string{
		`status: Invalid value: "": Checked value must be of type integer with format int32 in i`,
		"status.r: Required value",
		`status.m: Invalid value: "x": m.x in body is a forbidden property`,
	})
}

func TestValidateCompatibilityVersion(t *testing.T) {
	schema := specSchema(`{"n":{"type":"string","format":"k8s-short-name"}}`)
	obj := mustObject(t, `{"spec":{"n":"Not_Valid"}}`)
	checkErrors(t, mustValidator(t, schema).Validate(nil, obj), []string{
		`spec.n: Invalid value: "Not_Valid": spec.n in body must be of type k8s-short-name: "Not_Valid"`,
	})
	checkErrors(t, mustValidator(t, schema, withCompatibilityVersion(33)).Validate(nil, obj), nil)
}

func TestValidateDoesNotModify(t *testing.T) {
	v := mustValidator(t, specSchema(`{"a":{"type":"array","items":{"type":"integer","minimum":3}}}`))
	obj := mustObject(t, `{"spec":{"a":[1,2.5,"x"]}}`)
	before, _ := json.Marshal(obj)
	v.Validate(nil, obj)
	after, _ := json.Marshal(obj)
	if string(before) != string(after) {
		t.Errorf("object modified: %s -> %s", before, after)
	}
}

func TestValidateNilSchema(t *testing.T) {
	v, err := New(nil)
	if err != nil {
		t.Fatal(err)
	}
	if errs := v.Validate(nil, map[string]any{"x": 1}); errs != nil {
		t.Errorf("nil schema: %v", errs)
	}
}

// TestValidateDeep checks that deeply nested values neither crash nor take
// long: recursion follows the schema, and unknown fields are not walked.
func TestValidateDeep(t *testing.T) {
	v := mustValidator(t, specSchema(`{"x":{"type":"object","x-kubernetes-preserve-unknown-fields":true},"l":{"type":"array","items":{"x-kubernetes-preserve-unknown-fields":true}}}`))
	var deep any = "leaf"
	for i := 0; i < 10000; i++ {
		deep = map[string]any{"a": deep, "l": []any{deep}}
		if i > 20 {
			// keep the size linear
			deep = map[string]any{"a": deep}
		}
	}
	obj := map[string]any{"spec": map[string]any{"x": deep, "l": []any{deep, deep}}}
	if errs := v.Validate(nil, obj); len(errs) != 0 {
		t.Fatal(errs)
	}
	if errs := objectcheck.ListSetsAndMaps(nil, obj, mustStructural(t, []byte(specSchema(`{"x":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}`)))); len(errs) != 0 {
		t.Fatal(errs)
	}
}

// TestValidatePathologicalPattern checks that a pattern with nested
// quantifiers runs in linear time (Go's regexp guarantees it).
func TestValidatePathologicalPattern(t *testing.T) {
	v := mustValidator(t, specSchema(`{"s":{"type":"string","pattern":"^(a+)+$"}}`))
	s := make([]byte, 100000)
	for i := range s {
		s[i] = 'a'
	}
	s[len(s)-1] = '!'
	errs := v.Validate(nil, map[string]any{"spec": map[string]any{"s": string(s)}})
	if len(errs) != 1 {
		t.Fatalf("want 1 error, got %v", errs)
	}
}

// TestValidateStatus follows the API server's status updates: a validator
// of the status schema alone, with paths below "status". The expected texts
// are upstream's (conformance case validation/status-and-root-paths).
func TestValidateStatus(t *testing.T) {
	s := mustStructural(t, []byte(`{"type":"object","required":["spec"],"properties":{
		"spec":{"type":"object","additionalProperties":{"type":"integer","format":"int32","maximum":5}},
		"status":{"type":"object","required":["phase"],"properties":{
			"phase":{"type":"string","enum":["A","B"]},
			"count":{"type":"integer","format":"int32"},
			"any":{"type":"string","anyOf":[{"maxLength":1},{"pattern":"^b"}]}}}}}`))
	v, err := New(s.Properties["status"])
	if err != nil {
		t.Fatal(err)
	}
	checkErrors(t, v.Validate(crdschema.NewPath("status"), mustObject(t, `{"phase":"C","count":5000000000,"any":"xyz"}`)), []string{
		`status: Invalid value: "": "any" must validate at least one schema (anyOf)`,
		`status: Invalid value: "": Checked value must be of type integer with format int32 in count`,
		"status.any: Too long: may not be more than 1 byte",
		`status.phase: Unsupported value: "C": supported values: "A", "B"`,
	})
	root, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	checkErrors(t, root.Validate(nil, mustObject(t, `{}`)), []string{"spec: Required value"})
	checkErrors(t, root.Validate(nil, mustObject(t, `{"spec":{"a.b":7,"c":5000000000}}`)), []string{
		`<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.c`,
		"spec.a.b: Invalid value: 7: spec.a.b in body should be less than or equal to 5",
		"spec.c: Invalid value: 5000000000: spec.c in body should be less than or equal to 5",
	})
}

// withCompatibilityVersion selects the Kubernetes compatibility version
// 1.minor whose format set applies: formats introduced later (for example
// k8s-short-name and k8s-long-name, added in 1.34) are then not checked.
func withCompatibilityVersion(minor int) Option {
	return func(o *options) { o.Minor = minor }
}
