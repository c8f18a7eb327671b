package main

import (
	"context"
	"fmt"
	"io"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/costs"
)

// reportFixes prints the bounds that bring a CRD under the API server's
// cost limits, when it is over them: r and err are costs.Explain's.
func reportFixes(w io.Writer, r *costs.Report, err error) {
	if err != nil {
		fmt.Fprintf(w, "(cannot explain the costs: %v)\n", err)
		return
	}
	if len(r.Rules) == 0 {
		return
	}
	fmt.Fprintf(w, "\nHow the figures are made:\n")
	for _, rule := range r.Rules {
		fmt.Fprintf(w, "  %s\n    cost %s per evaluation × cardinality %s", rule.Field, thousands(rule.Cost), thousands(rule.Cardinality))
		for _, c := range rule.Collections {
			fmt.Fprintf(w, "\n      %s: %s", c.FieldPath, describeBound(c))
		}
		for _, u := range rule.Unbounded {
			fmt.Fprintf(w, "\n      read unbounded: %s (no %s)", u.FieldPath, u.Keyword)
		}
		fmt.Fprintln(w)
	}
	if len(r.Fixes) > 0 {
		fmt.Fprintf(w, "\nEach of these bounds alone brings the CRD under the limits (checked with crd.Validate):\n")
		for _, f := range r.Fixes {
			fmt.Fprintf(w, "  %s\n", describeFix(f))
		}
	}
	switch {
	case len(r.Fewest) > 1:
		heading := "No single bound is enough; together these do"
		if len(r.Fixes) > 0 {
			heading = "Recommended: these together, which spread the budget and allow larger values"
		}
		fmt.Fprintf(w, "\n%s (checked with crd.Validate):\n", heading)
		for _, f := range r.Fewest {
			fmt.Fprintf(w, "  %s\n", describeFix(f))
		}
	case len(r.Fewest) == 0:
		fmt.Fprintf(w, "\nNo bound on the rules' paths is enough: simplify the rules.\n")
	}
}

func describeBound(b costs.Bound) string {
	if b.Value < 0 && b.Worst > 0 {
		return fmt.Sprintf("no %s: taken as %s, the worst case the request size allows", b.Keyword, thousands(b.Worst))
	}
	if b.Value < 0 {
		return "no " + b.Keyword + ": the worst case the request size allows"
	}
	return fmt.Sprintf("%s %d", b.Keyword, b.Value)
}

func describeFix(f costs.Fix) string {
	now := "unset"
	if f.Current >= 0 {
		now = fmt.Sprint(f.Current)
	}
	return fmt.Sprintf("%s %s=%d (at most %d; now %s)\n    %s\n    %s",
		f.FieldPath, f.Keyword, f.Value, f.Largest, now, f.Path, f.Marker())
}

// reportRuntime prints each rule's actual cost on each object of objs.
func reportRuntime(w io.Writer, def *crdschema.CustomResourceDefinition, version string, objs []map[string]any) error {
	for i, obj := range objs {
		rc, err := costs.Runtime(context.Background(), def, version, obj)
		if err != nil {
			return fmt.Errorf("object %d: %v", i+1, err)
		}
		name, _ := obj["metadata"].(map[string]any)["name"].(string)
		fmt.Fprintf(w, "\nObject %d (%s), version %s: actual costs\n", i+1, name, version)
		for _, c := range rc {
			fmt.Fprintf(w, "  %s\n", c)
		}
	}
	return nil
}
