package validation_test

// Hostile objects and schemas for the Validator and the list, embedded
// metadata and ObjectMeta checks: bounded time and memory, clear errors,
// no panics, and inputs left alone.

import (
	"encoding/json"
	"fmt"
	"github.com/crdschema/crdschema/internal/objectcheck"
	"math"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/hostile"
	"github.com/crdschema/crdschema/internal/k8snames"
	"github.com/crdschema/crdschema/internal/metavalidation"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// The harness of the hostile-input tests (package internal/hostile).
const hostileLimit = hostile.Limit

var (
	bounded       = hostile.Run
	boundedAlloc  = hostile.RunAlloc
	skipUnderRace = hostile.SkipUnderRace
)

func schemaOf(t testing.TB, j string) *structural.Schema {
	t.Helper()
	var p crdschema.JSONSchemaProps
	if err := json.Unmarshal([]byte(j), &p); err != nil {
		t.Fatal(err)
	}
	s, err := structural.New(&p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func validatorOf(t testing.TB, j string) (*validation.Validator, *structural.Schema) {
	t.Helper()
	s := schemaOf(t, j)
	v, err := validation.New(s)
	if err != nil {
		t.Fatal(err)
	}
	return v, s
}

func keys(errs crdschema.ErrorList) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, string(e.Type)+" "+e.Field+": "+e.Detail)
	}
	sort.Strings(out)
	return out
}

// sameObject is a validation that must leave obj alone: it is run twice,
// with the same errors, and obj is compared with a copy taken before.
func checkValidate(t *testing.T, v *validation.Validator, s *structural.Schema, obj any) crdschema.ErrorList {
	t.Helper()
	before := hostile.Clone(obj)
	var errs, again crdschema.ErrorList
	bounded(t, hostileLimit, func() {
		errs = v.Validate(nil, obj)
		again = v.Validate(nil, obj)
		if m, ok := obj.(map[string]any); ok {
			objectcheck.ListSetsAndMaps(nil, m, s)
		}
		objectcheck.EmbeddedMeta(nil, obj, s, true)
	})
	if !reflect.DeepEqual(keys(errs), keys(again)) {
		t.Error("Validate is not deterministic")
	}
	if !reflect.DeepEqual(obj, before) {
		t.Error("the object was modified")
	}
	return errs
}

const richSchema = `{"type":"object","properties":{
	"any":{"x-kubernetes-preserve-unknown-fields":true},
	"obj":{"type":"object","x-kubernetes-preserve-unknown-fields":true},
	"emb":{"type":"object","x-kubernetes-embedded-resource":true,"x-kubernetes-preserve-unknown-fields":true},
	"s":{"type":"string","maxLength":1000},
	"pat":{"type":"string","pattern":"^(a+)+$"},
	"pat2":{"type":"string","pattern":"(x+x+)+y"},
	"host":{"type":"string","format":"hostname"},
	"dt":{"type":"string","format":"date-time"},
	"uuid":{"type":"string","format":"uuid"},
	"b64":{"type":"string","format":"byte"},
	"cidr":{"type":"string","format":"cidr"},
	"email":{"type":"string","format":"email"},
	"uri":{"type":"string","format":"uri"},
	"enum":{"type":"string","enum":["a","b"]},
	"list":{"type":"array","maxItems":100000,"items":{"type":"string","maxLength":10}},
	"set":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"integer"}},
	"objset":{"type":"array","x-kubernetes-list-type":"set","items":{"type":"object","x-kubernetes-map-type":"atomic","x-kubernetes-preserve-unknown-fields":true}},
	"mlist":{"type":"array","x-kubernetes-list-type":"map","x-kubernetes-list-map-keys":["k"],"items":{"type":"object","required":["k"],"properties":{"k":{"type":"string"},"v":{"type":"integer"}}}},
	"map":{"type":"object","maxProperties":100000,"additionalProperties":{"type":"integer","minimum":0}},
	"i":{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807,"multipleOf":3},
	"i32":{"type":"integer","format":"int32"},
	"f":{"type":"number","minimum":-1e308,"maximum":1e308,"multipleOf":0.5},
	"ffloat":{"type":"number","format":"float"},
	"j":{"type":"object","properties":{"a":{"type":"integer"}},"oneOf":[{"required":["a"]},{"properties":{"a":{"minimum":5}}}],"not":{"properties":{"a":{"enum":[7]}}}}
}}`

func nestedMaps(depth int) map[string]any {
	v := map[string]any{"leaf": "x"}
	for i := 1; i < depth; i++ {
		v = map[string]any{"a": v, "l": []any{int64(i)}}
	}
	return v
}

// TestHostileDeepObject validates objects nested 10,000 (and 100,000)
// deep where the schema preserves unknown fields: accepted.
func TestHostileDeepObject(t *testing.T) {
	skipUnderRace(t)
	v, s := validatorOf(t, richSchema)
	for _, depth := range []int{10000, 100000} {
		obj := map[string]any{"any": nestedMaps(depth), "obj": nestedMaps(depth),
			"emb": map[string]any{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"name": "x"}, "deep": nestedMaps(depth)}}
		if errs := checkValidate(t, v, s, obj); len(errs) > 0 {
			t.Errorf("depth %d: %v", depth, errs)
		}
	}
	// A nil schema accepts anything, however deep.
	nv, err := validation.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	if errs := checkValidate(t, nv, nil, nestedMaps(100000)); len(errs) > 0 {
		t.Error(errs)
	}
}

// TestHostileDeepSchema validates an object that follows a schema nested
// 1,000 deep, with an error at the bottom.
func TestHostileDeepSchema(t *testing.T) {
	skipUnderRace(t)
	const depth = 1000
	j := `{"type":"string","maxLength":3}`
	for range depth {
		j = `{"type":"object","required":["a"],"properties":{"a":` + j + `}}`
	}
	v, s := validatorOf(t, j)
	var obj any = "toolong"
	for range depth {
		obj = map[string]any{"a": obj}
	}
	errs := checkValidate(t, v, s, obj)
	want := []string{"FieldValueTooLong " + strings.TrimPrefix(strings.Repeat(".a", depth), ".") + ": may not be more than 3 bytes"}
	if got := keys(errs); !reflect.DeepEqual(got, want) {
		t.Errorf("errors %.200q", got)
	}
	// And a missing field halfway down.
	var half any = map[string]any{}
	for range depth / 2 {
		half = map[string]any{"a": half}
	}
	if errs := checkValidate(t, v, s, half); len(errs) != 1 || errs[0].Type != crdschema.ErrorTypeRequired {
		t.Errorf("errors %.300v", errs)
	}
}

// TestHostileBigString: a 10 MB string against lengths, slow patterns and
// every format.
func TestHostileBigString(t *testing.T) {
	skipUnderRace(t)
	v, s := validatorOf(t, richSchema)
	big := strings.Repeat("a", 10<<20)
	obj := map[string]any{}
	for _, k := range []string{"s", "pat", "pat2", "host", "dt", "uuid", "b64", "cidr", "email", "uri", "enum"} {
		obj[k] = big
	}
	var errs crdschema.ErrorList
	// Two validations of eleven 10 MB strings (regular expressions and
	// base64 decoding allocate).
	boundedAlloc(t, 1<<30, func() { errs = checkValidate(t, v, s, obj) })
	want := map[string]crdschema.ErrorType{
		// pat matches; b64 is valid base64; uri must be absolute (a
		// request URI).
		// Format failures are type errors, as the API server reports them.
		"s": crdschema.ErrorTypeTooLong, "pat2": crdschema.ErrorTypeInvalid, "enum": crdschema.ErrorTypeNotSupported,
		"uri": crdschema.ErrorTypeTypeInvalid, "host": crdschema.ErrorTypeTypeInvalid, "dt": crdschema.ErrorTypeTypeInvalid,
		"uuid": crdschema.ErrorTypeTypeInvalid, "cidr": crdschema.ErrorTypeTypeInvalid, "email": crdschema.ErrorTypeTypeInvalid,
	}
	got := map[string]crdschema.ErrorType{}
	for _, e := range errs {
		got[e.Field] = e.Type
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("errors by field %v, want %v", got, want)
	}
	// The slow patterns on strings built to make backtracking engines
	// explode.
	obj = map[string]any{"pat": big + "!", "pat2": strings.Repeat("x", 1<<20)}
	errs = checkValidate(t, v, s, obj)
	if len(errs) != 2 {
		t.Errorf("%d errors, want 2", len(errs))
	}
	// A Too long error does not print its value; an Invalid one does, as
	// the API server's.
	for _, e := range errs {
		if e.Type == crdschema.ErrorTypeTooLong && len(e.Error()) > 200 {
			t.Error("Too long prints the value")
		}
	}
}

// TestHostileBigCollections: lists, sets, map lists and maps of 100,000
// entries, valid and with one bad entry at the end.
func TestHostileBigCollections(t *testing.T) {
	skipUnderRace(t)
	v, s := validatorOf(t, richSchema)
	const n = 100000
	list, set, objset, mlist := make([]any, n), make([]any, n), make([]any, n), make([]any, n)
	m := make(map[string]any, n)
	for i := range n {
		list[i] = fmt.Sprint(i)
		set[i] = int64(i)
		objset[i] = map[string]any{"i": int64(i)}
		mlist[i] = map[string]any{"k": fmt.Sprint(i), "v": int64(i)}
		m[fmt.Sprint("k", i)] = int64(i)
	}
	obj := map[string]any{"list": list, "set": set, "objset": objset, "mlist": mlist, "map": m}
	var errs crdschema.ErrorList
	boundedAlloc(t, 512<<20, func() { errs = checkValidate(t, v, s, obj) })
	if len(errs) > 0 {
		t.Errorf("%d errors, first %v", len(errs), errs[0])
	}
	var lerrs crdschema.ErrorList
	bounded(t, hostileLimit, func() { lerrs = objectcheck.ListSetsAndMaps(nil, obj, s) })
	if len(lerrs) > 0 {
		t.Errorf("list errors %v", lerrs)
	}
	list[n-1], set[n-1], objset[n-1], mlist[n-1], m["k99999"] = "elevenchars", int64(0), map[string]any{"i": int64(0)}, map[string]any{"k": "0"}, int64(-1)
	errs = checkValidate(t, v, s, obj)
	bounded(t, hostileLimit, func() { lerrs = objectcheck.ListSetsAndMaps(nil, obj, s) })
	want := []string{
		"FieldValueDuplicate mlist[99999]: ",
		"FieldValueDuplicate objset[99999]: ",
		"FieldValueDuplicate set[99999]: ",
		"FieldValueInvalid map.k99999: map.k99999 in body should be greater than or equal to 0",
		"FieldValueTooLong list[99999]: may not be more than 10 bytes",
	}
	if got := keys(errs); !reflect.DeepEqual(got, want) {
		t.Errorf("errors\n%q\nwant\n%q", got, want)
	}
	want = want[:3] // the list checks alone
	if got := keys(lerrs); !reflect.DeepEqual(got, want) {
		t.Errorf("errors\n%q\nwant\n%q", got, want)
	}
}

// TestHostileNumbers: numbers at the edges of int64 and float64, and the
// non-JSON NaN and infinities an in-memory object can hold. The expected
// texts are the API server's (conformance case
// pipeline/hostile-number-edges).
func TestHostileNumbers(t *testing.T) {
	skipUnderRace(t)
	v, s := validatorOf(t, richSchema)
	tests := []struct {
		obj  map[string]any
		want []string
	}{
		{map[string]any{"i": int64(math.MaxInt64)}, []string{
			"FieldValueInvalid <nil>: Maximum boundary value must be of type integer (default format) in i",
			"FieldValueInvalid <nil>: Minimum boundary value must be of type integer (default format) in i",
			"FieldValueInvalid i: i in body should be a multiple of 3",
		}},
		{map[string]any{"i32": int64(math.MinInt64)}, []string{"FieldValueInvalid <nil>: Checked value must be of type integer with format int32 in i32"}},
		{map[string]any{"f": 1e308}, []string{"FieldValueInvalid f: f in body should be a multiple of 0.5"}},
		{map[string]any{"f": 5e-324}, []string{"FieldValueInvalid f: f in body should be a multiple of 0.5"}},
		{map[string]any{"i": 18446744073709551616.0}, []string{
			"FieldValueInvalid <nil>: Checked value must be of type integer (default format) in i",
			"FieldValueInvalid <nil>: Maximum boundary value must be of type integer (default format) in i",
			"FieldValueInvalid <nil>: Minimum boundary value must be of type integer (default format) in i",
			"FieldValueInvalid i: i in body should be a multiple of 3",
			"FieldValueInvalid i: i in body should be less than or equal to 9.223372036854776e+18",
			"FieldValueTypeInvalid i: i in body must be of type integer: \"number\"",
		}},
	}
	for _, tc := range tests {
		if got := keys(checkValidate(t, v, s, tc.obj)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v:\n%s\nwant\n%s", tc.obj, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
	// NaN and infinities cannot come from JSON; they must not crash.
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), math.SmallestNonzeroFloat64, math.MaxFloat64} {
		obj := map[string]any{"f": x, "ffloat": x, "i": x, "set": []any{x, x}, "objset": []any{map[string]any{"x": x}, map[string]any{"x": x}},
			"mlist": []any{map[string]any{"k": "a", "v": x}}, "map": map[string]any{"a": x}, "enum": x, "s": x}
		// (NaN is not DeepEqual to itself: compare the printed forms.)
		before := fmt.Sprint(obj)
		bounded(t, hostileLimit, func() {
			for _, e := range v.Validate(nil, obj) {
				_ = e.Error()
			}
			objectcheck.ListSetsAndMaps(nil, obj, s)
		})
		if fmt.Sprint(obj) != before {
			t.Errorf("%v: the object was modified", x)
		}
	}
}

// TestHostileInvalidUTF8: invalid UTF-8 in keys and values gives the same
// result every time; lengths count runes as the API server does (an
// invalid byte is one rune).
func TestHostileInvalidUTF8(t *testing.T) {
	skipUnderRace(t)
	v, s := validatorOf(t, richSchema)
	bad := "a\xff\xfeb"
	obj := map[string]any{"s": bad, "pat": bad, "host": bad, "email": bad, "uri": bad, "uuid": bad, "dt": bad, "b64": bad, "cidr": bad, "enum": bad,
		"list": []any{bad}, "set": []any{bad, bad}, "mlist": []any{map[string]any{"k": bad}, map[string]any{"k": bad}},
		"map": map[string]any{bad: int64(1)}, bad: bad, "emb": map[string]any{"apiVersion": bad, "kind": bad, "metadata": map[string]any{"name": bad, "labels": map[string]any{bad: bad}}}}
	errs := checkValidate(t, v, s, obj)
	if len(errs) == 0 {
		t.Error("no errors")
	}
	l, _ := validatorOf(t, `{"type":"object","properties":{"s":{"type":"string","maxLength":4}}}`)
	for _, tc := range []struct {
		s  string
		ok bool
	}{{"\xff\xff\xff\xff", true}, {"\xff\xff\xff\xff\xff", false}, {"ééé", true}, {"\xc3", true}} {
		if errs := l.Validate(nil, map[string]any{"s": tc.s}); (len(errs) == 0) != tc.ok {
			t.Errorf("%q: %v", tc.s, errs)
		}
	}
	meta := &crdschema.ObjectMeta{Name: bad, Namespace: bad, GenerateName: bad, Labels: map[string]string{bad: bad}, Annotations: map[string]string{bad: bad}, Finalizers: []string{bad}}
	before := hostile.Clone(meta)
	var merrs crdschema.ErrorList
	bounded(t, hostileLimit, func() {
		merrs = metavalidation.ValidateObjectMeta(meta, true, metavalidation.NameIsDNSSubdomain, crdschema.NewPath("metadata"))
		metavalidation.ValidateObjectMetaUpdate(meta, meta, crdschema.NewPath("metadata"))
	})
	if len(merrs) == 0 {
		t.Error("ObjectMeta with invalid UTF-8: no errors")
	}
	if !reflect.DeepEqual(meta, before) {
		t.Error("ValidateObjectMeta modified the metadata")
	}
}

// TestHostileObjectMeta: huge metadata (10 MB names and annotations,
// 100,000 labels and finalizers) is refused in bounded time.
func TestHostileObjectMeta(t *testing.T) {
	skipUnderRace(t)
	big := strings.Repeat("a", 10<<20)
	labels := make(map[string]string, 100000)
	for i := range 100000 {
		labels[fmt.Sprint("l", i)] = "v"
	}
	fin := make([]string, 100000)
	for i := range fin {
		fin[i] = fmt.Sprint("example.com/f", i)
	}
	meta := &crdschema.ObjectMeta{Name: big, GenerateName: big, Labels: labels, Annotations: map[string]string{"a": big}, Finalizers: fin}
	var errs crdschema.ErrorList
	boundedAlloc(t, 512<<20, func() {
		errs = metavalidation.ValidateObjectMeta(meta, false, metavalidation.NameIsDNSSubdomain, crdschema.NewPath("metadata"))
	})
	found := map[string]bool{}
	for _, e := range errs {
		found[e.Field] = true
	}
	for _, f := range []string{"metadata.name", "metadata.annotations"} {
		if !found[f] {
			t.Errorf("no error for %s: %v", f, found)
		}
	}
	for _, s := range []string{big, string(make([]byte, 1<<20))} {
		bounded(t, hostileLimit, func() {
			k8snames.IsDNS1123Subdomain(s)
			k8snames.IsQualifiedName(s)
			k8snames.IsValidLabelValue(s)
			metavalidation.NameIsDNS1035Label(s, true)
			metavalidation.NameIsPathSegment(s, false)
		})
	}
}
