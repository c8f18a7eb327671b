package manifest

// Hostile documents for decoding: deep, huge, numeric edges, invalid
// UTF-8. Each gives a clear error or the right value, in bounded time.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/hostile"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/yamljson"
	sigsyaml "sigs.k8s.io/yaml"
)

// The harness of the hostile-input tests (package internal/hostile).
const hostileLimit = hostile.Limit

var (
	bounded       = hostile.Run
	boundedAlloc  = hostile.RunAlloc
	skipUnderRace = hostile.SkipUnderRace
)

// decodeBoth decodes data with UnmarshalObject and a Decoder, checking
// that data is not modified and that both agree.
func decodeBoth(t *testing.T, data []byte) (map[string]any, error) {
	t.Helper()
	before := bytes.Clone(data)
	var obj map[string]any
	var err, rerr error
	var objs []map[string]any
	bounded(t, hostileLimit, func() {
		obj, err = UnmarshalObject(data)
		objs, rerr = readObjects(data)
	})
	if !bytes.Equal(data, before) {
		t.Error("the input was modified")
	}
	if (err == nil) != (rerr == nil) {
		t.Errorf("UnmarshalObject: %v, Decoder: %v", err, rerr)
	} else if err == nil && (len(objs) != 1 || !reflect.DeepEqual(objs[0], obj)) {
		t.Error("UnmarshalObject and the Decoder differ")
	}
	return obj, err
}

// TestHostileDeepDocuments: JSON nested up to the decoder's limit of
// 10,000 levels decodes, beyond it fails clearly; YAML likewise (block
// and flow style).
func TestHostileDeepDocuments(t *testing.T) {
	skipUnderRace(t)
	deepJSON := func(depth int) []byte {
		return []byte(strings.Repeat(`{"a":`, depth-1) + `{}` + strings.Repeat(`}`, depth-1))
	}
	for _, tc := range []struct {
		name    string
		data    []byte
		wantErr string
	}{
		{"JSON 10,000", deepJSON(10000), ""},
		{"JSON 10,001", deepJSON(10001), "exceeded max depth"},
		{"JSON 1,000,000", deepJSON(1000000), "exceeded max depth"},
		{"JSON lists 10,001", []byte(`{"a":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`), "exceeded max depth"},
		{"YAML flow 9,000", []byte("a: " + strings.Repeat("[", 9000) + strings.Repeat("]", 9000)), ""},
		{"YAML flow 1,000,000", []byte("a: " + strings.Repeat("{b: ", 1000000) + "1" + strings.Repeat("}", 1000000)), "max depth"},
		{"YAML block 20,000", blockYAML(20000), "max depth"},
		{"YAML block 5,000", blockYAML(5000), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeBoth(t, tc.data)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("error %.300v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %.300v, want one containing %q", err, tc.wantErr)
			}
			if err != nil && len(err.Error()) > 1000 {
				t.Errorf("an error of %d bytes", len(err.Error()))
			}
		})
	}
}

// blockYAML returns a block-style mapping nested depth levels deep.
func blockYAML(depth int) []byte {
	var b bytes.Buffer
	for i := range depth {
		b.WriteString(strings.Repeat(" ", i))
		b.WriteString("a:\n")
	}
	b.WriteString(strings.Repeat(" ", depth))
	b.WriteString("b: 1\n")
	return b.Bytes()
}

// TestHostileBigDocuments: a 10 MB string, a list of 100,000 items, a map
// of 100,000 keys, 10,000 documents in one stream, in JSON and YAML.
func TestHostileBigDocuments(t *testing.T) {
	skipUnderRace(t)
	big := strings.Repeat("a", 10<<20)
	var list, mapJSON, mapYAML, stream bytes.Buffer
	list.WriteString(`{"l":[`)
	mapJSON.WriteString(`{"m":{`)
	mapYAML.WriteString("m:\n")
	for i := range 100000 {
		if i > 0 {
			list.WriteString(",")
			mapJSON.WriteString(",")
		}
		fmt.Fprintf(&list, "%d", i)
		fmt.Fprintf(&mapJSON, `"k%d":%d`, i, i)
		fmt.Fprintf(&mapYAML, "  k%d: %d\n", i, i)
	}
	list.WriteString("]}")
	mapJSON.WriteString("}}")
	for i := range 10000 {
		fmt.Fprintf(&stream, "---\nkind: K\nmetadata:\n  name: n%d\n", i)
	}
	for _, tc := range []struct {
		name  string
		data  []byte
		check func(map[string]any) bool
	}{
		{"JSON string", []byte(`{"s":"` + big + `"}`), func(o map[string]any) bool { return o["s"] == big }},
		{"YAML string", []byte("s: " + big), func(o map[string]any) bool { return o["s"] == big }},
		{"JSON list", list.Bytes(), func(o map[string]any) bool { l := o["l"].([]any); return len(l) == 100000 && l[99999] == int64(99999) }},
		{"JSON map", mapJSON.Bytes(), func(o map[string]any) bool {
			m := o["m"].(map[string]any)
			return len(m) == 100000 && m["k99999"] == int64(99999)
		}},
		{"YAML map", mapYAML.Bytes(), func(o map[string]any) bool {
			m := o["m"].(map[string]any)
			return len(m) == 100000 && m["k99999"] == int64(99999)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var obj map[string]any
			var err error
			boundedAlloc(t, 1<<30, func() { obj, err = decodeBoth(t, tc.data) })
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(obj) {
				t.Error("wrong value")
			}
		})
	}
	var objs []map[string]any
	var err error
	bounded(t, hostileLimit, func() { objs, err = readObjects(stream.Bytes()) })
	if err != nil || len(objs) != 10000 || objs[9999]["metadata"].(map[string]any)["name"] != "n9999" {
		t.Errorf("stream: %d objects, %v", len(objs), err)
	}
}

// TestHostileNumbers: numbers at the edges of int64 and float64 in JSON
// and YAML, decoded as the API server decodes request bodies.
func TestHostileNumbers(t *testing.T) {
	for _, tc := range []struct {
		lit     string
		want    any
		wantErr bool
	}{
		{"9223372036854775807", int64(math.MaxInt64), false},
		{"-9223372036854775808", int64(math.MinInt64), false},
		{"9223372036854775808", 9223372036854775808.0, false},
		{"18446744073709551616", 18446744073709551616.0, false},
		{"-9223372036854775809", -9223372036854775809.0, false},
		{"1e308", 1e308, false},
		{"-1e308", -1e308, false},
		{"1.7976931348623157e308", math.MaxFloat64, false},
		{"5e-324", 5e-324, false},
		{"1e-400", 0.0, false},
		{"1e400", nil, true},
		{"-1e400", nil, true},
		{"1.0", 1.0, false},
		{"-0", int64(0), false},
		{"100000000000000000000000000000000000000000", 1e41, false},
	} {
		for _, format := range []string{`{"v":%s}`, "v: %s\n", "v: [%s]\n"} {
			data := []byte(fmt.Sprintf(format, tc.lit))
			obj, err := decodeBoth(t, data)
			want := tc.want
			if format[0] != '{' {
				// YAML: what sigs.k8s.io/yaml makes of it (a float out of
				// range is a string, 1.0 the integer 1, ...).
				j, yerr := sigsyaml.YAMLToJSON(data)
				if yerr != nil || err != nil {
					if (yerr == nil) != (err == nil) {
						t.Errorf("%q: error %v, sigs.k8s.io/yaml's %v", data, err, yerr)
					}
					continue
				}
				ref, _ := jsonscan.Decode(j)
				want = ref.(map[string]any)["v"]
				if l, ok := want.([]any); ok && len(l) == 1 {
					want = l[0]
				}
			} else if (err != nil) != tc.wantErr {
				t.Errorf("%q: error %v", data, err)
				continue
			}
			if err != nil {
				continue
			}
			got := obj["v"]
			if l, ok := got.([]any); ok && len(l) == 1 {
				got = l[0]
			}
			if got != want {
				t.Errorf("%q: %#v, want %#v", data, got, want)
			}
		}
	}
	// Infinities and NaN have no JSON form.
	for _, lit := range []string{".inf", "-.Inf", ".nan"} {
		if _, err := decodeBoth(t, []byte("v: "+lit)); err == nil {
			t.Errorf("%s: no error", lit)
		}
	}
	// jsonscan.Decode takes any JSON value.
	if v, err := jsonscan.Decode([]byte("18446744073709551616")); err != nil || v != 18446744073709551616.0 {
		t.Errorf("jsonscan.Decode: %v %v", v, err)
	}
}

// TestHostileInvalidUTF8: invalid UTF-8 in JSON strings and keys becomes
// U+FFFD, as in the API server's decoder; in YAML it is an error.
func TestHostileInvalidUTF8(t *testing.T) {
	obj, err := decodeBoth(t, []byte("{\"a\xff\":\"b\xfe\"}"))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(obj, map[string]any{"a\ufffd": "b\ufffd"}) {
		t.Errorf("%q", obj)
	}
	if _, err := decodeBoth(t, []byte("a\xff: b\xfe\n")); err == nil {
		t.Error("YAML with invalid UTF-8: no error")
	}
	if _, _, err := UnmarshalCRD([]byte("{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\",\"metadata\":{\"name\":\"a\xff\"}}")); err != nil {
		t.Errorf("UnmarshalCRD: %v", err)
	}
}

// TestHostileCRDDocuments: CRDs with a schema nested 1,000 deep (decoded)
// and 6,000 deep (beyond the JSON depth limit: a clear error), and with
// 3,000 rules.
func TestHostileCRDDocuments(t *testing.T) {
	skipUnderRace(t)
	crd := func(schema string) []byte {
		return []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.b"},"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":` + schema + `}}]}}`)
	}
	nest := func(depth int) string {
		return strings.Repeat(`{"type":"object","properties":{"a":`, depth) + `{"type":"string"}` + strings.Repeat("}}", depth)
	}
	var rules strings.Builder
	for i := range 3000 {
		if i > 0 {
			rules.WriteString(",")
		}
		fmt.Fprintf(&rules, `{"rule":"self.size() > %d"}`, i)
	}
	for _, tc := range []struct {
		name    string
		data    []byte
		wantErr bool
	}{
		{"1,000 deep", crd(nest(1000)), false},
		{"6,000 deep", crd(nest(6000)), true},
		{"3,000 rules", crd(`{"type":"object","x-kubernetes-validations":[` + rules.String() + `]}`), false},
		{"10 MB description", crd(`{"type":"object","description":"` + strings.Repeat("d", 10<<20) + `"}`), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var def *crdschema.CustomResourceDefinition
			var err error
			before := bytes.Clone(tc.data)
			bounded(t, hostileLimit, func() {
				def, _, err = UnmarshalCRD(tc.data)
				readCRDs(tc.data)
			})
			if (err != nil) != tc.wantErr {
				t.Errorf("error %.300v", err)
			}
			if err == nil && def == nil {
				t.Error("no CRD and no error")
			}
			if !bytes.Equal(tc.data, before) {
				t.Error("the input was modified")
			}
		})
	}
}

// TestConcurrentDecoding decodes documents from many goroutines (run with
// -race): the package keeps no shared state.
func TestConcurrentDecoding(t *testing.T) {
	docs := [][]byte{
		[]byte("a: 1\nb: [1.0, x, {c: null}]\n---\nd: 2\n"),
		[]byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"a.b"},"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object","xml":{}}}}]}}`),
		[]byte("n: 18446744073709551616\nm: 9223372036854775807\n"),
	}
	run := func(i int) string {
		objs, err := readObjects(docs[i])
		def, unknown, cerr := UnmarshalCRD(docs[i])
		b, _ := json.Marshal(def)
		return fmt.Sprint(objs, err, string(b), unknown, cerr)
	}
	want := make([]string, len(docs))
	for i := range docs {
		want[i] = run(i)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 30 {
				i := (g + k) % len(docs)
				if got := run(i); got != want[i] {
					t.Errorf("document %d: %s\nwant %s", i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestHostileJSONLookalikes: documents that start like JSON but are not:
// an error, never a document that is not JSON. YAML flow style that starts
// with { is refused too, as kubectl, which decodes such input as JSON,
// refuses it.
func TestHostileJSONLookalikes(t *testing.T) {
	for _, tc := range []struct {
		doc     string
		want    map[string]any
		wantErr bool
	}{
		{`{apiVersion: v1, kind: K, spec: {n: 1, l: [a, 2.0]}}`, nil, true},
		{"{\"a\": 1, b: 2}", nil, true},
		{"  {\"a\": 1}\n", map[string]any{"a": int64(1)}, false},
		{"{", nil, true},
		{"[0", nil, true},
		{`{"a": 1}{"b": 2}`, nil, true},
	} {
		obj, err := decodeBoth(t, []byte(tc.doc))
		if (err != nil) != tc.wantErr || (err == nil && !reflect.DeepEqual(obj, tc.want)) {
			t.Errorf("%q: %v, %v", tc.doc, obj, err)
		}
		for _, c := range yamljson.SplitAll([]byte(tc.doc)) {
			if yamljson.IsJSON(c.Data) {
				continue
			}
			if j, err := yamljson.ToJSON(c.Data); err == nil && !json.Valid(j) {
				t.Errorf("ToJSON(%q) = %q, not JSON, and no error", tc.doc, j)
			}
		}
	}
}
