package crd

import (
	"net/url"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/k8snames"
)

// validateNames checks the names of spec.names or status.acceptedNames:
// plural, singular, short names and categories are DNS-1035 labels, kind
// and listKind are too once lower-cased, and kind differs from listKind.
// Empty names are not reported here.
func validateNames(names *crdschema.CustomResourceDefinitionNames, fldPath *crdschema.Path) crdschema.ErrorList {
	var errs crdschema.ErrorList
	label := func(p *crdschema.Path, v string) {
		if msgs := k8snames.IsDNS1035Label(v); len(msgs) > 0 {
			errs = append(errs, crdschema.Invalid(p, v, strings.Join(msgs, ",")))
		}
	}
	mixedCase := func(p *crdschema.Path, v string) {
		if msgs := k8snames.IsDNS1035Label(strings.ToLower(v)); len(msgs) > 0 {
			errs = append(errs, crdschema.Invalid(p, v, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
		}
	}
	if names.Plural != "" {
		label(fldPath.Child("plural"), names.Plural)
	}
	if names.Singular != "" {
		label(fldPath.Child("singular"), names.Singular)
	}
	if names.Kind != "" {
		mixedCase(fldPath.Child("kind"), names.Kind)
	}
	if names.ListKind != "" {
		mixedCase(fldPath.Child("listKind"), names.ListKind)
	}
	for i, n := range names.ShortNames {
		label(fldPath.Child("shortNames").Index(i), n)
	}
	if names.Kind != "" && names.Kind == names.ListKind {
		errs = append(errs, crdschema.Invalid(fldPath.Child("listKind"), names.ListKind, "kind and listKind may not be the same"))
	}
	for i, n := range names.Categories {
		label(fldPath.Child("categories").Index(i), n)
	}
	return errs
}

// apiApprovalAnnotation is the annotation that a CRD of a protected group
// (k8s.io, kubernetes.io and their subdomains) must carry: the URL of the
// pull request that approved the API, or a reason starting with
// "unapproved".
const apiApprovalAnnotation = "api-approved.kubernetes.io"

// isProtectedGroup reports whether group belongs to the Kubernetes
// project's own API groups.
func isProtectedGroup(group string) bool {
	return group == "k8s.io" || strings.HasSuffix(group, ".k8s.io") ||
		group == "kubernetes.io" || strings.HasSuffix(group, ".kubernetes.io")
}

type approvalState int

const (
	approvalInvalid approvalState = iota
	approved
	approvalBypassed
	approvalMissing
)

// approvalOf classifies the approval annotation of annotations.
func approvalOf(annotations map[string]string) approvalState {
	a := annotations[apiApprovalAnnotation]
	switch {
	case a == "":
		return approvalMissing
	case strings.HasPrefix(a, "unapproved"):
		return approvalBypassed
	}
	if u, err := url.ParseRequestURI(a); err == nil && u.Host != "" && u.Scheme != "" {
		return approved
	}
	return approvalInvalid
}

// validateAPIApproval requires a valid approval annotation on CRDs of
// protected groups, unless an update leaves its state as it was.
func validateAPIApproval(in, old *internalCRD) crdschema.ErrorList {
	if !isProtectedGroup(in.spec.group) {
		return nil
	}
	state := approvalOf(in.meta.Annotations)
	if old != nil && approvalOf(old.meta.Annotations) == state {
		return nil
	}
	p := crdschema.NewPath("metadata", "annotations").Key(apiApprovalAnnotation)
	switch state {
	case approvalMissing:
		return crdschema.ErrorList{crdschema.Required(p, `protected groups must have approval annotation "`+apiApprovalAnnotation+`", see https://github.com/kubernetes/enhancements/pull/1111`)}
	case approvalInvalid:
		return crdschema.ErrorList{crdschema.Invalid(p, in.meta.Annotations[apiApprovalAnnotation], `protected groups must have approval annotation "`+apiApprovalAnnotation+`" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`)}
	}
	return nil
}

// validatePreserveUnknownFields forbids spec.preserveUnknownFields: true,
// unless the stored CRD has it already.
func validatePreserveUnknownFields(in, old *internalCRD) crdschema.ErrorList {
	if old != nil && old.spec.preserveUnknownFields {
		return nil
	}
	if in.spec.preserveUnknownFields {
		return crdschema.ErrorList{crdschema.Invalid(crdschema.NewPath("spec", "preserveUnknownFields"), true, "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead")}
	}
	return nil
}
