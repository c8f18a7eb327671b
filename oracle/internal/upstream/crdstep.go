package upstream

// The CRD step: what the API server does with a CustomResourceDefinition
// create (or update) request. It mirrors the generic create/update handlers
// (k8s.io/apiserver/pkg/endpoints/handlers), the generic store
// (k8s.io/apiserver/pkg/registry/generic/registry) and rest.BeforeCreate /
// rest.BeforeUpdate, with the CRD registry strategy
// (pkg/registry/customresourcedefinition) doing the real work.

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"time"

	celgo "github.com/google/cel-go/cel"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apiextensions-apiserver/pkg/apiserver"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
)

// Fixed values for the fields the server fills from the clock or a random
// source. Documented in README.md.
var (
	fixedCreationTimestamp = metav1.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	fixedUID               = "00000000-0000-0000-0000-000000000001"
	fixedNameSuffix        = "xxxxx" // stands for the 5 random characters of generateName
)

var internalGV = schema.GroupVersion{Group: apiextensions.GroupName, Version: runtime.APIVersionInternal}

// crdStepResult is the outcome of the CRD step.
type crdStepResult struct {
	result CRDResult
	// served is the CRD as the custom resource handler sees it once the
	// request was accepted (v1, with accepted names); nil if it was rejected.
	served *apiextensionsv1.CustomResourceDefinition
}

// decodeCRD decodes a CRD request body as the API server does: the strict
// JSON serializer of the apiextensions scheme, v1 defaulting, conversion to
// the internal version. Unknown fields are returned (the server warns about
// them with fieldValidation=Warn, and rejects the request with Strict).
func decodeCRD(body []byte) (*apiextensions.CustomResourceDefinition, []string, error) {
	info, ok := runtime.SerializerInfoForMediaType(apiserver.Codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	if !ok {
		return nil, nil, fmt.Errorf("no JSON serializer in the apiextensions scheme")
	}
	decoder := apiserver.Codecs.DecoderToVersion(info.StrictSerializer, internalGV)
	defaultGVK := apiextensionsv1.SchemeGroupVersion.WithKind("CustomResourceDefinition")
	obj, gvk, err := decoder.Decode(body, &defaultGVK, &apiextensions.CustomResourceDefinition{})
	var unknown []string
	if err != nil {
		strictErr, isStrict := runtime.AsStrictDecodingError(err)
		if !isStrict || obj == nil {
			return nil, nil, err
		}
		for _, e := range strictErr.Errors() {
			m := unknownFieldRE.FindStringSubmatch(e.Error())
			if m == nil {
				return nil, nil, e
			}
			unknown = append(unknown, m[1])
		}
		sort.Strings(unknown)
	}
	if gvk.GroupVersion() != apiextensionsv1.SchemeGroupVersion || gvk.Kind != "CustomResourceDefinition" {
		return nil, nil, fmt.Errorf("expected an apiextensions.k8s.io/v1 CustomResourceDefinition, got %s", gvk)
	}
	crd, ok := obj.(*apiextensions.CustomResourceDefinition)
	if !ok {
		return nil, nil, fmt.Errorf("decoded into %T", obj)
	}
	return crd, unknown, nil
}

var unknownFieldRE = regexp.MustCompile(`^unknown field "(.*)"$`)

// prepareCRDCreate runs the part of a CRD create request before validation:
// the handler wipes system fields, the store fills them, and BeforeCreate
// checks the namespace and calls the strategy's PrepareForCreate.
func prepareCRDCreate(ctx context.Context, strategy rest.RESTCreateStrategy, crd *apiextensions.CustomResourceDefinition) error {
	rest.WipeObjectMetaSystemFields(crd)
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace("", crd); err != nil {
		return err
	}
	fillSystemFields(crd)
	if len(crd.GetGenerateName()) > 0 && len(crd.GetName()) == 0 {
		crd.SetName(generateName(crd.GetGenerateName()))
	}
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope("", strategy.NamespaceScoped()), crd); err != nil {
		return err
	}
	strategy.PrepareForCreate(ctx, crd)
	return nil
}

// storedCRD turns the oldCRD of a case into the CRD as the server has it
// stored and established: created through the same decoding and
// preparation (its validation errors are ignored: it may have been accepted
// by an older server), with a resourceVersion ("1" unless given), the names
// accepted and the Established condition set, as the naming and
// establishing controllers do.
func storedCRD(ctx context.Context, strategy rest.RESTCreateStrategy, body []byte) (*apiextensions.CustomResourceDefinition, error) {
	old, _, err := decodeCRD(body)
	if err != nil {
		return nil, err
	}
	given := old.DeepCopy()
	if err := prepareCRDCreate(ctx, strategy, old); err != nil {
		return nil, err
	}
	keepStoredState(old, given)
	if old.ResourceVersion == "" {
		old.ResourceVersion = "1" // etcd sets it when the object is read
	}
	acceptNames(old)
	return old, nil
}

// keepStoredState puts back what a stored CRD carries from its history and
// the create preparation resets: its uid, creation time and generation, and
// the versions ever used for storage (status.storedVersions, which always
// holds the current storage version too).
func keepStoredState(old, given *apiextensions.CustomResourceDefinition) {
	if given.UID != "" {
		old.UID = given.UID
	}
	if !given.CreationTimestamp.IsZero() {
		old.CreationTimestamp = given.CreationTimestamp
	}
	if given.Generation > 0 {
		old.Generation = given.Generation
	}
	if len(given.Status.StoredVersions) > 0 {
		stored := append([]string(nil), given.Status.StoredVersions...)
		for _, v := range old.Status.StoredVersions {
			if !slices.Contains(stored, v) {
				stored = append(stored, v)
			}
		}
		old.Status.StoredVersions = stored
	}
}

// acceptNames emulates the naming controller (status.acceptedNames, condition
// NamesAccepted) and the establishing controller (condition Established).
func acceptNames(crd *apiextensions.CustomResourceDefinition) {
	crd.Status.AcceptedNames = crd.Spec.Names
	for _, t := range []apiextensions.CustomResourceDefinitionConditionType{apiextensions.NamesAccepted, apiextensions.Established} {
		apiextensions.SetCRDCondition(crd, apiextensions.CustomResourceDefinitionCondition{
			Type:   t,
			Status: apiextensions.ConditionTrue,
			Reason: "Oracle",
		})
	}
}

// runCRDStep runs the CRD create or update request of a case.
func runCRDStep(c *Case) (*crdStepResult, error) {
	ctx := genericapirequest.WithNamespace(context.Background(), "")
	strategy := customresourcedefinition.NewStrategy(apiserver.Scheme)

	crd, unknown, err := decodeCRD(c.CRD)
	if err != nil {
		return nil, &CaseError{path: c.Path, msg: "crd: " + err.Error()}
	}
	var oldCRD *apiextensions.CustomResourceDefinition
	if c.OldCRD != nil {
		if oldCRD, err = storedCRD(ctx, strategy, c.OldCRD); err != nil {
			return nil, &CaseError{path: c.Path, msg: "oldCRD: " + err.Error()}
		}
	}
	errs, err := admitCRD(ctx, strategy, c, crd, oldCRD)
	if err != nil {
		return nil, err
	}

	res := &crdStepResult{result: CRDResult{UnknownFields: unknown, Errors: toFieldErrors(errs)}}

	// the served CRD: converted to v1 as stored and read by the handler
	v1crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := apiserver.Scheme.Convert(crd, v1crd, nil); err != nil {
		return nil, fmt.Errorf("converting the CRD to v1: %w", err)
	}

	version := c.Version
	if version == "" {
		for _, v := range v1crd.Spec.Versions {
			if v.Storage {
				version = v.Name
			}
		}
	}
	found := false
	for _, v := range v1crd.Spec.Versions {
		found = found || v.Name == version
	}
	if !found {
		return nil, &CaseError{path: c.Path, msg: fmt.Sprintf("version %q is not a version of the CRD", version)}
	}
	c.Version = version

	res.result.CELCosts = celCosts(crd, oldCRD, version)

	if len(errs) == 0 {
		v1crd.Status.AcceptedNames = v1crd.Spec.Names
		res.served = v1crd
	}
	return res, nil
}

// admitCRD runs a decoded CRD request up to and including validation: a
// create when oldCRD is nil, otherwise an update of the stored oldCRD.
func admitCRD(ctx context.Context, strategy rest.RESTCreateUpdateStrategy, c *Case, crd, oldCRD *apiextensions.CustomResourceDefinition) (field.ErrorList, error) {
	if oldCRD == nil {
		// create: handler, store.create, rest.BeforeCreate
		if err := prepareCRDCreate(ctx, strategy, crd); err != nil {
			return nil, &CaseError{path: c.Path, msg: "crd: " + err.Error()}
		}
		return validateCreate(ctx, crd, strategy), nil
	}
	// update: handler, store.Update, rest.BeforeUpdate
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace("", crd); err != nil {
		return nil, &CaseError{path: c.Path, msg: "crd: " + err.Error()}
	}
	if crd.Name != oldCRD.Name {
		return nil, &CaseError{path: c.Path, msg: fmt.Sprintf("crd and oldCRD must have the same metadata.name (%q, %q)", crd.Name, oldCRD.Name)}
	}
	// Optimistic concurrency is not what CRD cases are about: like a
	// client doing read-modify-write (or a patch), the update carries the
	// resourceVersion of the stored CRD unless the case gives one.
	if crd.ResourceVersion == "" {
		crd.ResourceVersion = oldCRD.ResourceVersion
	} else if crd.ResourceVersion != oldCRD.ResourceVersion {
		return nil, &CaseError{path: c.Path, msg: "crd: metadata.resourceVersion differs from the one of oldCRD (the update would be a conflict)"}
	}
	if err := rest.EnsureObjectNamespaceMatchesRequestNamespace(rest.ExpectedNamespaceForScope("", strategy.NamespaceScoped()), crd); err != nil {
		return nil, &CaseError{path: c.Path, msg: "crd: " + err.Error()}
	}
	crd.SetGeneration(oldCRD.GetGeneration())
	strategy.PrepareForUpdate(ctx, crd, oldCRD)
	copyUpdateSystemFields(crd, oldCRD)
	return validateUpdate(ctx, crd, oldCRD, strategy), nil
}

func fillSystemFields(obj metav1.Object) {
	obj.SetCreationTimestamp(fixedCreationTimestamp)
	obj.SetUID(types.UID(fixedUID))
}

// copyUpdateSystemFields is the part of rest.BeforeUpdate after
// PrepareForUpdate: fields an update cannot change are taken from the old
// object.
func copyUpdateSystemFields(obj, old metav1.Object) {
	if len(obj.GetUID()) == 0 {
		obj.SetUID(old.GetUID())
	}
	if oldCreationTime := old.GetCreationTimestamp(); !oldCreationTime.IsZero() {
		obj.SetCreationTimestamp(old.GetCreationTimestamp())
	}
	if !old.GetDeletionTimestamp().IsZero() {
		obj.SetDeletionTimestamp(old.GetDeletionTimestamp())
	}
	if old.GetDeletionGracePeriodSeconds() != nil && obj.GetDeletionGracePeriodSeconds() == nil {
		obj.SetDeletionGracePeriodSeconds(old.GetDeletionGracePeriodSeconds())
	}
}

// generateName is names.SimpleNameGenerator with a fixed instead of a random
// suffix.
func generateName(base string) string {
	const maxNameLength = 63
	const randomLength = 5
	const maxGeneratedNameLength = maxNameLength - randomLength
	if len(base) > maxGeneratedNameLength {
		base = base[:maxGeneratedNameLength]
	}
	return base + fixedNameSuffix
}

// ---------------------------------------------------------------------------
// CEL costs

// celCosts reports, for every x-kubernetes-validations rule of the version's
// schema, the cost figures CRD validation computes in
// ValidateCustomResourceDefinitionOpenAPISchema: the per-evaluation estimated
// maximum cost of the compiled rule (cel.Compile) and the cardinality it is
// multiplied with (the product of maxItems/maxProperties of the enclosing
// lists and maps, or the worst case derived from the request size limit when
// one of them is unbounded). messageExpressions are reported too, as CRD
// validation counts them into the total.
//
// The walk uses upstream's CELSchemaContext, so type information and
// cardinalities are computed by upstream code. Properties are visited in
// sorted order (upstream iterates a Go map). Costs are only reported when the
// schema is structural, as upstream only compiles rules then.
func celCosts(crd, oldCRD *apiextensions.CustomResourceDefinition, version string) []CELCost {
	costs := []CELCost{}

	var schemaProps *apiextensions.JSONSchemaProps
	var path *field.Path
	if crd.Spec.Validation != nil && crd.Spec.Validation.OpenAPIV3Schema != nil {
		schemaProps = crd.Spec.Validation.OpenAPIV3Schema
		path = field.NewPath("spec", "validation", "openAPIV3Schema")
	} else {
		for i, v := range crd.Spec.Versions {
			if v.Name == version && v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
				schemaProps = v.Schema.OpenAPIV3Schema
				path = field.NewPath("spec", "versions").Index(i).Child("schema", "openAPIV3Schema")
			}
		}
	}
	if schemaProps == nil {
		return costs
	}
	if ss, err := structuralschema.NewStructural(schemaProps); err != nil || len(structuralschema.ValidateStructural(nil, ss)) > 0 {
		return costs
	}

	envSet := baseEnvSet()
	var loader cel.EnvLoader = cel.NewExpressionsEnvLoader()
	if oldCRD != nil {
		loader = preexistingExpressions(oldCRD)
	}

	var walk func(s *apiextensions.JSONSchemaProps, p *field.Path, ctx *apiextensionsvalidation.CELSchemaContext)
	walk = func(s *apiextensions.JSONSchemaProps, p *field.Path, ctx *apiextensionsvalidation.CELSchemaContext) {
		if s == nil {
			return
		}
		if len(s.XValidations) > 0 {
			costs = append(costs, nodeCosts(s, p, ctx, envSet, loader)...)
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			walk(s.AdditionalProperties.Schema, p.Child("additionalProperties"), ctx.ChildAdditionalPropertiesContext(s.AdditionalProperties.Schema))
		}
		names := make([]string, 0, len(s.Properties))
		for name := range s.Properties {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			prop := s.Properties[name]
			walk(&prop, p.Child("properties").Key(name), ctx.ChildPropertyContext(&prop, name))
		}
		if s.Items != nil && s.Items.Schema != nil {
			walk(s.Items.Schema, p.Child("items"), ctx.ChildItemsContext(s.Items.Schema))
		}
	}
	walk(schemaProps, path, apiextensionsvalidation.RootCELContext(schemaProps))
	return costs
}

// nodeCosts compiles the rules of one schema node like CRD validation does and
// reports their costs. Rules that do not compile are left out: their errors
// are in the CRD errors.
func nodeCosts(s *apiextensions.JSONSchemaProps, p *field.Path, ctx *apiextensionsvalidation.CELSchemaContext, envSet *environment.EnvSet, loader cel.EnvLoader) []CELCost {
	typeInfo, err := ctx.TypeInfo()
	if err != nil || typeInfo == nil {
		return nil
	}
	results, err := cel.Compile(typeInfo.Schema, typeInfo.DeclType, celconfig.PerCallLimit, envSet, loader)
	if err != nil {
		return nil
	}
	var out []CELCost
	for i, cr := range results {
		if cr.Error != nil || cr.Program == nil {
			continue
		}
		// getExpressionCost in validation.go: the context's cardinality when
		// bounded, otherwise the one the compiler derived.
		cardinality := cr.MaxCardinality
		if ctx.MaxCardinality != nil {
			cardinality = *ctx.MaxCardinality
		}
		rulePath := p.Child("x-kubernetes-validations").Index(i)
		out = append(out, CELCost{Field: rulePath.Child("rule").String(), Rule: s.XValidations[i].Rule, Cost: cr.MaxCost, Cardinality: cardinality})
		if cr.MessageExpression != nil && cr.MessageExpressionError == nil {
			out = append(out, CELCost{Field: rulePath.Child("messageExpression").String(), Rule: s.XValidations[i].MessageExpression, Cost: cr.MessageExpressionMaxCost, Cardinality: cardinality})
		}
	}
	return out
}

// preexistingExpressions mirrors the EnvLoader CRD update validation uses:
// expressions already present in the old CRD are compiled with the
// environment for stored expressions, new ones with the one for new
// expressions.
func preexistingExpressions(oldCRD *apiextensions.CustomResourceDefinition) cel.EnvLoader {
	pe := envLoader{rules: sets.New[string](), messageExpressions: sets.New[string]()}
	collect := func(s *apiextensions.JSONSchemaProps) {
		apiextensionsvalidation.SchemaHas(s, func(s *apiextensions.JSONSchemaProps) bool {
			for _, v := range s.XValidations {
				pe.rules.Insert(v.Rule)
				if len(v.MessageExpression) > 0 {
					pe.messageExpressions.Insert(v.MessageExpression)
				}
			}
			return false
		})
	}
	if oldCRD.Spec.Validation != nil && oldCRD.Spec.Validation.OpenAPIV3Schema != nil {
		collect(oldCRD.Spec.Validation.OpenAPIV3Schema)
	}
	for _, v := range oldCRD.Spec.Versions {
		if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			collect(v.Schema.OpenAPIV3Schema)
		}
	}
	return pe
}

type envLoader struct {
	rules, messageExpressions sets.Set[string]
}

func (pe envLoader) RuleEnv(envSet *environment.EnvSet, expression string) *celgo.Env {
	if pe.rules.Has(expression) {
		return envSet.StoredExpressionsEnv()
	}
	return envSet.NewExpressionsEnv()
}

func (pe envLoader) MessageExpressionEnv(envSet *environment.EnvSet, expression string) *celgo.Env {
	if pe.messageExpressions.Has(expression) {
		return envSet.StoredExpressionsEnv()
	}
	return envSet.NewExpressionsEnv()
}
