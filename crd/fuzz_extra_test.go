package crd_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/hostile"
	"github.com/crdschema/crdschema/manifest"
)

var (
	fuzzResourcesOnce sync.Once
	fuzzResources     []*crd.Resource
)

// resourcesForFuzzing compiles the CRDs the request fuzzers use: HTTPRoute
// (a large real CRD with CEL rules), the hostile Widget and the Number
// CRD.
func resourcesForFuzzing(t testing.TB) []*crd.Resource {
	fuzzResourcesOnce.Do(func() {
		for _, def := range []*crdschema.CustomResourceDefinition{readHTTPRouteCRD(t), unmarshalCRD(t, hostileCRD), unmarshalCRD(t, numbersCRD)} {
			r, err := crd.New(def, "v1", crd.WithClock(fixedClock), crd.WithUID(func() string { return "uid" }), crd.WithNameSuffix(func() string { return "xxxxx" }))
			if err != nil {
				t.Fatal(err)
			}
			fuzzResources = append(fuzzResources, r)
		}
	})
	return fuzzResources
}

func fuzzSeedObjects() []string {
	var seeds []string
	for i := range 5 {
		b, _ := json.Marshal(httpRoute(i))
		seeds = append(seeds, string(b))
	}
	seeds = append(seeds,
		`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","generateName":"g-","labels":{"a":"b"}},"spec":{"s":"x","pat":"aa","list":["a"],"set":[1,2],"mlist":[{"k":"a"},{"k":"b","v":null}],"map":{"a":1},"n":3,"any":{"x":[null,{"y":1}]},"emb":{"apiVersion":"v1","kind":"K","metadata":{"name":"e","x":1}}},"status":{"a":1}}`,
		`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w","namespace":"other","uid":"u","resourceVersion":"2"},"spec":{"s":null,"set":[1,1],"mlist":[{"k":"a"},{"k":"a"}],"map":{"a":"b"},"n":-1,"unknown":true}}`,
		`{"apiVersion":"example.com/v1","kind":"Number","metadata":{"name":"n"},"spec":{"i":9223372036854775807,"imax":18446744073709551616,"f":1e308,"fmin":5e-324,"cel":-9223372036854775808,"celf":1e308}}`,
		`{"apiVersion":"example.com/v2","kind":"Widget","metadata":{"name":"w"}}`,
		`{"kind":"Widget"}`, `{}`, `{"apiVersion":"example.com/v1","kind":"Widget","metadata":[]}`,
	)
	return seeds
}

// FuzzCreate sends random request bodies to real CRDs: Create never panics,
// never modifies its input, gives the same result twice, and the object it
// returns, sent again, has nothing left to prune and the same errors.
func FuzzCreate(f *testing.F) {
	for _, s := range fuzzSeedObjects() {
		for which := range 3 {
			f.Add([]byte(s), uint8(which))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		rs := resourcesForFuzzing(t)
		r := rs[int(which)%len(rs)]
		obj, err := manifest.UnmarshalObject(data)
		if err != nil {
			return
		}
		before := hostile.Clone(obj)
		res, err := r.Create(ctx, obj)
		if !reflect.DeepEqual(obj, before) {
			t.Fatal("Create modified its input")
		}
		if again := outcome(r.Create(ctx, obj)); again != outcome(res, err) {
			t.Fatalf("Create is not deterministic:\n%s\n%s", outcome(res, err), again)
		}
		// CreateOwned, on a body of its own, has Create's outcome.
		ores, oerr := r.CreateOwned(ctx, hostile.Clone(obj))
		if owned := outcome(ores, oerr); owned != outcome(res, err) {
			t.Fatalf("CreateOwned:\n%s\nCreate:\n%s", owned, outcome(res, err))
		}
		if err == nil && fmt.Sprint(ores.Warnings) != fmt.Sprint(res.Warnings) {
			t.Fatalf("CreateOwned warns %q, Create %q", ores.Warnings, res.Warnings)
		}
		if err != nil {
			if _, ok := err.(*crd.RequestError); !ok {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		for _, e := range res.Errors {
			_ = e.Error()
		}
		res2, err := r.Create(ctx, res.Object)
		if res2.Object == nil {
			t.Fatalf("the created object is refused: %v", err)
		}
		if len(res2.UnknownFields) > 0 {
			t.Fatalf("the created object still has unknown fields %q", res2.UnknownFields)
		}
	})
}

// FuzzUpdate sends random bodies and stored objects to Update and
// UpdateStatus: no panic, no modified input, deterministic results.
func FuzzUpdate(f *testing.F) {
	seeds := fuzzSeedObjects()
	for i, s := range seeds {
		f.Add([]byte(s), []byte(seeds[(i+1)%len(seeds)]), uint8(i))
		f.Add([]byte(s), []byte(s), uint8(i+1))
	}
	f.Fuzz(func(t *testing.T, data, oldData []byte, which uint8) {
		rs := resourcesForFuzzing(t)
		r := rs[int(which)%len(rs)]
		obj, err := manifest.UnmarshalObject(data)
		if err != nil {
			return
		}
		old, err := manifest.UnmarshalObject(oldData)
		if err != nil {
			return
		}
		objBefore, oldBefore := hostile.Clone(obj), hostile.Clone(old)
		res, err := r.Update(ctx, obj, old)
		sres, serr := r.UpdateStatus(ctx, obj, old)
		r.ReadStored(old)
		if !reflect.DeepEqual(obj, objBefore) || !reflect.DeepEqual(old, oldBefore) {
			t.Fatal("an update modified its input")
		}
		if again := outcome(r.Update(ctx, obj, old)); again != outcome(res, err) {
			t.Fatalf("Update is not deterministic:\n%s\n%s", outcome(res, err), again)
		}
		// UpdateOwned, on a body of its own, has Update's outcome and
		// leaves the stored object alone.
		ores, oerr := r.UpdateOwned(ctx, hostile.Clone(obj), old)
		if owned := outcome(ores, oerr); owned != outcome(res, err) {
			t.Fatalf("UpdateOwned:\n%s\nUpdate:\n%s", owned, outcome(res, err))
		}
		if err == nil && fmt.Sprint(ores.Warnings) != fmt.Sprint(res.Warnings) {
			t.Fatalf("UpdateOwned warns %q, Update %q", ores.Warnings, res.Warnings)
		}
		if !reflect.DeepEqual(old, oldBefore) {
			t.Fatal("UpdateOwned modified the stored object")
		}
		if again := outcome(r.UpdateStatus(ctx, obj, old)); again != outcome(sres, serr) {
			t.Fatalf("UpdateStatus is not deterministic:\n%s\n%s", outcome(sres, serr), again)
		}
	})
}

// FuzzRuleCosts computes the rule costs of random CRDs, for create and
// update; it must not panic or modify the CRDs.
func FuzzRuleCosts(f *testing.F) {
	f.Add([]byte(hostileCRD), "v1")
	f.Add([]byte(numbersCRD), "v1")
	f.Add([]byte(celBudgetCRD), "v1")
	f.Add([]byte(`{"spec":{"versions":[{"name":"v1","schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-validations":[{"rule":"self.x","messageExpression":"'a'"}]}}}]}}`), "v1")
	f.Fuzz(func(t *testing.T, data []byte, version string) {
		def, _, err := manifest.UnmarshalCRD(data)
		if err != nil {
			return
		}
		before := hostile.Clone(def)
		crd.RuleCosts(def, nil, version)
		crd.RuleCosts(def, def, version)
		if r, err := crd.New(def, version); err == nil {
			r.Create(ctx, map[string]any{"apiVersion": def.Spec.Group + "/" + version, "kind": def.Spec.Names.Kind, "metadata": map[string]any{"name": "x"}})
		}
		if !reflect.DeepEqual(def, before) {
			t.Fatal("the CRD was modified")
		}
	})
}
