package conformance

import (
	"context"
	"fmt"
	"regexp"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/openapi"
	"github.com/crdschema/crdschema/printer"
)

// built lists the stages the library has; runCase skips cases that need
// the others.
var built = map[stage]bool{
	stageCRD:      true,
	stageRequests: true,
	stageOpenAPI:  true,
	stageTable:    true,
	stageDefaults: true,
	stageCEL:      true,
	stageRatchet:  true,
}

// goldenError is a field error in the goldens' form.
type goldenError struct {
	Type    string `json:"type"`
	Field   string `json:"field"`
	Detail  string `json:"detail"`
	Message string `json:"message"`
}

// selfType matches the CEL type names upstream derives from the clock; the
// goldens write them selfType<N>.
var selfType = regexp.MustCompile(`selfType[0-9]+`)

// pointer matches a pointer as Go's %#v prints it, (*T)(0xc000123456),
// which bad values of Kubernetes 1.33 show; the goldens write (0x<ptr>).
var pointer = regexp.MustCompile(`\)\(0x[0-9a-f]+\)`)

// stable replaces what changes from run to run in an error text by the
// goldens' markers.
func stable(s string) string {
	return pointer.ReplaceAllString(selfType.ReplaceAllString(s, "selfType<N>"), ")(0x<ptr>)")
}

func toGolden(l crdschema.ErrorList) []goldenError {
	out := make([]goldenError, 0, len(l))
	for _, e := range l {
		out = append(out, goldenError{
			Type:    string(e.Type),
			Field:   e.Field,
			Detail:  stable(e.Detail),
			Message: stable(e.Error()),
		})
	}
	return out
}

// crdOutcome is the library's result for a case's CRD step.
type crdOutcome struct {
	def           *crdschema.CustomResourceDefinition
	errors        []goldenError
	unknownFields []string
	celCosts      []any
	usesCEL       bool // some schema of the CRD (or the old CRD) has x-kubernetes-validations
	hasDefaults   bool // some schema of the CRD has a default
}

// runCRD runs the CRD step of c as the API server of release rel ("" for
// the default) does.
func runCRD(c *testCase, rel string) (*crdOutcome, error) {
	kv := crd.WithKubernetesVersion(mustKubeVersion(rel))
	def, unknown, err := manifest.UnmarshalCRD(c.CRD)
	if err != nil {
		return nil, err
	}
	out := &crdOutcome{def: def, unknownFields: unknown}
	scan(def, out)
	var errs crdschema.ErrorList
	if c.OldCRD != nil {
		old, _, err := manifest.UnmarshalCRD(c.OldCRD)
		if err != nil {
			return nil, err
		}
		scan(old, out)
		establish(old)
		errs = crd.ValidateUpdate(context.Background(), def, old, kv)
	} else {
		errs = crd.Validate(context.Background(), def, kv)
	}
	out.errors = toGolden(errs)
	var old *crdschema.CustomResourceDefinition
	if c.OldCRD != nil {
		old, _, _ = manifest.UnmarshalCRD(c.OldCRD)
	}
	version := caseVersion(c, def)
	if costs, err := crd.RuleCosts(def, old, version, kv); err == nil {
		for _, cost := range costs {
			out.celCosts = append(out.celCosts, map[string]any{
				"field": cost.Field, "rule": cost.Rule, "cost": cost.Cost, "cardinality": cost.Cardinality,
			})
		}
	}
	return out, nil
}

// mustKubeVersion parses a release the suite names ("" for the default).
func mustKubeVersion(rel string) crdschema.KubernetesVersion {
	v, err := crdschema.ParseKubernetesVersion(rel)
	if err != nil {
		panic(err)
	}
	return v
}

// establish marks a stored CRD as the API server's controllers leave it:
// names accepted and Established.
func establish(old *crdschema.CustomResourceDefinition) {
	d := crd.Defaulted(old)
	old.Status.AcceptedNames = d.Spec.Names
	old.Status.Conditions = append(old.Status.Conditions,
		crdschema.CustomResourceDefinitionCondition{Type: crdschema.NamesAccepted, Status: crdschema.ConditionTrue},
		crdschema.CustomResourceDefinitionCondition{Type: crdschema.Established, Status: crdschema.ConditionTrue},
	)
}

// scan records whether the CRD's schemas use CEL rules or defaults.
func scan(def *crdschema.CustomResourceDefinition, out *crdOutcome) {
	var walk func(s *crdschema.JSONSchemaProps)
	walk = func(s *crdschema.JSONSchemaProps) {
		if s == nil {
			return
		}
		if len(s.XValidations) > 0 {
			out.usesCEL = true
		}
		if s.Default != nil {
			out.hasDefaults = true
		}
		for _, p := range s.Properties {
			walk(&p)
		}
		if s.AdditionalProperties != nil {
			walk(s.AdditionalProperties.Schema)
		}
		if s.Items != nil {
			walk(s.Items.Schema)
			for i := range s.Items.JSONSchemas {
				walk(&s.Items.JSONSchemas[i])
			}
		}
		for _, l := range [][]crdschema.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
			for i := range l {
				walk(&l[i])
			}
		}
		walk(s.Not)
	}
	for _, v := range def.Spec.Versions {
		if v.Schema != nil {
			walk(v.Schema.OpenAPIV3Schema)
		}
	}
}

// requestOutcome is the library's result for one request.
type requestOutcome struct {
	requestError  string
	unknownFields []string
	object        map[string]any
	errors        []goldenError
	table         any
}

func runRequest(c *testCase, out *crdOutcome, r testRequest, rel string) (*requestOutcome, error) {
	version := caseVersion(c, out.def)
	opts := []crd.Option{
		crd.WithClock(func() time.Time { return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) }),
		crd.WithUID(func() string { return "00000000-0000-0000-0000-000000000001" }),
		crd.WithNameSuffix(func() string { return "xxxxx" }),
		crd.WithKubernetesVersion(mustKubeVersion(rel)),
	}
	if c.OldCRD != nil {
		// accepted as an update, which may keep what a create refuses
		opts = append(opts, crd.WithoutValidation())
	}
	res, err := crd.New(out.def, version, opts...)
	if err != nil {
		return nil, err
	}
	body, err := jsonscan.Decode(r.Object)
	if err != nil {
		return &requestOutcome{requestError: err.Error()}, nil
	}
	obj, _ := body.(map[string]any)
	var result *crd.Result
	switch {
	case r.Operation == "create":
		result, err = res.Create(context.Background(), obj)
	default:
		oldBody, derr := jsonscan.Decode(r.OldObject)
		if derr != nil {
			return nil, derr
		}
		old, _ := oldBody.(map[string]any)
		if r.Subresource == "status" {
			result, err = res.UpdateStatus(context.Background(), obj, old)
		} else {
			result, err = res.Update(context.Background(), obj, old)
		}
	}
	if result.Object == nil || err != nil && len(result.Errors) == 0 {
		// refused before validation, or by storage
		return &requestOutcome{requestError: err.Error()}, nil
	}
	if err == nil {
		// The goldens hold the object before storage, without the
		// resourceVersion storage gives it: the request's.
		m := result.Object["metadata"].(map[string]any)
		delete(m, "resourceVersion")
		if r.Operation != "create" {
			if bm, ok := obj["metadata"].(map[string]any); ok && bm["resourceVersion"] != nil {
				m["resourceVersion"] = bm["resourceVersion"]
			}
		}
	}
	return &requestOutcome{
		unknownFields: result.UnknownFields,
		object:        result.Object,
		errors:        toGolden(result.Errors),
		table:         tableOf(out.def, version, result.Object),
	}, nil
}

// tableOf renders the printer columns of version and obj's row in the
// goldens' form: a date cell holding an age is written "<age>".
func tableOf(def *crdschema.CustomResourceDefinition, version string, obj map[string]any) any {
	var cols []crdschema.CustomResourceColumnDefinition
	if v := def.Version(version); v != nil {
		cols = v.AdditionalPrinterColumns
	}
	p, _ := printer.New(cols) // a bad column leaves the columns before it, as upstream
	columns := []any{}
	for _, c := range p.Columns() {
		columns = append(columns, map[string]any{
			"name": c.Name, "type": c.Type, "format": c.Format, "description": c.Description, "priority": c.Priority,
		})
	}
	cells := []any{}
	for i, cell := range p.Row(obj) {
		if s, ok := cell.(string); ok && p.Columns()[i].Type == "date" && s != "<unknown>" && s != "<invalid>" {
			cell = "<age>"
		}
		cells = append(cells, cell)
	}
	return map[string]any{"columns": columns, "cells": cells}
}

// caseVersion is the version a case's requests and figures use: the one it
// names, or else the storage version; of several storage versions (a CRD
// the API server refuses) the last, as the oracle takes it.
func caseVersion(c *testCase, def *crdschema.CustomResourceDefinition) string {
	if c.Version != "" {
		return c.Version
	}
	version := ""
	for _, v := range def.Spec.Versions {
		if v.Storage {
			version = v.Name
		}
	}
	return version
}

// compareOpenAPI compares the published documents with the golden's; a CRD
// the API server refuses publishes none.
func compareOpenAPI(c *testCase, out *crdOutcome, want any, rel string) string {
	if len(out.errors) > 0 {
		if want != nil {
			return fmt.Sprintf("openapi: expected no documents for a refused CRD, the golden has %v", want)
		}
		return ""
	}
	version := caseVersion(c, out.def)
	w, _ := want.(map[string]any)
	v2, err := openapi.V2(out.def, version, openapi.Options{KubernetesVersion: mustKubeVersion(rel)})
	if err != nil {
		return "openapi.v2: " + err.Error()
	}
	g2, err := normalize(v2)
	if err != nil {
		return "openapi.v2: " + err.Error()
	}
	if d := firstDiff("openapi.v2", w["v2"], g2); d != "" {
		return d
	}
	v3, err := openapi.V3(out.def, version, openapi.Options{KubernetesVersion: mustKubeVersion(rel)})
	if err != nil {
		return "openapi.v3: " + err.Error()
	}
	g3, err := normalize(v3)
	if err != nil {
		return "openapi.v3: " + err.Error()
	}
	return firstDiff("openapi.v3", w["v3"], g3)
}
