//go:build k8s133 || k8s134 || k8s135 || k8s136

package upstream

// Before v0.37, rest.ValidateCreate and rest.ValidateUpdate did not exist:
// validation was the second half of rest.BeforeCreate and rest.BeforeUpdate,
// which return the field errors wrapped in an Invalid status error. These are
// those halves, line by line from apiserver v0.33 to v0.36 (they are the same
// there but for the name validation function, validatePathSegment, defined
// in the k8s13N.go files). Metrics (RecordDuplicateValidationErrors in
// v0.35 and v0.36) are left out.

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	genericvalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
)

// validateCreate is the validation part of rest.BeforeCreate: the strategy's
// validation, and only when it passes, the ObjectMeta checks.
func validateCreate(ctx context.Context, obj runtime.Object, strategy rest.RESTCreateStrategy) field.ErrorList {
	if errs := strategy.Validate(ctx, obj); len(errs) > 0 {
		return errs
	}
	objectMeta, err := meta.Accessor(obj)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("metadata"), err)}
	}
	return genericvalidation.ValidateObjectMetaAccessor(objectMeta, strategy.NamespaceScoped(), validatePathSegment, field.NewPath("metadata"))
}

// validateUpdate is the validation part of rest.BeforeUpdate:
// validateCommonFields, then the strategy's validation.
func validateUpdate(ctx context.Context, obj, old runtime.Object, strategy rest.RESTUpdateStrategy) field.ErrorList {
	allErrs := field.ErrorList{}
	objectMeta, err := meta.Accessor(obj)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("metadata"), err)}
	}
	oldObjectMeta, err := meta.Accessor(old)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("metadata"), err)}
	}
	allErrs = append(allErrs, genericvalidation.ValidateObjectMetaAccessor(objectMeta, strategy.NamespaceScoped(), validatePathSegment, field.NewPath("metadata"))...)
	allErrs = append(allErrs, genericvalidation.ValidateObjectMetaAccessorUpdate(objectMeta, oldObjectMeta, field.NewPath("metadata"))...)
	return append(allErrs, strategy.ValidateUpdate(ctx, obj, old)...)
}
