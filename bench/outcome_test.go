package bench

// The benchmarks compare like with like only if both sides come to the
// same answer on their inputs. These tests check that they do: the same
// CRD errors, the same created object and errors, the same update
// outcome, the same CEL errors, the same OpenAPI document.

import (
	"bytes"
	stdjson "encoding/json"
	"reflect"
	"regexp"
	"sort"
	"testing"

	"github.com/crdschema/crdschema"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// selfTypeName matches the CEL type names upstream derives from the clock.
var selfTypeName = regexp.MustCompile(`selfType[0-9]+`)

func crdschemaMessages(errs crdschema.ErrorList) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, selfTypeName.ReplaceAllString(e.Error(), "selfType<N>"))
	}
	sort.Strings(out)
	return out
}

func upstreamMessages(errs field.ErrorList) []string {
	out := make([]string, 0, len(errs))
	for _, e := range errs {
		out = append(out, selfTypeName.ReplaceAllString(e.Error(), "selfType<N>"))
	}
	sort.Strings(out)
	return out
}

func sameMessages(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: crdschema and upstream differ\ncrdschema: %q\nupstream:  %q", what, got, want)
	}
}

// TestValidateCRDOutcome checks that both sides give the same errors for
// every CRD of the corpus. Upstream takes a while on the larger projects;
// -short checks one CRD per project.
func TestValidateCRDOutcome(t *testing.T) {
	r := newUpstreamCRDRequest()
	for _, fam := range families(t) {
		crds := fam.crds
		if testing.Short() {
			crds = crds[:1]
		}
		for _, c := range crds {
			got, err := crdschemaValidateCRD(c.body)
			if err != nil {
				t.Fatalf("%s/%s: %v", fam.name, c.file, err)
			}
			_, want, err := r.create(c.body)
			if err != nil {
				t.Fatalf("%s/%s: %v", fam.name, c.file, err)
			}
			sameMessages(t, fam.name+"/"+c.file, crdschemaMessages(got), upstreamMessages(want))
		}
	}
}

// normalized returns v through a JSON round trip, so that maps compare
// by value whatever their Go types.
func normalized(t *testing.T, v any) any {
	t.Helper()
	data, err := stdjson.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := stdjson.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	// metadata.resourceVersion is storage's: crdschema's Result carries
	// the one storage would give the object, while upstream's strategy,
	// which the benchmarks run without storage, leaves the request's.
	if m, ok := out.(map[string]any); ok {
		if md, ok := m["metadata"].(map[string]any); ok {
			delete(md, "resourceVersion")
		}
	}
	return out
}

func TestCreateOutcome(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			s := serve(t, ex)
			got, err := crdschemaCreate(s.res, s.body)
			if err != nil {
				t.Fatal(err)
			}
			obj, want, err := s.up.create(s.body)
			if err != nil {
				t.Fatal(err)
			}
			sameMessages(t, "errors", crdschemaMessages(got.Errors), upstreamMessages(want))
			if g, w := normalized(t, got.Object), normalized(t, obj.Object); !reflect.DeepEqual(g, w) {
				t.Errorf("objects differ\ncrdschema: %v\nupstream:  %v", g, w)
			}
		})
	}
}

func TestHeadlineBodies(t *testing.T) {
	s := serve(t, examples[0])
	bodies := uniqueBodies(t, s.body, 3)
	for i, body := range bodies {
		got, err := crdschemaCreate(s.res, body)
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Errors) > 0 {
			t.Fatalf("body %d: %v", i, got.Errors)
		}
		name := got.Object["metadata"].(map[string]any)["name"]
		if want := "bar-route-" + string(rune('0'+i)); name != want {
			t.Errorf("body %d: name %v, want %s", i, name, want)
		}
	}
	if err := inParallel(bodies, func(body []byte) error { _, err := crdschemaCreate(s.res, body); return err }); err != nil {
		t.Fatal(err)
	}
}

// TestUpdateRatchetOutcome checks the ratcheting update: upstream accepts
// it (the broken fields are unchanged), and crdschema must too.
func TestUpdateRatchetOutcome(t *testing.T) {
	c := newRatchetCase(t)
	obj, want, err := c.up.update(c.update, c.upStore.DeepCopy())
	if err != nil {
		t.Fatal(err)
	}
	if len(want) > 0 {
		t.Fatalf("upstream refuses the update (the case does not test ratcheting): %v", want)
	}
	// Without ratcheting, the stored object's defects are reported.
	if created, err := crdschemaCreate(c.res, c.stored); err != nil {
		t.Fatal(err)
	} else if len(created.Errors) == 0 {
		t.Fatal("the stored object is valid: the case does not test ratcheting")
	}
	got, err := crdschemaUpdate(c.res, c.update, c.old)
	if err != nil {
		t.Fatal(err)
	}
	sameMessages(t, "errors", crdschemaMessages(got.Errors), upstreamMessages(want))
	if g, w := normalized(t, got.Object), normalized(t, obj.Object); !reflect.DeepEqual(g, w) {
		t.Errorf("objects differ\ncrdschema: %v\nupstream:  %v", g, w)
	}
}

func TestCELOutcome(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			in := newCELInput(t, ex)
			errs := in.compiled.Validate(t.Context(), nil, in.obj, nil).Errors
			if got, want := len(errs), in.upRules(in.obj); got != want {
				t.Errorf("crdschema reports %d CEL errors, upstream %d: %v", got, want, errs)
			}
		})
	}
}

func TestOpenAPIV3Outcome(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			s := serve(t, ex)
			got, err := crdschemaOpenAPIV3(s.def, s.version)
			if err != nil {
				t.Fatal(err)
			}
			want, err := upstreamOpenAPIV3(s.upCRD, s.version)
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			if err := stdjson.Unmarshal(got, &g); err != nil {
				t.Fatal(err)
			}
			if err := stdjson.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, w) {
				t.Errorf("documents differ (%d and %d bytes)", len(got), len(want))
			}
			if bytes.Equal(got, nil) {
				t.Error("empty document")
			}
			// The bytes too, but for one difference of encoders: the
			// document is marshaled with encoding/json through go-openapi,
			// which escapes <, > and & in strings (\u003c, ...); the
			// server's encoder (encoding/json/v2) writes them as they are.
			got = unescapeHTML(got)
			if !bytes.Equal(got, want) {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				lo := max(0, i-60)
				t.Errorf("documents differ from byte %d:\n got ...%s\nwant ...%s", i, got[lo:min(len(got), i+60)], want[lo:min(len(want), i+60)])
			}
		})
	}
}

// unescapeHTML replaces encoding/json's escapes of <, > and & in the
// strings of the JSON document b with the characters themselves.
func unescapeHTML(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] != '\\' {
			out = append(out, b[i])
			continue
		}
		if i+5 < len(b) && string(b[i+1:i+4]) == "u00" {
			switch string(b[i+4 : i+6]) {
			case "3c":
				out, i = append(out, '<'), i+5
				continue
			case "3e":
				out, i = append(out, '>'), i+5
				continue
			case "26":
				out, i = append(out, '&'), i+5
				continue
			}
		}
		// any other escape: copy the backslash and the escaped byte
		out = append(out, b[i])
		if i+1 < len(b) {
			i++
			out = append(out, b[i])
		}
	}
	return out
}
