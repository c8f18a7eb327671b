package crdschema

// JSONSchemaProps is an OpenAPI v3 schema as CustomResourceDefinitions
// write it (apiextensions.k8s.io/v1 JSONSchemaProps): every field, with the
// same JSON names. Which fields a CRD may use is decided by validation
// (package structural and package crd), not by this type.
//
// Like the API server's type, it has no JSON decoding of its own:
// sigs.k8s.io/json (which manifest.UnmarshalCRD uses) matches field names
// case-sensitively, as the API server does; encoding/json does not.
type JSONSchemaProps struct {
	ID                     string                                  `json:"id,omitempty"`
	Schema                 string                                  `json:"$schema,omitempty"`
	Ref                    *string                                 `json:"$ref,omitempty"`
	Description            string                                  `json:"description,omitempty"`
	Type                   string                                  `json:"type,omitempty"`
	Format                 string                                  `json:"format,omitempty"`
	Title                  string                                  `json:"title,omitempty"`
	Default                *JSON                                   `json:"default,omitempty"`
	Maximum                *float64                                `json:"maximum,omitempty"`
	ExclusiveMaximum       bool                                    `json:"exclusiveMaximum,omitempty"`
	Minimum                *float64                                `json:"minimum,omitempty"`
	ExclusiveMinimum       bool                                    `json:"exclusiveMinimum,omitempty"`
	MaxLength              *int64                                  `json:"maxLength,omitempty"`
	MinLength              *int64                                  `json:"minLength,omitempty"`
	Pattern                string                                  `json:"pattern,omitempty"`
	MaxItems               *int64                                  `json:"maxItems,omitempty"`
	MinItems               *int64                                  `json:"minItems,omitempty"`
	UniqueItems            bool                                    `json:"uniqueItems,omitempty"`
	MultipleOf             *float64                                `json:"multipleOf,omitempty"`
	Enum                   []JSON                                  `json:"enum,omitempty"`
	MaxProperties          *int64                                  `json:"maxProperties,omitempty"`
	MinProperties          *int64                                  `json:"minProperties,omitempty"`
	Required               []string                                `json:"required,omitempty"`
	Items                  *JSONSchemaPropsOrArray                 `json:"items,omitempty"`
	AllOf                  []JSONSchemaProps                       `json:"allOf,omitempty"`
	OneOf                  []JSONSchemaProps                       `json:"oneOf,omitempty"`
	AnyOf                  []JSONSchemaProps                       `json:"anyOf,omitempty"`
	Not                    *JSONSchemaProps                        `json:"not,omitempty"`
	Properties             map[string]JSONSchemaProps              `json:"properties,omitempty"`
	AdditionalProperties   *JSONSchemaPropsOrBool                  `json:"additionalProperties,omitempty"`
	PatternProperties      map[string]JSONSchemaProps              `json:"patternProperties,omitempty"`
	Dependencies           map[string]JSONSchemaPropsOrStringArray `json:"dependencies,omitempty"`
	AdditionalItems        *JSONSchemaPropsOrBool                  `json:"additionalItems,omitempty"`
	Definitions            map[string]JSONSchemaProps              `json:"definitions,omitempty"`
	ExternalDocs           *ExternalDocumentation                  `json:"externalDocs,omitempty"`
	Example                *JSON                                   `json:"example,omitempty"`
	Nullable               bool                                    `json:"nullable,omitempty"`
	XPreserveUnknownFields *bool                                   `json:"x-kubernetes-preserve-unknown-fields,omitempty"`
	XEmbeddedResource      bool                                    `json:"x-kubernetes-embedded-resource,omitempty"`
	XIntOrString           bool                                    `json:"x-kubernetes-int-or-string,omitempty"`
	XListMapKeys           []string                                `json:"x-kubernetes-list-map-keys,omitempty"`
	XListType              *string                                 `json:"x-kubernetes-list-type,omitempty"`
	XMapType               *string                                 `json:"x-kubernetes-map-type,omitempty"`
	XValidations           []ValidationRule                        `json:"x-kubernetes-validations,omitempty"`
}

// ExternalDocumentation links to more documentation.
type ExternalDocumentation struct {
	Description string `json:"description,omitempty"`
	URL         string `json:"url,omitempty"`
}

// ValidationRule is one CEL rule of x-kubernetes-validations.
//
// Reason is the type of the error a failed rule reports. The API server
// allows ErrorTypeRequired, ErrorTypeDuplicate, ErrorTypeInvalid and
// ErrorTypeForbidden; nil means ErrorTypeInvalid.
type ValidationRule struct {
	Rule              string     `json:"rule"`
	Message           string     `json:"message,omitempty"`
	MessageExpression string     `json:"messageExpression,omitempty"`
	Reason            *ErrorType `json:"reason,omitempty"`
	FieldPath         string     `json:"fieldPath,omitempty"`
	OptionalOldSelf   *bool      `json:"optionalOldSelf,omitempty"`
}

// JSON is a free-form JSON value: a default, an enum member or an example.
// Value holds it as this package decodes JSON (map[string]any, []any,
// string, int64, float64, bool, or nil for null).
//
// An explicit null decodes as an absent value (a nil *JSON), as the API
// server decodes "default: null"; a *JSON whose Value is nil, built by
// hand, means the same to the packages of this module.
type JSON struct {
	Value any
}

// JSONSchemaPropsOrBool is a schema or a boolean, as additionalProperties
// and additionalItems are written. A schema implies Allows.
type JSONSchemaPropsOrBool struct {
	Allows bool
	Schema *JSONSchemaProps
}

// JSONSchemaPropsOrArray is a schema or a list of schemas, as items is
// written. JSONSchemas is non-nil exactly when the JSON was a list.
type JSONSchemaPropsOrArray struct {
	Schema      *JSONSchemaProps
	JSONSchemas []JSONSchemaProps
}

// JSONSchemaPropsOrStringArray is a schema or a list of property names, as
// the values of dependencies are written.
type JSONSchemaPropsOrStringArray struct {
	Schema   *JSONSchemaProps
	Property []string
}
