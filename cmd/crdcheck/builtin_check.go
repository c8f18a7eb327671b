package main

import (
	"sync"
	"sync/atomic"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/builtin"
)

// builtinAPIs are the built-in kinds of each release, loaded on first use
// (runs without built-in objects never decompress them).
var builtinAPIs = struct {
	mu        sync.Mutex
	byVersion map[crdschema.KubernetesVersion]*builtin.API
}{byVersion: map[crdschema.KubernetesVersion]*builtin.API{}}

// builtinAPI returns the built-in kinds of the release in force.
func builtinAPI() (*builtin.API, error) {
	builtinAPIs.mu.Lock()
	defer builtinAPIs.mu.Unlock()
	if a := builtinAPIs.byVersion[kubernetesVersion]; a != nil {
		return a, nil
	}
	a, err := builtin.New(builtin.WithKubernetesVersion(kubernetesVersion))
	if err != nil {
		return nil, err
	}
	builtinAPIs.byVersion[kubernetesVersion] = a
	return a, nil
}

// builtinChecked counts the objects of built-in kinds checked in this run
// (the text output keeps no record of accepted objects).
var builtinChecked atomic.Int64

// builtinNote is what the report says of the checks of built-in kinds.
const builtinNote = "built-in kinds are checked as the API server decodes them (JSON types, number ranges, quantities, times, unknown fields), for the required fields of the release's published schema, for the declarative validation the release makes authoritative (bounds, enumerations, formats, immutable fields), and for metadata and names; hand-written validation (k8s.io/kubernetes/pkg/apis/<group>/validation), defaulting and admission are not reproduced"

// checkBuiltin checks an object of a kind the release serves itself, and
// reports false for any other kind.
func (c *checker) checkBuiltin(o outcome, d document) (outcome, bool) {
	api, err := builtinAPI()
	if err != nil {
		return o, false
	}
	if _, ok := api.Lookup(o.apiVersion, o.kind); !ok {
		return o, false
	}
	var r *builtin.Result
	old := c.olds.find(d.obj)
	if old != nil {
		o.operation = "update"
		r, err = api.Update(withResourceVersion(d.obj, old), old)
	} else {
		o.operation = "create"
		r, err = api.Create(d.obj)
	}
	builtinChecked.Add(1)
	o.status = statusRejected
	o.checkedBy = builtinLayers
	if err != nil {
		o.problem = err.Error()
		return o, true
	}
	if o.namespace == "" && r.Kind.Namespaced { // kubectl sends it to "default"
		o.namespace = "default"
	}
	if r.DecodeError != nil {
		o.problem = r.DecodeError.Error()
		o.message = requestError("BadRequest", o.operation, d.file, o.problem)
		return o, true
	}
	o.unknownFields = r.UnknownFields
	for _, e := range r.Errors {
		o.errs = append(o.errs, e.Error)
	}
	o.warnings = append(o.warnings, r.Warnings...)
	return c.verdict(o, d.file), true
}

// builtinLayers are the layers of checks of built-in kinds, in the order
// the API server runs them (package builtin's documentation).
var builtinLayers = []string{"decode", "schema", "declarative", "metadata"}

// builtinRelease names the release whose built-in kinds are checked.
func builtinRelease() string {
	if api, err := builtinAPI(); err == nil {
		return api.KubernetesVersion()
	}
	return kubernetesVersion.String()
}
