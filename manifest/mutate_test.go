package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/yamljson"
)

// Documents for the determinism tests of CRD decoding
// (determinism_test.go): hand-written edge cases, and random mutations of
// real CRDs.

var edgeCRDs = []string{
	// Shapes around the schemas.
	`null`, `{}`, `[]`, `"x"`, `1`, ``, `{} x`, ` {"kind":"CustomResourceDefinition"} `,
	`{"spec":null}`, `{"spec":[]}`, `{"spec":{"versions":null}}`, `{"spec":{"versions":{}}}`,
	`{"spec":{"versions":[null]}}`, `{"spec":{"versions":[1]}}`, `{"spec":{"versions":[{"schema":null}]}}`,
	`{"spec":{"versions":[{"schema":[]}]}}`, `{"spec":{"versions":[{"schema":{}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":null}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":"x"}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":1.5}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{}}},{"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{},"x":1}}]}}`,
	`{"spec":{"versions":[{"name":"v1"},{"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"type":"object"}}}]},"spec":{"group":"g"}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"type":"object"}},"schema":{}}]}}`,
	`{"Spec":{"versions":[{"schema":{"openAPIV3Schema":{"xml":1}}}]}}`,
	`{"spec":{"Versions":[{"schema":{"openAPIV3Schema":{"xml":1}}}]}}`,
	`{"spec":{"versions":[{"Schema":{"openAPIV3Schema":{"xml":1}}}]}}`,
	`{"spec":{"versions":[{"schema":{"OpenAPIV3Schema":{"xml":1}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"type":"object"}}}]`,
	`{"apiVersion":"apiextensions.k8s.io/v1beta1","spec":{"versions":[{"schema":{"openAPIV3Schema":{}}}]}}`,
	`{"kind":"Pod"}`,
	// Numbers outside the schemas.
	`{"spec":{"versions":[{"additionalPrinterColumns":[{"priority":1.0}],"schema":{"openAPIV3Schema":{}}}]}}`,
	`{"spec":{"versions":[{"additionalPrinterColumns":[{"priority":1e0}]}]}}`,
	`{"spec":{"versions":[{"additionalPrinterColumns":[{"priority":-0}]}]}}`,
	`{"spec":{"versions":[{"additionalPrinterColumns":[{"priority":99999999999}]}]}}`,
	`{"metadata":{"generation":1e400}}`,
	`{"metadata":{"managedFields":[{"fieldsV1":{"f:spec":{ "f:a" : {}},"a":1.5}}]}}`,
	`{"metadata":{"managedFields":[{"fieldsV1":{"f:spec":{ "f:a" : {}}}}]}}`,
	// Numbers and nulls in schemas.
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"maximum":1.0,"minimum":-0,"multipleOf":1e3,"maxLength":3,"default":-0.0,"example":1e400}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"maximum":9223372036854775807,"minimum":-9223372036854775808,"multipleOf":9223372036854775808,"maxLength":-0}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"maxLength":1.0}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"maxLength":1e2}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"maxLength":9223372036854775808}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"maxLength":"1"}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"type":null,"properties":null,"items":null,"not":null,"default":null,"example":null,"enum":null,"x-kubernetes-validations":null}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"enum":[],"required":[],"allOf":[],"items":[],"properties":{},"x-kubernetes-validations":[],"x-kubernetes-list-map-keys":[]}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"enum":[null,1,1.0,"a",[],{}],"required":["a",null],"allOf":[null,{}],"items":[null,{"xml":1}],"properties":{"a":null,"b":{}}}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"items":true,"additionalProperties":false,"additionalItems":{"xml":1},"dependencies":{"a":["b",null],"c":{"xml":1},"d":null,"e":1,"f":"x","g":[]}}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"additionalProperties":null,"additionalItems":1}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"items":"x"}}},{"schema":{"openAPIV3Schema":{"items":1.5}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"x-kubernetes-validations":[null,{"rule":"a","reason":null,"optionalOldSelf":false,"severity":1},{"reason":"FieldValueForbidden","optionalOldSelf":true,"fieldPath":".a","message":"m","messageExpression":"e"}]}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"x-kubernetes-validations":[{"rule":"a","rule":"b"}]}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"x-kubernetes-validations":[1]}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"externalDocs":{"url":"u","description":null,"z":1,"y":null}}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"externalDocs":{"url":"u","url":"v"}}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"externalDocs":[]}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"$ref":"#/a","$schema":"s","id":"i","x-kubernetes-list-type":"map","x-kubernetes-map-type":"atomic","x-kubernetes-preserve-unknown-fields":false}}}]}}`,
	// Repeated keys, case and escapes.
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"type":"object","type":"string"}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"type":null,"type":"string"}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"xml":1,"xml":2}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"properties":{"a":{},"a":{"type":"string"}}}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"default":{"a":1,"a":2}}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"\u0074ype":"object","Type":"x","properties":{"\u00e9":{"descri\u0070tion":"\ud83d\ude00\ud800"}}}}}]}}`,
	"{\"spec\":{\"versions\":[{\"schema\":{\"openAPIV3Schema\":{\"description\":\"\xff\xfe\",\"xml\\u0000\":1}}}]}}",
	// Unknown fields at every level that reports them, and below those that do not.
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"a":1,"properties":{"p":{"b":1,"allOf":[{"c":1}],"not":{"d":1,"properties":{"q":{"e":1}}},"items":{"f":1,"properties":{"r":{"g":1}}},"definitions":{"x":{"h":{}}},"patternProperties":{"^y":{"i":[]}}}}}}}]}}`,
	// Deep nesting.
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":` + strings.Repeat(`{"properties":{"a":`, 300) + `{}` + strings.Repeat(`}}`, 300) + `}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":{"default":` + strings.Repeat(`[`, 10001) + strings.Repeat(`]`, 10001) + `}}}]}}`,
	`{"spec":{"versions":[{"schema":{"openAPIV3Schema":` + strings.Repeat(`{"not":`, 10001) + `{}` + strings.Repeat(`}`, 10001) + `}}]}}`,
}

// mutationBases returns the CRDs the mutations start from: small ones of
// the corpus and of this package's tests, with every field kind between
// them.
func mutationBases(tb testing.TB) []*jnode {
	tb.Helper()
	var docs [][]byte
	j, err := yamljson.ToJSON([]byte(crontabYAML))
	if err != nil {
		tb.Fatal(err)
	}
	docs = append(docs, j, []byte(fullCRD))
	var bodies [][]byte
	for _, p := range corpusProjects(tb) {
		bodies = append(bodies, p.bodies...)
	}
	sort.Slice(bodies, func(a, b int) bool { return len(bodies[a]) < len(bodies[b]) })
	docs = append(docs, bodies[:min(8, len(bodies))]...)
	var out []*jnode
	for _, d := range docs {
		n, err := parseJNode(d)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}

// jnode is a JSON document as written: object members in order, with
// repeated keys, and scalars as their text.
type jnode struct {
	kind byte // '{', '[' or 0 for a scalar
	keys []string
	vals []*jnode
	raw  string // a scalar's JSON text, or a key's escaped spelling
}

func parseJNode(data []byte) (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := readJNode(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data")
	}
	return n, nil
}

func readJNode(dec *json.Decoder) (*jnode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &jnode{kind: byte(t)}
		for dec.More() {
			if n.kind == '{' {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
			}
			v, err := readJNode(dec)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
		}
		_, err := dec.Token()
		return n, err
	case json.Number:
		return &jnode{raw: t.String()}, nil
	}
	b, err := json.Marshal(tok)
	return &jnode{raw: string(b)}, err
}

func (n *jnode) write(b *bytes.Buffer) {
	switch n.kind {
	case '{':
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			if strings.HasPrefix(k, "\x00raw:") {
				b.WriteString(k[len("\x00raw:"):])
			} else {
				kb, _ := json.Marshal(k)
				b.Write(kb)
			}
			b.WriteByte(':')
			n.vals[i].write(b)
		}
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		for i, v := range n.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			v.write(b)
		}
		b.WriteByte(']')
	default:
		b.WriteString(n.raw)
	}
}

func (n *jnode) clone() *jnode {
	c := &jnode{kind: n.kind, raw: n.raw, keys: append([]string(nil), n.keys...)}
	for _, v := range n.vals {
		c.vals = append(c.vals, v.clone())
	}
	return c
}

// containers returns every object and array of n.
func (n *jnode) containers(out []*jnode) []*jnode {
	if n.kind == 0 {
		return out
	}
	out = append(out, n)
	for _, v := range n.vals {
		out = v.containers(out)
	}
	return out
}

// fullCRD has every field of the CRD types outside the schemas.
const fullCRD = `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
"metadata":{"name":"as.b.c","generateName":"g","namespace":"","selfLink":"/s","uid":"u","resourceVersion":"7",
  "generation":3,"creationTimestamp":"2024-01-02T03:04:05Z","deletionTimestamp":"2024-01-02T03:04:05+01:00",
  "deletionGracePeriodSeconds":30,"labels":{"a":"b","c":""},"annotations":{"x/y":"z"},
  "ownerReferences":[{"apiVersion":"v1","kind":"K","name":"n","uid":"u","controller":true,"blockOwnerDeletion":false}],
  "finalizers":["f",null]},
"spec":{"group":"b.c","scope":"Namespaced","preserveUnknownFields":false,
  "names":{"plural":"as","singular":"a","shortNames":["aa"],"kind":"A","listKind":"AList","categories":["all"]},
  "conversion":{"strategy":"Webhook","webhook":{"conversionReviewVersions":["v1"],
    "clientConfig":{"url":"https://x","caBundle":"aGVsbG8=","service":{"namespace":"ns","name":"s","path":"/p","port":443}}}},
  "versions":[{"name":"v1","served":true,"storage":true,"deprecated":true,"deprecationWarning":"w",
    "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}},
    "subresources":{"status":{},"scale":{"specReplicasPath":".spec.r","statusReplicasPath":".status.r","labelSelectorPath":".status.s"}},
    "additionalPrinterColumns":[{"name":"R","type":"integer","format":"int32","description":"d","priority":1,"jsonPath":".spec.r"}],
    "selectableFields":[{"jsonPath":".spec.r"}]},
   {"name":"v2","served":false,"storage":false,"schema":null,"subresources":null}]},
"status":{"conditions":[{"type":"Established","status":"True","lastTransitionTime":"2024-01-02T03:04:05Z","reason":"r","message":"m","observedGeneration":3}],
  "acceptedNames":{"plural":"as","kind":"A"},"storedVersions":["v1"],"observedGeneration":3}}`

// mutationKeys are the keys the mutations set: every field of the CRD
// types (a schema, a rule, externalDocs, the rest of a CRD), unknown ones.
var mutationKeys = func() []string {
	keys := []string{"xml", "discriminator", "Type", "readOnly", "", "managedFields", "fieldsV1"}
	seen := map[reflect.Type]bool{}
	var add func(t reflect.Type)
	add = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] || t.PkgPath() != reflect.TypeOf(crdschema.JSON{}).PkgPath() {
			return
		}
		seen[t] = true
		for i := 0; i < t.NumField(); i++ {
			if name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); name != "" {
				keys = append(keys, name)
			}
			add(t.Field(i).Type)
		}
	}
	add(reflect.TypeOf(crdschema.CustomResourceDefinition{}))
	sort.Strings(keys)
	return slices.Compact(keys)
}()

// mutationValues are the values the mutations put in.
var mutationValues = []string{
	`null`, `true`, `false`, `0`, `1`, `-0`, `-0.0`, `1.0`, `1e3`, `1E+2`, `1.5`, `-1`, `255`, `256`,
	`9223372036854775807`, `9223372036854775808`, `-9223372036854775808`, `-9223372036854775809`,
	`123456789012345678901234567890`, `1e400`, `5e-324`,
	`2147483647`, `2147483648`, `-2147483649`,
	`"2024-01-02T03:04:05Z"`, `"2024-01-02"`, `"aGVsbG8="`, `"aGVsbG8"`, `"aGVs\nbG8="`, `"Namespaced"`,
	`{"a":"b"}`, `[{"fieldsV1":{"f:a":{}}}]`, `{"status":{}}`, `[{"name":"v1","schema":{"openAPIV3Schema":{"xml":1}}}]`,
	`""`, `"x"`, `"object"`, `"string"`, `"integer"`, `"\u00e9\ud83d\ude00"`, `"\ud800x"`, `"a\"b\\"`, `"<&>"`, "\"\xff\"",
	`[]`, `[null]`, `["a",null]`, `[1]`, `[1.0]`, `[{}]`, `[{"type":"string"}]`, `[[]]`,
	`{}`, `{"type":"string"}`, `{"a":null}`, `{"a":{"type":"string","xml":1}}`, `{"xml":{}}`,
	`{"type":"object","properties":{"a":{"type":"integer","maximum":1.0,"enum":[1,1.0]}}}`,
	`[{"rule":"self > 0","x":1}]`, `[{"rule":"self > 0"},null]`, `{"description":"d","url":"u","z":1}`,
	`{"a":{"type":"string"},"a":{"format":"x"}}`, `{"a":1,"a":1}`,
	strings.Repeat(`{"properties":{"a":`, 40) + `{"xml":1}` + strings.Repeat(`}}`, 40),
	strings.Repeat(`[`, 30) + strings.Repeat(`]`, 30),
}

// mutateCRD returns a random mutant of one of bases, the same for the
// same seed.
func mutateCRD(bases []*jnode, seed uint64) []byte {
	rnd := rand.New(rand.NewPCG(seed, 0x5eed))
	doc := bases[rnd.IntN(len(bases))].clone()
	value := func() *jnode {
		v := mutationValues[rnd.IntN(len(mutationValues))]
		if n, err := parseJNode([]byte(v)); err == nil {
			return n
		}
		return &jnode{raw: v} // 1e400, invalid UTF-8: kept as written
	}
	for range 1 + rnd.IntN(3) {
		all := doc.containers(nil)
		n := all[rnd.IntN(len(all))]
		if n.kind == '[' {
			switch {
			case len(n.vals) > 0 && rnd.IntN(2) == 0:
				n.vals[rnd.IntN(len(n.vals))] = value()
			default:
				n.vals = append(n.vals, value())
			}
			continue
		}
		i := -1
		if len(n.keys) > 0 {
			i = rnd.IntN(len(n.keys))
		}
		switch op := rnd.IntN(6); {
		case op == 0 || i < 0: // a field set, maybe again
			n.keys = append(n.keys, mutationKeys[rnd.IntN(len(mutationKeys))])
			n.vals = append(n.vals, value())
		case op == 1: // a key repeated
			n.keys = append(n.keys, n.keys[i])
			if rnd.IntN(2) == 0 {
				n.vals = append(n.vals, n.vals[i].clone())
			} else {
				n.vals = append(n.vals, value())
			}
		case op == 2: // a field dropped
			n.keys = append(n.keys[:i], n.keys[i+1:]...)
			n.vals = append(n.vals[:i], n.vals[i+1:]...)
		case op == 3: // a key spelled with escapes
			var b strings.Builder
			b.WriteString("\x00raw:\"")
			for _, r := range n.keys[i] {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
			b.WriteString(`"`)
			if !strings.HasPrefix(n.keys[i], "\x00") && !strings.ContainsFunc(n.keys[i], func(r rune) bool { return r > 0xffff }) {
				n.keys[i] = b.String()
			}
		default: // a value replaced
			n.vals[i] = value()
		}
	}
	var b bytes.Buffer
	doc.write(&b)
	out := b.Bytes()
	if rnd.IntN(25) == 0 { // cut short
		out = out[:rnd.IntN(len(out))]
	}
	return out
}
