package kubeapi

import (
	"encoding/json"
	"fmt"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/openapi"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/kube-openapi/pkg/validation/spec"
)

// TypeConverter is the type converter of server-side apply for the served
// versions of def, built as the API server builds it: from the OpenAPI v3
// schemas of those versions (crdschema's publication, value validations
// and nullable stripped, no selectable fields), converted to kube-openapi's
// schema type.
func TypeConverter(def *crdschema.CustomResourceDefinition, versions []string) (managedfields.TypeConverter, error) {
	models := map[string]*spec.Schema{}
	for _, v := range versions {
		doc, err := openapi.V3(def, v, openapi.Options{StripValueValidation: true, StripNullable: true, OmitSelectableFields: true})
		if err != nil {
			return nil, fmt.Errorf("publishing the OpenAPI schema of %s/%s: %w", def.Spec.Group, v, err)
		}
		for name, s := range doc.Components.Schemas {
			data, err := json.Marshal(s)
			if err != nil {
				return nil, err
			}
			var ks spec.Schema
			if err := json.Unmarshal(data, &ks); err != nil {
				return nil, err
			}
			models[name] = &ks
		}
	}
	return managedfields.NewTypeConverter(models, def.Spec.PreserveUnknownFields)
}
