package crdschema

// CustomResourceDefinition is an apiextensions.k8s.io/v1
// CustomResourceDefinition, field for field and with the same JSON names,
// so that decoding a CRD manifest fills it and encoding gives the same JSON
// back.
type CustomResourceDefinition struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty"`

	Spec   CustomResourceDefinitionSpec   `json:"spec"`
	Status CustomResourceDefinitionStatus `json:"status,omitempty"`
}

// TypeMeta is the kind and apiVersion of an object.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

// CustomResourceDefinitionSpec describes how a custom resource is exposed.
type CustomResourceDefinitionSpec struct {
	Group                 string                            `json:"group"`
	Names                 CustomResourceDefinitionNames     `json:"names"`
	Scope                 ResourceScope                     `json:"scope"`
	Versions              []CustomResourceDefinitionVersion `json:"versions"`
	Conversion            *CustomResourceConversion         `json:"conversion,omitempty"`
	PreserveUnknownFields bool                              `json:"preserveUnknownFields,omitempty"`
}

// ResourceScope is Namespaced or Cluster.
type ResourceScope string

// The resource scopes.
const (
	ClusterScoped   ResourceScope = "Cluster"
	NamespaceScoped ResourceScope = "Namespaced"
)

// ConversionStrategyType is how versions of a custom resource are converted.
type ConversionStrategyType string

// The conversion strategies.
const (
	NoneConverter    ConversionStrategyType = "None"
	WebhookConverter ConversionStrategyType = "Webhook"
)

// CustomResourceConversion describes how versions are converted.
type CustomResourceConversion struct {
	Strategy ConversionStrategyType `json:"strategy"`
	Webhook  *WebhookConversion     `json:"webhook,omitempty"`
}

// WebhookConversion describes a conversion webhook.
type WebhookConversion struct {
	ClientConfig             *WebhookClientConfig `json:"clientConfig,omitempty"`
	ConversionReviewVersions []string             `json:"conversionReviewVersions"`
}

// WebhookClientConfig says how to reach a webhook: a URL or a service.
type WebhookClientConfig struct {
	URL      *string           `json:"url,omitempty"`
	Service  *ServiceReference `json:"service,omitempty"`
	CABundle []byte            `json:"caBundle,omitempty"`
}

// ServiceReference names a Kubernetes service that serves a webhook.
type ServiceReference struct {
	Namespace string  `json:"namespace"`
	Name      string  `json:"name"`
	Path      *string `json:"path,omitempty"`
	Port      *int32  `json:"port,omitempty"`
}

// CustomResourceDefinitionVersion is one version of a custom resource.
type CustomResourceDefinitionVersion struct {
	Name                     string                           `json:"name"`
	Served                   bool                             `json:"served"`
	Storage                  bool                             `json:"storage"`
	Deprecated               bool                             `json:"deprecated,omitempty"`
	DeprecationWarning       *string                          `json:"deprecationWarning,omitempty"`
	Schema                   *CustomResourceValidation        `json:"schema,omitempty"`
	Subresources             *CustomResourceSubresources      `json:"subresources,omitempty"`
	AdditionalPrinterColumns []CustomResourceColumnDefinition `json:"additionalPrinterColumns,omitempty"`
	SelectableFields         []SelectableField                `json:"selectableFields,omitempty"`
}

// SelectableField is a field that field selectors may use.
type SelectableField struct {
	JSONPath string `json:"jsonPath"`
}

// CustomResourceColumnDefinition is an additional printer column.
type CustomResourceColumnDefinition struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format,omitempty"`
	Description string `json:"description,omitempty"`
	Priority    int32  `json:"priority,omitempty"`
	JSONPath    string `json:"jsonPath"`
}

// CustomResourceDefinitionNames are the names under which a custom resource
// is served.
type CustomResourceDefinitionNames struct {
	Plural     string   `json:"plural"`
	Singular   string   `json:"singular,omitempty"`
	ShortNames []string `json:"shortNames,omitempty"`
	Kind       string   `json:"kind"`
	ListKind   string   `json:"listKind,omitempty"`
	Categories []string `json:"categories,omitempty"`
}

// CustomResourceValidation holds the schema of a version.
type CustomResourceValidation struct {
	OpenAPIV3Schema *JSONSchemaProps `json:"openAPIV3Schema,omitempty"`
}

// CustomResourceSubresources are the status and scale subresources.
type CustomResourceSubresources struct {
	Status *CustomResourceSubresourceStatus `json:"status,omitempty"`
	Scale  *CustomResourceSubresourceScale  `json:"scale,omitempty"`
}

// CustomResourceSubresourceStatus enables the status subresource.
type CustomResourceSubresourceStatus struct{}

// CustomResourceSubresourceScale enables the scale subresource.
type CustomResourceSubresourceScale struct {
	SpecReplicasPath   string  `json:"specReplicasPath"`
	StatusReplicasPath string  `json:"statusReplicasPath"`
	LabelSelectorPath  *string `json:"labelSelectorPath,omitempty"`
}

// ConditionStatus is True, False or Unknown.
type ConditionStatus string

// The condition statuses.
const (
	ConditionTrue    ConditionStatus = "True"
	ConditionFalse   ConditionStatus = "False"
	ConditionUnknown ConditionStatus = "Unknown"
)

// CustomResourceDefinitionConditionType is the type of a CRD condition.
type CustomResourceDefinitionConditionType string

// The CRD condition types this module sets. The API server sets others
// too (Terminating, NonStructuralSchema, ...), which a decoded status keeps
// as they are.
const (
	Established   CustomResourceDefinitionConditionType = "Established"
	NamesAccepted CustomResourceDefinitionConditionType = "NamesAccepted"
)

// CustomResourceDefinitionCondition is one condition of a CRD's status.
type CustomResourceDefinitionCondition struct {
	Type               CustomResourceDefinitionConditionType `json:"type"`
	Status             ConditionStatus                       `json:"status"`
	LastTransitionTime Time                                  `json:"lastTransitionTime,omitempty"`
	Reason             string                                `json:"reason,omitempty"`
	Message            string                                `json:"message,omitempty"`
	ObservedGeneration int64                                 `json:"observedGeneration,omitempty"`
}

// CustomResourceDefinitionStatus is the state of a CRD as the API server
// reports it.
type CustomResourceDefinitionStatus struct {
	Conditions         []CustomResourceDefinitionCondition `json:"conditions"`
	AcceptedNames      CustomResourceDefinitionNames       `json:"acceptedNames"`
	StoredVersions     []string                            `json:"storedVersions"`
	ObservedGeneration int64                               `json:"observedGeneration,omitempty"`
}

// Version returns the version called name, or nil.
func (c *CustomResourceDefinition) Version(name string) *CustomResourceDefinitionVersion {
	for i := range c.Spec.Versions {
		if c.Spec.Versions[i].Name == name {
			return &c.Spec.Versions[i]
		}
	}
	return nil
}

// StorageVersion returns the version marked as the storage version, or nil
// when there is not exactly one.
func (c *CustomResourceDefinition) StorageVersion() *CustomResourceDefinitionVersion {
	var s *CustomResourceDefinitionVersion
	for i := range c.Spec.Versions {
		if c.Spec.Versions[i].Storage {
			if s != nil {
				return nil
			}
			s = &c.Spec.Versions[i]
		}
	}
	return s
}
