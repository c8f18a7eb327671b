package upstream

// What the custom resource handler sets up for one CRD version before it can
// serve requests. This mirrors crdHandler.getOrCreateServingInfoFor in
// pkg/apiserver/customresource_handler.go: structural schemas with pruned
// defaults for every version, the OpenAPI schema validators, the registry
// strategies, the CR converter and the table convertor.

import (
	"fmt"

	apiextensionshelpers "k8s.io/apiextensions-apiserver/pkg/apihelpers"
	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apiserver"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/conversion"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/crdserverscheme"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/rest"
)

// servingInfo holds what is needed to handle requests for one version.
type servingInfo struct {
	crd            *apiextensionsv1.CustomResourceDefinition
	version        string
	storageVersion string
	kind           schema.GroupVersionKind
	namespaced     bool
	hasStatus      bool

	structuralSchemas     map[string]*structuralschema.Structural // by version
	preserveUnknownFields bool

	typer     runtime.ObjectTyper
	converter runtime.ObjectConvertor // the "safe" CR converter

	strategy       rest.RESTCreateUpdateStrategy // main resource
	statusStrategy rest.RESTUpdateStrategy       // status subresource (nil without one)
	table          rest.TableConvertor
}

func newServingInfo(crd *apiextensionsv1.CustomResourceDefinition, version string) (*servingInfo, error) {
	storageVersion, err := apiextensionshelpers.GetCRDStorageVersion(crd)
	if err != nil {
		return nil, err
	}

	// structural schemas of all versions, with defaults pruned
	structuralSchemas := map[string]*structuralschema.Structural{}
	for _, v := range crd.Spec.Versions {
		val, err := apiextensionshelpers.GetSchemaForVersion(crd, v.Name)
		if err != nil {
			return nil, err
		}
		if val == nil {
			continue
		}
		internalValidation := &apiextensionsinternal.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internalValidation, nil); err != nil {
			return nil, fmt.Errorf("failed converting CRD validation to internal version: %v", err)
		}
		s, err := structuralschema.NewStructural(internalValidation.OpenAPIV3Schema)
		if !crd.Spec.PreserveUnknownFields && err != nil {
			return nil, fmt.Errorf("failed to convert schema to structural: %v", err)
		}
		if !crd.Spec.PreserveUnknownFields {
			s = s.DeepCopy()
			if err := structuraldefaulting.PruneDefaults(s); err != nil {
				return nil, fmt.Errorf("failed to prune defaults: %v", err)
			}
		}
		structuralSchemas[v.Name] = s
	}

	factory, err := conversion.NewCRConverterFactory(nil, nil)
	if err != nil {
		return nil, err
	}
	safeConverter, _, err := factory.NewConverter(crd)
	if err != nil {
		return nil, err
	}

	var v *apiextensionsv1.CustomResourceDefinitionVersion
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Name == version {
			v = &crd.Spec.Versions[i]
		}
	}
	if v == nil {
		return nil, fmt.Errorf("version %q not found", version)
	}
	if !v.Served {
		return nil, fmt.Errorf("version %q is not served", version)
	}

	kind := schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Status.AcceptedNames.Kind}

	// the typer of the request scope (newUnstructuredObjectTyper)
	parameterScheme := runtime.NewScheme()
	parameterScheme.AddUnversionedTypes(schema.GroupVersion{Group: crd.Spec.Group, Version: v.Name},
		&metav1.ListOptions{},
		&metav1.GetOptions{},
		&metav1.DeleteOptions{},
	)
	typer := apiserver.UnstructuredObjectTyper{
		Delegate:          parameterScheme,
		UnstructuredTyper: crdserverscheme.NewUnstructuredObjectTyper(),
	}

	// schema validators for the whole object and for the status subresource
	validationSchema, err := apiextensionshelpers.GetSchemaForVersion(crd, v.Name)
	if err != nil {
		return nil, err
	}
	var internalSchemaProps *apiextensionsinternal.JSONSchemaProps
	var internalValidationSchema *apiextensionsinternal.CustomResourceValidation
	if validationSchema != nil {
		internalValidationSchema = &apiextensionsinternal.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(validationSchema, internalValidationSchema, nil); err != nil {
			return nil, fmt.Errorf("failed to convert CRD validation to internal version: %v", err)
		}
		internalSchemaProps = internalValidationSchema.OpenAPIV3Schema
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(internalSchemaProps)
	if err != nil {
		return nil, err
	}

	subresources, err := apiextensionshelpers.GetSubresourcesForVersion(crd, v.Name)
	if err != nil {
		return nil, err
	}
	var statusSpec *apiextensionsinternal.CustomResourceSubresourceStatus
	var statusValidator apiservervalidation.SchemaValidator
	if subresources != nil && subresources.Status != nil {
		statusSpec = &apiextensionsinternal.CustomResourceSubresourceStatus{}
		if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceStatus_To_apiextensions_CustomResourceSubresourceStatus(subresources.Status, statusSpec, nil); err != nil {
			return nil, fmt.Errorf("failed converting CRD status subresource to internal version: %v", err)
		}
		// for the status subresource, validate only against the status schema
		if internalValidationSchema != nil && internalValidationSchema.OpenAPIV3Schema != nil && internalValidationSchema.OpenAPIV3Schema.Properties != nil {
			if statusSchema, ok := internalValidationSchema.OpenAPIV3Schema.Properties["status"]; ok {
				statusValidator, _, err = apiservervalidation.NewSchemaValidator(&statusSchema)
				if err != nil {
					return nil, err
				}
			}
		}
	}
	var scaleSpec *apiextensionsinternal.CustomResourceSubresourceScale
	if subresources != nil && subresources.Scale != nil {
		scaleSpec = &apiextensionsinternal.CustomResourceSubresourceScale{}
		if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(subresources.Scale, scaleSpec, nil); err != nil {
			return nil, fmt.Errorf("failed converting CRD status subresource to internal version: %v", err)
		}
	}

	// printer columns (getColumnsForVersion: an Age column when none is given)
	columns := v.AdditionalPrinterColumns
	if len(columns) == 0 {
		columns = []apiextensionsv1.CustomResourceColumnDefinition{
			{Name: "Age", Type: "date", Description: metav1.ObjectMeta{}.SwaggerDoc()["creationTimestamp"], JSONPath: ".metadata.creationTimestamp"},
		}
	}
	table, _ := tableconvertor.New(columns) // on error: the default convertor, as upstream

	strategy := customresource.NewStrategy(
		typer,
		crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		kind,
		validator,
		statusValidator,
		structuralSchemas[v.Name],
		statusSpec,
		scaleSpec,
		v.SelectableFields,
	)

	si := &servingInfo{
		crd:                   crd,
		version:               v.Name,
		storageVersion:        storageVersion,
		kind:                  kind,
		namespaced:            crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		hasStatus:             statusSpec != nil,
		structuralSchemas:     structuralSchemas,
		preserveUnknownFields: crd.Spec.PreserveUnknownFields,
		typer:                 typer,
		converter:             safeConverter,
		strategy:              strategy,
		table:                 table,
	}
	if statusSpec != nil {
		si.statusStrategy = customresource.NewStatusStrategy(strategy)
	}
	return si, nil
}
