package difffuzz

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/manifest"
	"math/big"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/oracle/internal/upstream"
)

// FuzzCreate runs a CRD and a create request through crd's pipeline and
// through the oracle's (upstream.RunCase: apiextensions-apiserver v0.37.2,
// exactly as the conformance goldens are made). Both the CRD and the body
// are fuzzed, from the CRDs and bodies of the conformance cases: the CRD's
// errors and unknown fields, and for an accepted CRD the request's
// refusal, unknown fields, object and errors must be the same. Errors are
// compared as multisets (their order is the subject of the goldens'
// errorsOrdered). A CRD that upstream's decoder refuses is skipped.
func FuzzCreate(f *testing.F) {
	var files []string
	for _, area := range []string{"validation", "defaulting", "prune", "pipeline", "celrules", "structural"} {
		m, _ := filepath.Glob(filepath.Join("..", "..", "conformance", "testdata", "cases", area, "*.yaml"))
		files = append(files, m...)
	}
	if len(files) == 0 {
		f.Fatal("no conformance cases under ../../conformance/testdata/cases")
	}
	for i, file := range files {
		if i%4 != 0 { // a quarter of them: the seeds are run in CI, each through both pipelines
			continue
		}
		c, err := upstream.ReadCase(file)
		if err != nil || c.OldCRD != nil || c.Version != "" {
			continue
		}
		for _, r := range c.Requests {
			if r.Operation == "create" {
				f.Add(c.CRD, r.Object)
				break
			}
		}
	}
	f.Fuzz(func(t *testing.T, crdJSON, body []byte) {
		if len(crdJSON) > 1<<16 || len(body) > 1<<16 {
			return
		}
		want, _, err := upstream.RunCase(&upstream.Case{Path: "fuzz", CRD: crdJSON,
			Requests: []upstream.Request{{Operation: "create", Object: body}}})
		if err != nil {
			return // upstream's decoder refuses the CRD (a malformed case)
		}
		if d := diffCreate(crdJSON, body, want); d != "" {
			t.Errorf("CRD %s\nbody %s\n%s", crdJSON, body, d)
		}
	})
}

// diffCreate runs the library on the CRD and body and says how its result
// differs from upstream's.
func diffCreate(crdJSON, body []byte, want *upstream.Golden) string {
	ctx := context.Background()
	def, unknown, err := manifest.UnmarshalCRD(crdJSON)
	if err != nil {
		return fmt.Sprintf("UnmarshalCRD: %v; upstream decodes the CRD (errors %v)", err, want.CRD.Errors)
	}
	if !slices.Equal(nonNil(unknown), nonNil(want.CRD.UnknownFields)) {
		return fmt.Sprintf("CRD unknown fields %q, upstream %q", unknown, want.CRD.UnknownFields)
	}
	errs := crd.Validate(ctx, def)
	if d := diffErrors("CRD", errs, want.CRD.Errors); d != "" {
		return d
	}
	if len(want.Requests) == 0 || len(errs) > 0 {
		return ""
	}
	wr := want.Requests[0]
	version := ""
	for _, v := range def.Spec.Versions {
		if v.Storage {
			version = v.Name
		}
	}
	res, err := crd.New(def, version,
		crd.WithClock(func() time.Time { return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) }),
		crd.WithUID(func() string { return "00000000-0000-0000-0000-000000000001" }),
		crd.WithNameSuffix(func() string { return "xxxxx" }))
	if err != nil {
		return fmt.Sprintf("crd.New: %v; upstream serves the CRD", err)
	}
	var result *crd.Result
	v, err := jsonscan.Decode(body)
	if err == nil {
		obj, _ := v.(map[string]any)
		result, err = res.Create(ctx, obj)
		if err != nil && result != nil && len(result.Errors) > 0 {
			err = nil // refused by validation: compared below, as upstream's errors
		}
	}
	if result != nil && result.Object != nil {
		// the goldens hold the object before storage gives it a
		// resourceVersion
		if md, ok := result.Object["metadata"].(map[string]any); ok {
			delete(md, "resourceVersion")
		}
	}
	switch {
	case err != nil && wr.RequestError == "":
		return fmt.Sprintf("the request is refused (%v); upstream validates it (errors %v)", err, wr.Errors)
	case err != nil:
		return ""
	case wr.RequestError != "":
		return fmt.Sprintf("the request is validated (errors %v); upstream refuses it: %s", result.Errors, wr.RequestError)
	}
	if !slices.Equal(nonNil(result.UnknownFields), nonNil(wr.UnknownFields)) {
		return fmt.Sprintf("request unknown fields %q, upstream %q", result.UnknownFields, wr.UnknownFields)
	}
	if got, exp := jsonValue(result.Object), jsonValue(wr.Object); !equalJSON(got, exp) {
		return fmt.Sprintf("object\n     %s\nupstream %s", mustJSON(result.Object), mustJSON(wr.Object))
	}
	return diffErrors("request", result.Errors, wr.Errors)
}

// stableText replaces what upstream's texts hold that changes from run to
// run by the goldens' markers, as the oracle does.
var (
	selfTypeRE = regexp.MustCompile(`selfType[0-9]+`)
	pointerRE  = regexp.MustCompile(`\)\(0x[0-9a-f]+\)`)
)

func stableText(s string) string {
	return pointerRE.ReplaceAllString(selfTypeRE.ReplaceAllString(s, "selfType<N>"), ")(0x<ptr>)")
}

func diffErrors(what string, got crdschema.ErrorList, want []upstream.FieldError) string {
	var g, w []string
	for _, e := range got {
		g = append(g, fmt.Sprintf("%s %s: %s", string(e.Type), e.Field, stableText(e.Error())))
	}
	for _, e := range want {
		w = append(w, fmt.Sprintf("%s %s: %s", e.Type, e.Field, e.Message))
	}
	slices.Sort(g)
	slices.Sort(w)
	if slices.Equal(g, w) {
		return ""
	}
	return fmt.Sprintf("%s errors:\n     %s\nupstream %s", what, strings.Join(g, "\n         "), strings.Join(w, "\n         "))
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// jsonValue re-decodes v with numbers as json.Number.
func jsonValue(v any) any {
	dec := json.NewDecoder(bytes.NewReader([]byte(mustJSON(v))))
	dec.UseNumber()
	var out any
	if dec.Decode(&out) != nil {
		return mustJSON(v)
	}
	return out
}

// equalJSON compares decoded JSON values, numbers by value (1 equals 1.0,
// as the conformance suite compares them).
func equalJSON(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if w, ok := y[k]; !ok || !equalJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number:
		y, ok := b.(json.Number)
		if !ok {
			return false
		}
		p, pok := new(big.Rat).SetString(string(x))
		q, qok := new(big.Rat).SetString(string(y))
		return pok && qok && p.Cmp(q) == 0
	}
	return reflect.DeepEqual(a, b)
}
