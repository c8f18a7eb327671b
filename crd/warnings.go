package crd

import (
	"fmt"
	"slices"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/k8snames"
)

// result assembles the Result of a request with the decoded and prepared
// object o, the fields dropped while decoding and the validation errors.
// When the request is valid and finalizers is set, the finalizers o adds
// to old (all of them on a create, where old is nil) are warned about, as
// the API server's strategy does for the main resource.
func (r *Resource) result(o map[string]any, unknown []string, errs crdschema.ErrorList, finalizers bool, old map[string]any) *Result {
	r.releaseObject(o)
	res := &Result{Object: o, UnknownFields: unknown, Errors: r.releaseErrors(errs)}
	for _, f := range unknown {
		res.Warnings = append(res.Warnings, unknownFieldWarning(f))
	}
	if finalizers && len(errs) == 0 {
		res.Warnings = append(res.Warnings, finalizerWarnings(o, old)...)
	}
	return res
}

// unknownFieldWarning is the warning about a field dropped while decoding.
func unknownFieldWarning(field string) string {
	return fmt.Sprintf("unknown field %q", field)
}

// standardFinalizers are the finalizers of Kubernetes itself, which need
// no domain.
var standardFinalizers = map[string]bool{"orphan": true, "foregroundDeletion": true, "kubernetes": true}

// finalizerWarnings warns about the finalizers that o adds to old (all of
// them on a create), as the API server's custom resource strategy does.
func finalizerWarnings(o, old map[string]any) []string {
	had := stringList(metaOf(old)["finalizers"])
	names := slices.DeleteFunc(stringList(metaOf(o)["finalizers"]), func(f string) bool { return slices.Contains(had, f) })
	slices.Sort(names)
	names = slices.Compact(names)
	const field = "metadata.finalizers"
	var out []string
	for _, f := range names {
		for _, msg := range k8snames.IsQualifiedName(f) {
			out = append(out, fmt.Sprintf("%s: %q: %s", field, f, msg))
		}
		if !strings.Contains(f, "/") && !standardFinalizers[f] {
			if strings.Contains(f, ".") {
				out = append(out, fmt.Sprintf("%s: %q: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers", field, f))
			} else {
				out = append(out, fmt.Sprintf("%s: %q: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers", field, f))
			}
		}
	}
	return out
}

func stringList(v any) []string {
	l, _ := v.([]any)
	out := make([]string, 0, len(l))
	for _, x := range l {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
