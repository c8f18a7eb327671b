package metavalidation

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"

	kjson "sigs.k8s.io/json"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/k8snames"
)

// NameFunc checks an object name, or a generateName prefix when prefix is
// true, and returns the problems found, as the name checks of this package
// do.
type NameFunc func(name string, prefix bool) []string

// TotalAnnotationSizeLimit is the most bytes that an object's annotation
// keys and values may hold together.
const TotalAnnotationSizeLimit = 256 * (1 << 10)

// The limits on managedFields entries.
const (
	fieldManagerMaxLength    = 128
	subresourceNameMaxLength = 256
)

// Finalizers with a meaning to the garbage collector; an object may not
// carry both.
const (
	finalizerOrphan     = "orphan"
	finalizerForeground = "foregroundDeletion"
)

// Details of errors that several checks report.
const (
	fieldImmutable = "field is immutable"
	notNegative    = "must be greater than or equal to 0"
)

var (
	// NameIsDNSSubdomain is the NameFunc of objects whose names are DNS
	// subdomains, the custom resources among them.
	NameIsDNSSubdomain = maskedPrefix(k8snames.IsDNS1123Subdomain)
	// NameIsDNSLabel is the NameFunc of objects whose names are RFC 1123
	// DNS labels, namespaces among them.
	NameIsDNSLabel = maskedPrefix(k8snames.IsDNS1123Label)
	// NameIsDNS1035Label is the NameFunc of objects whose names are RFC
	// 1035 DNS labels.
	NameIsDNS1035Label = maskedPrefix(k8snames.IsDNS1035Label)
)

// maskedPrefix is the NameFunc that checks names with check, and prefixes
// with their trailing dash masked, as the API server checks generateName.
func maskedPrefix(check func(string) []string) NameFunc {
	return func(name string, prefix bool) []string {
		if prefix {
			name = k8snames.MaskTrailingDash(name)
		}
		return check(name)
	}
}

// NameIsPathSegment is the NameFunc of embedded resources: a name need only
// be usable as a URL path segment.
func NameIsPathSegment(name string, prefix bool) []string {
	if prefix {
		return k8snames.IsPathSegmentPrefix(name)
	}
	return k8snames.IsPathSegmentName(name)
}

// ValidateObjectMetaNames is the part of ValidateObjectMeta that nameFn
// decides: the checks of generateName and name. Where ValidateObjectMeta
// found nothing with one name function, this is all it can find with
// another.
func ValidateObjectMetaNames(meta *crdschema.ObjectMeta, nameFn NameFunc, fldPath *crdschema.Path) crdschema.ErrorList {
	var errs crdschema.ErrorList
	if meta.GenerateName != "" && nameFn != nil {
		for _, msg := range nameFn(meta.GenerateName, true) {
			errs = append(errs, crdschema.Invalid(fldPath.Child("generateName"), meta.GenerateName, msg))
		}
	}
	if meta.Name == "" {
		errs = append(errs, crdschema.Required(fldPath.Child("name"), "name or generateName is required"))
	} else if nameFn != nil {
		for _, msg := range nameFn(meta.Name, false) {
			errs = append(errs, crdschema.Invalid(fldPath.Child("name"), meta.Name, msg))
		}
	}
	return errs
}

// ValidateObjectMeta checks the metadata of an object being created, as the
// API server does: name or generateName (with nameFn), namespace (required
// when requiresNamespace, forbidden otherwise), generation, labels,
// annotations, owner references, finalizers and managed fields. A nil meta
// is checked as empty metadata.
//
// Upstream visits labels and annotations in map order; here keys are
// visited in sorted order.
func ValidateObjectMeta(meta *crdschema.ObjectMeta, requiresNamespace bool, nameFn NameFunc, fldPath *crdschema.Path) crdschema.ErrorList {
	if meta == nil {
		meta = &crdschema.ObjectMeta{}
	}
	errs := ValidateObjectMetaNames(meta, nameFn, fldPath)
	if requiresNamespace {
		if meta.Namespace == "" {
			errs = append(errs, crdschema.Required(fldPath.Child("namespace"), ""))
		} else {
			for _, msg := range NameIsDNSLabel(meta.Namespace, false) {
				errs = append(errs, crdschema.Invalid(fldPath.Child("namespace"), meta.Namespace, msg))
			}
		}
	} else if meta.Namespace != "" {
		errs = append(errs, crdschema.Forbidden(fldPath.Child("namespace"), "not allowed on this type"))
	}
	// Empty fields are valid: their paths are built only for a field
	// that is set.
	if meta.Generation < 0 {
		errs = append(errs, crdschema.Invalid(fldPath.Child("generation"), meta.Generation, notNegative))
	}
	return append(errs, validateContents(meta, true, fldPath)...)
}

// validateContents checks the labels, annotations, owner references,
// finalizers (withFinalizers) and managed fields of meta that are set.
func validateContents(meta *crdschema.ObjectMeta, withFinalizers bool, fldPath *crdschema.Path) crdschema.ErrorList {
	var errs crdschema.ErrorList
	if len(meta.Labels) > 0 {
		errs = append(errs, ValidateLabels(meta.Labels, fldPath.Child("labels"))...)
	}
	if len(meta.Annotations) > 0 {
		errs = append(errs, ValidateAnnotations(meta.Annotations, fldPath.Child("annotations"))...)
	}
	if len(meta.OwnerReferences) > 0 {
		errs = append(errs, ValidateOwnerReferences(meta.OwnerReferences, fldPath.Child("ownerReferences"))...)
	}
	if withFinalizers && len(meta.Finalizers) > 0 {
		errs = append(errs, ValidateFinalizers(meta.Finalizers, fldPath.Child("finalizers"))...)
	}
	if len(meta.ManagedFields) > 0 {
		errs = append(errs, validateManagedFields(meta.ManagedFields, fldPath.Child("managedFields"))...)
	}
	return errs
}

// ValidateObjectMetaUpdate checks the metadata of an updated object against
// the stored one: a resourceVersion is required, generation may not go
// down, name, namespace, uid, creationTimestamp, deletionTimestamp and
// deletionGracePeriodSeconds may not change, no finalizer may be added to
// an object being deleted, and labels, annotations, owner references and
// managed fields must be valid. Nil metadata is checked as empty.
func ValidateObjectMetaUpdate(newMeta, oldMeta *crdschema.ObjectMeta, fldPath *crdschema.Path) crdschema.ErrorList {
	if newMeta == nil {
		newMeta = &crdschema.ObjectMeta{}
	}
	if oldMeta == nil {
		oldMeta = &crdschema.ObjectMeta{}
	}
	var errs crdschema.ErrorList
	if oldMeta.DeletionTimestamp != nil {
		errs = append(errs, validateNoNewFinalizers(newMeta.Finalizers, oldMeta.Finalizers, fldPath.Child("finalizers"))...)
	}
	if newMeta.ResourceVersion == "" {
		errs = append(errs, crdschema.Invalid(fldPath.Child("resourceVersion"), newMeta.ResourceVersion, "must be specified for an update"))
	}
	if newMeta.Generation < 0 {
		errs = append(errs, crdschema.Invalid(fldPath.Child("generation"), newMeta.Generation, notNegative))
	}
	if newMeta.Generation < oldMeta.Generation {
		errs = append(errs, crdschema.Invalid(fldPath.Child("generation"), newMeta.Generation, "must not be decremented"))
	}
	if newMeta.Name != oldMeta.Name {
		errs = append(errs, crdschema.Invalid(fldPath.Child("name"), newMeta.Name, fieldImmutable))
	}
	if newMeta.Namespace != oldMeta.Namespace {
		errs = append(errs, crdschema.Invalid(fldPath.Child("namespace"), newMeta.Namespace, fieldImmutable))
	}
	if newMeta.UID != oldMeta.UID {
		errs = append(errs, crdschema.Invalid(fldPath.Child("uid"), typedString(newMeta.UID), fieldImmutable))
	}
	if !newMeta.CreationTimestamp.Equal(oldMeta.CreationTimestamp.Time) {
		errs = append(errs, crdschema.Invalid(fldPath.Child("creationTimestamp"), newMeta.CreationTimestamp, fieldImmutable))
	}
	if !ptrEqual(newMeta.DeletionTimestamp, oldMeta.DeletionTimestamp, func(a, b crdschema.Time) bool { return a.Equal(b.Time) }) {
		errs = append(errs, crdschema.Invalid(fldPath.Child("deletionTimestamp"), newMeta.DeletionTimestamp, fieldImmutable))
	}
	if !ptrEqual(newMeta.DeletionGracePeriodSeconds, oldMeta.DeletionGracePeriodSeconds, func(a, b int64) bool { return a == b }) {
		errs = append(errs, crdschema.Invalid(fldPath.Child("deletionGracePeriodSeconds"), newMeta.DeletionGracePeriodSeconds, fieldImmutable))
	}
	return append(errs, validateContents(newMeta, false, fldPath)...)
}

// ptrEqual reports whether a and b are both nil, or point to values
// that equal says are equal.
func ptrEqual[T any](a, b *T, equal func(a, b T) bool) bool {
	if a == nil || b == nil {
		return a == b
	}
	return equal(*a, *b)
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys) // inlined with it, unlike slices.Sort: keys stays on the stack
	return keys
}

// ValidateLabels checks label keys (qualified names) and values. Errors are
// reported at fldPath itself, with the offending key or value.
func ValidateLabels(labels map[string]string, fldPath *crdschema.Path) crdschema.ErrorList {
	var errs crdschema.ErrorList
	for _, k := range sortedKeys(labels) {
		for _, msg := range k8snames.IsQualifiedName(k) {
			errs = append(errs, crdschema.Invalid(fldPath, k, msg))
		}
		v := labels[k]
		for _, msg := range k8snames.IsValidLabelValue(v) {
			errs = append(errs, crdschema.Invalid(fldPath, v, msg))
		}
	}
	return errs
}

// ValidateAnnotations checks annotation keys (qualified names once lower
// cased) and their total size.
func ValidateAnnotations(annotations map[string]string, fldPath *crdschema.Path) crdschema.ErrorList {
	var errs crdschema.ErrorList
	total := 0
	for _, k := range sortedKeys(annotations) {
		for _, msg := range k8snames.IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, crdschema.Invalid(fldPath, k, msg))
		}
		total += len(k) + len(annotations[k])
	}
	if total > TotalAnnotationSizeLimit {
		errs = append(errs, crdschema.TooLong(fldPath, "", TotalAnnotationSizeLimit))
	}
	return errs
}

// ParseGroupVersion splits an apiVersion as Kubernetes does: "" and "/"
// are the empty version, "v" is a core version, "g/v" a group version, and
// more slashes are an error.
func ParseGroupVersion(gv string) (group, version string, err error) {
	if gv == "" || gv == "/" {
		return "", "", nil
	}
	switch strings.Count(gv, "/") {
	case 0:
		return "", gv, nil
	case 1:
		i := strings.IndexByte(gv, '/')
		return gv[:i], gv[i+1:], nil
	}
	return "", "", fmt.Errorf("unexpected GroupVersion string: %v", gv)
}

// ValidateOwnerReferences checks each owner reference (apiVersion, kind,
// name and uid set; no Event owners) and that at most one is the
// controller.
func ValidateOwnerReferences(refs []crdschema.OwnerReference, fldPath *crdschema.Path) crdschema.ErrorList {
	var errs crdschema.ErrorList
	firstController := ""
	for i, ref := range refs {
		p := fldPath.Index(i)
		group, version, err := ParseGroupVersion(ref.APIVersion)
		if ref.APIVersion == "" {
			errs = append(errs, crdschema.Required(p.Child("apiVersion"), "must not be empty"))
		} else if err != nil || version == "" {
			errs = append(errs, crdschema.Invalid(p.Child("apiVersion"), ref.APIVersion, "must be <group>/<version> or <version>"))
		}
		if ref.Kind == "" {
			errs = append(errs, crdschema.Required(p.Child("kind"), "must not be empty"))
		}
		if ref.Name == "" {
			errs = append(errs, crdschema.Required(p.Child("name"), "must not be empty"))
		}
		if ref.UID == "" {
			errs = append(errs, crdschema.Required(p.Child("uid"), "must not be empty"))
		}
		if group == "" && version == "v1" && ref.Kind == "Event" {
			errs = append(errs, crdschema.Invalid(p, ref, "/v1, Kind=Event is disallowed from being an owner"))
		}
		if ref.Controller != nil && *ref.Controller {
			name := ref.Kind + "/" + ref.Name
			if firstController == "" {
				firstController = name
			} else {
				errs = append(errs, crdschema.Invalid(fldPath, refs, fmt.Sprintf(
					"Only one reference can have Controller set to true. Found \"true\" in references for %v and %v", firstController, name)))
			}
		}
	}
	return errs
}

// ValidateFinalizers checks that every finalizer is a qualified name and
// that "orphan" and "foregroundDeletion" are not both set.
func ValidateFinalizers(finalizers []string, fldPath *crdschema.Path) crdschema.ErrorList {
	var errs crdschema.ErrorList
	for _, f := range finalizers {
		for _, msg := range k8snames.IsQualifiedName(f) {
			errs = append(errs, crdschema.Invalid(fldPath, f, msg))
		}
	}
	if slices.Contains(finalizers, finalizerOrphan) && slices.Contains(finalizers, finalizerForeground) {
		errs = append(errs, crdschema.Invalid(fldPath, finalizers,
			"finalizer "+finalizerOrphan+" and "+finalizerForeground+" cannot be both set"))
	}
	return errs
}

// validateNoNewFinalizers forbids finalizers that the old object lacks.
func validateNoNewFinalizers(newF, oldF []string, fldPath *crdschema.Path) crdschema.ErrorList {
	var extra []string
	for _, f := range newF {
		if !slices.Contains(oldF, f) {
			extra = append(extra, f)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	slices.Sort(extra)
	return crdschema.ErrorList{crdschema.Forbidden(fldPath, fmt.Sprintf(
		"no new finalizers can be added if the object is being deleted, found new finalizers %#v", slices.Compact(extra)))}
}

// validateManagedFields checks the server-side apply records.
func validateManagedFields(entries []crdschema.ManagedFieldsEntry, fldPath *crdschema.Path) crdschema.ErrorList {
	var errs crdschema.ErrorList
	for i, e := range entries {
		p := fldPath.Index(i)
		switch e.Operation {
		case "":
			errs = append(errs, crdschema.Required(p.Child("operation"), "must not be empty"))
		case "Apply", "Update":
		default:
			errs = append(errs, crdschema.NotSupported(p.Child("operation"), typedString(e.Operation), []string{"Apply", "Update"}))
		}
		if e.FieldsType != "" && e.FieldsType != "FieldsV1" {
			errs = append(errs, crdschema.Invalid(p.Child("fieldsType"), e.FieldsType, "must be `FieldsV1`"))
		}
		mp := p.Child("manager")
		if len(e.Manager) > fieldManagerMaxLength {
			errs = append(errs, crdschema.TooLong(mp, "", fieldManagerMaxLength))
		}
		for j, r := range e.Manager {
			if !unicode.IsPrint(r) {
				errs = append(errs, crdschema.Invalid(mp, e.Manager, fmt.Sprintf("invalid character %#U (at position %d)", r, j)))
			}
		}
		if len(e.Subresource) > subresourceNameMaxLength {
			errs = append(errs, crdschema.TooLong(p.Child("subresource"), "", subresourceNameMaxLength))
		}
	}
	return errs
}

// DecodeObjectMeta reads the value of an object's metadata field into
// ObjectMeta the way the API server does: through JSON, case-sensitively,
// ignoring unknown fields. Its errors are Go's JSON decoding errors, which
// the API server reports as they are.
func DecodeObjectMeta(v any) (*crdschema.ObjectMeta, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	meta := &crdschema.ObjectMeta{}
	if err := kjson.UnmarshalCaseSensitivePreserveInts(b, meta); err != nil {
		return nil, err
	}
	return meta, nil
}

// typedString is the bad value of an error about a field that
// apimachinery declares with a string type of its own (types.UID,
// ManagedFieldsOperationType): field.Error prints such a value with
// json.Marshal, which escapes <, > and & ("\u0026"), not with
// strconv.Quote as it prints a plain string.
type typedString string
