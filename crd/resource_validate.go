package crd

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/internal/metavalidation"
	"github.com/crdschema/crdschema/internal/objectmeta"
)

// validateCreate is rest.ValidateCreate with the custom resource strategy:
// the strategy's checks and, when they pass, the root metadata once more
// with path-segment names.
func (r *core) validateCreate(ctx context.Context, o map[string]any, scale *crdschema.CustomResourceSubresourceScale) crdschema.ErrorList {
	errs := r.validateTypeMeta(o)
	var meta *crdschema.ObjectMeta
	if len(errs) == 0 {
		var merrs crdschema.ErrorList
		if !r.metaless(o) {
			meta, merrs = r.objectMeta(o)
		}
		if merrs != nil {
			errs = append(errs, merrs...)
		} else if meta != nil {
			errs = append(errs, metavalidation.ValidateObjectMeta(meta, r.namespacedMeta(meta), metavalidation.NameIsDNSSubdomain, crdschema.NewPath("metadata"))...)
		}
		errs = append(errs, r.validator.Validate(nil, o)...)
		errs = append(errs, validateScaleSpec(o, scale)...)
		errs = append(errs, validateScaleStatus(o, scale)...)
	}
	errs = append(errs, r.embeddedMeta(o)...)
	errs = append(errs, r.listSetsAndMaps(o)...)
	errs = r.appendRules(ctx, errs, o, nil)
	if len(errs) == 0 && meta != nil {
		// The metadata passed ValidateObjectMeta above (nothing since has
		// changed it): only the checks of the names can fail with
		// path-segment names.
		errs = append(errs, metavalidation.ValidateObjectMetaNames(meta, metavalidation.NameIsPathSegment, crdschema.NewPath("metadata"))...)
	}
	return errs
}

// validateUpdate is rest.ValidateUpdate with the custom resource strategy.
func (r *core) validateUpdate(ctx context.Context, o, old map[string]any, scale *crdschema.CustomResourceSubresourceScale) crdschema.ErrorList {
	corr := r.correlate(o, old)
	m := r.decodeMetas(o, old)
	errs := r.validateCommon(m)
	tm := r.validateTypeMeta(o)
	if len(tm) > 0 {
		errs = append(errs, tm...)
	} else {
		errs = append(errs, r.validateMetaUpdate(m)...)
		errs = append(errs, r.validator.ValidateUpdate(nil, o, corr).Errors...)
		errs = append(errs, validateScaleSpec(o, scale)...)
		errs = append(errs, validateScaleStatus(o, scale)...)
	}
	errs = append(errs, r.embeddedMeta(o)...)
	if len(r.listSetsAndMaps(old)) == 0 {
		errs = append(errs, r.listSetsAndMaps(o)...)
	}
	return r.appendRules(ctx, errs, o, old, celrules.WithRatcheting(corr))
}

// validateStatusUpdate is rest.ValidateUpdate with the status strategy.
func (r *core) validateStatusUpdate(ctx context.Context, o, old map[string]any, scale *crdschema.CustomResourceSubresourceScale) crdschema.ErrorList {
	corr := r.correlate(o, old)
	m := r.decodeMetas(o, old)
	errs := r.validateCommon(m)
	tm := r.validateTypeMeta(o)
	if len(tm) > 0 {
		errs = append(errs, tm...)
	} else {
		errs = append(errs, r.validateMetaUpdate(m)...)
		if status, ok := o["status"]; ok {
			errs = append(errs, r.statusValidator.ValidateUpdate(crdschema.NewPath("status"), status, corr.Status(r.schema)).Errors...)
		}
		errs = append(errs, validateScaleStatus(o, scale)...)
	}
	if n := r.listSetsAndMaps(o); len(n) > 0 {
		if len(r.listSetsAndMaps(old)) == 0 {
			errs = append(errs, n...)
		}
	}
	return r.appendRules(ctx, errs, o, old, celrules.WithRatcheting(corr))
}

// metas are the decoded metadata of an update's new and old objects, or
// the errors of decoding them.
type metas struct {
	meta, old *crdschema.ObjectMeta
	errs      crdschema.ErrorList
	none      bool // not checked (metaless)
}

// metaless tells whether the metadata of o is left unchecked: without a
// kind (NewPipeline without WithKind), an object without metadata is a
// value of the schema, not a resource.
func (r *core) metaless(o map[string]any) bool {
	return r.kind == "" && o["metadata"] == nil
}

// decodeMetas decodes the metadata of o and old once for the checks of an
// update.
func (r *core) decodeMetas(o, old map[string]any) metas {
	if r.metaless(o) {
		return metas{none: true}
	}
	meta, merrs := r.objectMeta(o)
	if merrs != nil {
		return metas{errs: merrs}
	}
	oldMeta, merrs := r.objectMeta(old)
	if merrs != nil {
		return metas{errs: merrs}
	}
	return metas{meta: meta, old: oldMeta}
}

// validateCommon is the generic part of an update's validation: the new
// metadata, and what an update may not change in it.
func (r *core) validateCommon(m metas) crdschema.ErrorList {
	if m.none {
		return nil
	}
	if m.errs != nil {
		return m.errs
	}
	p := crdschema.NewPath("metadata")
	errs := metavalidation.ValidateObjectMeta(m.meta, r.namespacedMeta(m.meta), metavalidation.NameIsPathSegment, p)
	return append(errs, metavalidation.ValidateObjectMetaUpdate(m.meta, m.old, p)...)
}

func (r *core) validateMetaUpdate(m metas) crdschema.ErrorList {
	if m.none {
		return nil
	}
	if m.errs != nil {
		return copyErrors(m.errs) // the decoding errors once more, as errors of their own
	}
	return metavalidation.ValidateObjectMetaUpdate(m.meta, m.old, crdschema.NewPath("metadata"))
}

func (r *core) validateTypeMeta(o map[string]any) crdschema.ErrorList {
	if r.kind == "" {
		return nil // WithKind not given: any kind
	}
	var errs crdschema.ErrorList
	kind, _ := o["kind"].(string)
	av, _ := o["apiVersion"].(string)
	if kind != r.kind {
		errs = append(errs, crdschema.Invalid(crdschema.NewPath("kind"), kind, "must be "+r.kind))
	}
	if gv := r.group + "/" + r.version; av != gv {
		errs = append(errs, crdschema.Invalid(crdschema.NewPath("apiVersion"), av, "must be "+gv))
	}
	return errs
}

// namespacedMeta tells whether meta is checked as that of a namespaced
// object: as the scope says, or, without a kind (NewPipeline without
// WithKind), when it has a namespace.
func (r *core) namespacedMeta(meta *crdschema.ObjectMeta) bool {
	if r.kind == "" {
		return meta.Namespace != ""
	}
	return r.namespaced
}

// objectMeta decodes the (already cleaned) metadata of o.
func (r *core) objectMeta(o map[string]any) (*crdschema.ObjectMeta, crdschema.ErrorList) {
	raw, ok := o["metadata"]
	if !ok || raw == nil {
		return &crdschema.ObjectMeta{}, nil
	}
	if _, isMap := raw.(map[string]any); !isMap {
		return nil, crdschema.ErrorList{crdschema.Invalid(crdschema.NewPath("metadata"), raw, fmt.Sprintf("expected map[string]interface{}, got %T", raw))}
	}
	meta, _, err := objectmeta.GetObjectMeta(o, objectmeta.MetaOptions{})
	if err != nil {
		return nil, crdschema.ErrorList{crdschema.Invalid(crdschema.NewPath("metadata"), raw, err.Error())}
	}
	if meta == nil {
		meta = &crdschema.ObjectMeta{}
	}
	return meta, nil
}

func validateScaleSpec(o map[string]any, scale *crdschema.CustomResourceSubresourceScale) crdschema.ErrorList {
	if scale == nil {
		return nil
	}
	return replicasErrors(o, scale.SpecReplicasPath)
}

func validateScaleStatus(o map[string]any, scale *crdschema.CustomResourceSubresourceScale) crdschema.ErrorList {
	if scale == nil {
		return nil
	}
	errs := replicasErrors(o, scale.StatusReplicasPath)
	if scale.LabelSelectorPath != nil {
		p := *scale.LabelSelectorPath
		if _, _, err := nestedValue[string](o, splitPath(p)); err != nil {
			errs = append(errs, crdschema.Invalid(crdschema.NewPath(p), "", err.Error()))
		}
	}
	return errs
}

// replicasErrors checks the replicas count at a scale path.
func replicasErrors(o map[string]any, path string) crdschema.ErrorList {
	n, _, err := nestedValue[int64](o, splitPath(path))
	p := crdschema.NewPath(path)
	switch {
	case err != nil:
		return crdschema.ErrorList{crdschema.Invalid(p, int64(0), err.Error())}
	case n < 0:
		return crdschema.ErrorList{crdschema.Invalid(p, n, "should be a non-negative integer")}
	case n > math.MaxInt32:
		return crdschema.ErrorList{crdschema.Invalid(p, n, fmt.Sprintf("should be less than or equal to %v", math.MaxInt32))}
	}
	return nil
}

func splitPath(p string) []string {
	return strings.Split(strings.TrimPrefix(p, "."), ".")
}

func jsonPathOf(fields []string) string {
	return "." + strings.Join(fields, ".")
}

// nestedField follows fields through nested maps, as the API server's
// unstructured accessors do.
func nestedField(o map[string]any, fields []string) (any, bool, error) {
	var v any = o
	for i, f := range fields {
		if v == nil {
			return nil, false, nil
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false, fmt.Errorf("%v accessor error: %v is of the type %T, expected map[string]interface{}", jsonPathOf(fields[:i+1]), v, v)
		}
		if v, ok = m[f]; !ok {
			return nil, false, nil
		}
	}
	return v, true, nil
}

// nestedValue is nestedField for a value that must be a T where it is set.
func nestedValue[T any](o map[string]any, fields []string) (T, bool, error) {
	var zero T
	v, found, err := nestedField(o, fields)
	if err != nil || !found {
		return zero, found, err
	}
	t, ok := v.(T)
	if !ok {
		return zero, false, fmt.Errorf("%v accessor error: %v is of the type %T, expected %T", jsonPathOf(fields), v, v, zero)
	}
	return t, true, nil
}

// blockingTypes are the error types after which the API server does not
// run the CEL rules: the object is too broken for them.
var blockingTypes = map[crdschema.ErrorType]bool{
	crdschema.ErrorTypeNotSupported: true,
	crdschema.ErrorTypeRequired:     true,
	crdschema.ErrorTypeTooLong:      true,
	crdschema.ErrorTypeTooMany:      true,
	crdschema.ErrorTypeTypeInvalid:  true,
}

// appendRules runs the CEL rules, unless an earlier error blocks them.
func (r *core) appendRules(ctx context.Context, errs crdschema.ErrorList, o, old map[string]any, opts ...celrules.ValidateOption) crdschema.ErrorList {
	if r.rules == nil {
		return errs
	}
	for _, e := range errs {
		if r.blocks(e) {
			return append(errs, crdschema.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"))
		}
	}
	var oldObj any
	if old != nil {
		oldObj = old
	}
	// The remaining budget is not used: the rules may run without cost
	// tracking where that cannot change their outcome.
	opts = append(opts, celrules.WithBoundedCost())
	return append(errs, r.rules.Validate(ctx, nil, o, oldObj, opts...).Errors...)
}
