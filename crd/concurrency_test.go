package crd_test

// One compiled Resource serving many goroutines (run with -race), and the
// promise that Create, Update, UpdateStatus, Validate and ValidateUpdate
// leave their inputs alone.

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/hostile"
	"github.com/crdschema/crdschema/manifest"
)

func readHTTPRouteCRD(t testing.TB) *crdschema.CustomResourceDefinition {
	t.Helper()
	data, err := os.ReadFile("testdata/httproute.yaml.gz")
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	y, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return unmarshalCRD(t, string(y))
}

// httpRoute returns an HTTPRoute; variant i changes it in ways that are
// accepted, pruned, defaulted or rejected (schema errors and CEL rules).
func httpRoute(i int) map[string]any {
	y := fmt.Sprintf(`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute",
"metadata":{"name":"route-%d","namespace":"default","labels":{"app":"web"}},
"spec":{"parentRefs":[{"name":"gw","sectionName":"http"}],"hostnames":["example.com","a%d.example.com"],
"rules":[{"matches":[{"path":{"type":"PathPrefix","value":"/p%d"}}],"backendRefs":[{"name":"svc","port":%d}],"unknownField":1}]}}`, i, i, i, 80+i)
	obj, err := manifest.UnmarshalObject([]byte(y))
	if err != nil {
		panic(err)
	}
	spec := obj["spec"].(map[string]any)
	switch i % 5 {
	case 1: // a schema error
		spec["hostnames"] = []any{"-bad-", strings.Repeat("x", 300)}
	case 2: // a CEL rule: a path must start with /
		rule := spec["rules"].([]any)[0].(map[string]any)
		rule["matches"] = []any{map[string]any{"path": map[string]any{"type": "PathPrefix", "value": "nope"}}}
	case 3: // defaults only
		delete(spec, "rules")
	case 4: // a wrong type
		spec["parentRefs"] = "x"
	}
	return obj
}

// outcome renders a request's result for comparison.
func outcome(res *crd.Result, err error) string {
	if res.Object == nil {
		return "error: " + err.Error()
	}
	// The resourceVersions storage gives depend on the order of requests.
	obj := maps.Clone(res.Object)
	if m, ok := obj["metadata"].(map[string]any); ok {
		m = maps.Clone(m)
		delete(m, "resourceVersion")
		obj["metadata"] = m
	}
	b, _ := json.Marshal(obj)
	return fmt.Sprintf("%s\n%q\n%s", b, res.UnknownFields, strings.Join(errorKeysOf(res.Errors), "\n"))
}

// TestConcurrentResource runs creates and updates of different objects
// through one Resource from many goroutines: every result is the one of
// the sequential run.
func TestConcurrentResource(t *testing.T) {
	def := readHTTPRouteCRD(t)
	r, err := crd.New(def, "v1", crd.WithUID(func() string { return "uid" }), crd.WithNameSuffix(func() string { return "xxxxx" }),
		crd.WithClock(fixedClock))
	if err != nil {
		t.Fatal(err)
	}
	const n = 10
	creates := make([]string, n)
	updates := make([]string, n)
	stored := make([]map[string]any, n)
	for i := range n {
		res, err := r.Create(ctx, httpRoute(i))
		creates[i] = outcome(res, err)
		if res.Object == nil {
			t.Fatal(err)
		}
		stored[i] = res.Object
		stored[i]["metadata"].(map[string]any)["resourceVersion"] = "5"
	}
	if testing.Verbose() {
		for i, c := range creates {
			t.Logf("create %d: %.300s", i, c[strings.Index(c, "\n"):])
		}
	}
	if !strings.Contains(strings.Join(creates, ""), "FieldValue") {
		t.Fatal("no variant is rejected; the test proves less than it should")
	}
	update := func(i int) (*crd.Result, error) {
		o := httpRoute(i + 1)
		m := o["metadata"].(map[string]any)
		m["name"], m["resourceVersion"] = fmt.Sprint("route-", i), "5"
		return r.Update(ctx, o, stored[i])
	}
	for i := range n {
		updates[i] = outcome(update(i))
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 3 * n {
				i := (g + k) % n
				if got := outcome(r.Create(ctx, httpRoute(i))); got != creates[i] {
					t.Errorf("concurrent create %d differs:\n%s\nwant\n%s", i, got, creates[i])
					return
				}
				if got := outcome(update(i)); got != updates[i] {
					t.Errorf("concurrent update %d differs:\n%s\nwant\n%s", i, got, updates[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestConcurrentValidate validates one CRD from many goroutines.
func TestConcurrentValidate(t *testing.T) {
	def := readHTTPRouteCRD(t)
	broken := readHTTPRouteCRD(t)
	broken.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["hostnames"].Items.Schema.Pattern = "("
	want := fmt.Sprint(crd.Validate(context.Background(), def), crd.Validate(context.Background(), broken))
	if !strings.Contains(want, "pattern") {
		t.Fatalf("the broken CRD is not rejected: %s", want)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 1 {
				if got := fmt.Sprint(crd.Validate(context.Background(), def), crd.Validate(context.Background(), broken)); got != want {
					t.Errorf("concurrent validation differs:\n%s\nwant\n%s", got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestCreateOwned: CreateOwned and UpdateOwned give Create's and Update's
// outcomes, on bodies that need pruning, null dropping, defaulting and
// metadata cleaning.
func TestCreateOwned(t *testing.T) {
	r := newHostileResource(t)
	bodies := []map[string]any{
		widget("w", map[string]any{
			"unknown": 1, "s": nil, "n": int64(-1),
			"mlist": []any{map[string]any{"k": "a"}, map[string]any{"k": "b", "v": nil}},
			"any":   map[string]any{"x": []any{nil, map[string]any{"y": nil}}},
			"emb":   map[string]any{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"name": "e", "bogus": 1}},
		}),
		widget("", nil),
		{"kind": "Widget"},
		{"apiVersion": 5, "kind": "Widget"},
	}
	m := bodies[0]["metadata"].(map[string]any)
	m["finalizers"], m["bogus"] = []any{"example.com/x", "nodomain"}, true
	for i, body := range bodies {
		res, err := r.Create(ctx, body)
		ores, oerr := r.CreateOwned(ctx, hostile.Clone(body))
		if got, want := outcome(ores, oerr), outcome(res, err); got != want {
			t.Errorf("body %d: CreateOwned:\n%s\nCreate:\n%s", i, got, want)
		}
		if err == nil && fmt.Sprint(ores.Warnings) != fmt.Sprint(res.Warnings) {
			t.Errorf("body %d: CreateOwned warns %q, Create %q", i, ores.Warnings, res.Warnings)
		}
		if err != nil {
			continue
		}
		// The created object, stored, and the body sent again as an
		// update: UpdateOwned has Update's outcome and leaves the stored
		// object alone.
		stored := res.Object
		stored["metadata"].(map[string]any)["resourceVersion"] = "1"
		storedBefore := hostile.Clone(stored)
		update := hostile.Clone(body)
		if m, ok := update["metadata"].(map[string]any); ok {
			m["resourceVersion"] = "1"
		}
		ures, uerr := r.Update(ctx, update, stored)
		ores, oerr = r.UpdateOwned(ctx, hostile.Clone(update), stored)
		if got, want := outcome(ores, oerr), outcome(ures, uerr); got != want {
			t.Errorf("body %d: UpdateOwned:\n%s\nUpdate:\n%s", i, got, want)
		}
		if !reflect.DeepEqual(stored, storedBefore) {
			t.Errorf("body %d: UpdateOwned modified the stored object", i)
		}
	}
}

// TestRequestsDoNotModifyInputs: Create, Update and UpdateStatus leave the
// request body and the stored object alone, even where the pipeline
// prunes, defaults, drops nulls and sets system fields.
func TestRequestsDoNotModifyInputs(t *testing.T) {
	r := newHostileResource(t)
	obj := widget("w", map[string]any{
		"unknown": 1, "s": nil, "n": int64(-1),
		"mlist": []any{map[string]any{"k": "a"}, map[string]any{"k": "b", "v": nil}},
		"any":   map[string]any{"x": []any{nil, map[string]any{"y": nil}}},
		"emb":   map[string]any{"apiVersion": "v1", "kind": "K", "metadata": map[string]any{"name": "e", "bogus": 1}},
	})
	m := obj["metadata"].(map[string]any)
	m["generateName"], m["uid"], m["creationTimestamp"], m["resourceVersion"] = "gen-", "u", "2001-01-01T00:00:00Z", "3"
	m["bogus"], m["managedFields"] = true, []any{map[string]any{"manager": "m"}}
	obj["status"] = map[string]any{"x": nil}
	old := hostile.Clone(obj)
	old["spec"].(map[string]any)["n"] = int64(2)
	old["metadata"].(map[string]any)["generation"] = int64(4)
	objBefore, oldBefore := hostile.Clone(obj), hostile.Clone(old)

	check := func(what string) {
		t.Helper()
		if !reflect.DeepEqual(obj, objBefore) {
			t.Errorf("%s modified the request body", what)
		}
		if !reflect.DeepEqual(old, oldBefore) {
			t.Errorf("%s modified the stored object", what)
		}
	}
	res, err := r.Create(ctx, obj)
	if res.Object == nil {
		t.Fatal(err)
	}
	check("Create")
	// The result is the caller's: changing it changes nothing else.
	scramble(res.Object)
	check("changing Create's result")
	if res, err := r.Update(ctx, obj, old); res.Object == nil {
		t.Fatal(err)
	}
	check("Update")
	if res, err := r.UpdateStatus(ctx, obj, old); res.Object == nil {
		t.Fatal(err)
	}
	check("UpdateStatus")
	if _, err := r.ReadStored(old); err != nil {
		t.Fatal(err)
	}
	check("ReadStored")
	// The same on the numbers CRD, with CEL rules on every request.
	nr, err := crd.New(unmarshalCRD(t, numbersCRD), "v1")
	if err != nil {
		t.Fatal(err)
	}
	nobj, _ := manifest.UnmarshalObject([]byte(`{"apiVersion":"example.com/v1","kind":"Number","metadata":{"name":"n","resourceVersion":"1"},"spec":{"cel":9223372036854775807,"celf":1e308,"x":null}}`))
	before := hostile.Clone(nobj)
	nr.Create(ctx, nobj)
	nr.Update(ctx, nobj, nobj)
	if !reflect.DeepEqual(nobj, before) {
		t.Error("Create or Update modified the object of the numbers CRD")
	}
}

// TestValidateDoesNotModifyCRD: Validate, ValidateUpdate, New, RuleCosts,
// Defaulted and VersionSchema leave the CRDs alone, down to every schema
// node, default and rule.
func TestValidateDoesNotModifyCRD(t *testing.T) {
	for _, def := range []*crdschema.CustomResourceDefinition{
		readHTTPRouteCRD(t), unmarshalCRD(t, hostileCRD), unmarshalCRD(t, numbersCRD),
	} {
		old := readHTTPRouteCRD(t)
		old.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["hostnames"].Items.Schema.Pattern = "("
		defBefore, oldBefore := hostile.Clone(def), hostile.Clone(old)
		crd.Validate(context.Background(), def)
		crd.ValidateUpdate(context.Background(), def, old)
		crd.ValidateUpdate(context.Background(), def, def)
		crd.Defaulted(def)
		crd.VersionSchema(def, "v1")
		crd.RuleCosts(def, old, "v1")
		if r, err := crd.New(def, "v1"); err == nil {
			r.Create(ctx, map[string]any{"apiVersion": def.Spec.Group + "/v1", "kind": def.Spec.Names.Kind, "metadata": map[string]any{"name": "x"}})
		}
		if !reflect.DeepEqual(def, defBefore) {
			t.Errorf("%s: the CRD was modified", def.Name)
		}
		if !reflect.DeepEqual(old, oldBefore) {
			t.Errorf("%s: the old CRD was modified", def.Name)
		}
	}
}

// scramble overwrites every map entry and list element of v.
func scramble(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			scramble(e)
			v[k] = "scrambled"
		}
	case []any:
		for i, e := range v {
			scramble(e)
			v[i] = "scrambled"
		}
	}
}
