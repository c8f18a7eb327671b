package crdschema

import (
	"errors"
	"fmt"
	"strings"

	kjson "sigs.k8s.io/json"
)

// decodeStrict decodes a CRD document, or its rest without the version
// schemas, with the strict decoder, which the version schemas skip (their
// decoding is the caller's). It returns the paths of the unknown fields
// it met, unsorted.
func decodeStrict(rest []byte) (*crdShadow, []string, error) {
	shadow := new(crdShadow)
	strictErrs, err := kjson.UnmarshalStrict(rest, shadow, kjson.DisallowUnknownFields)
	if err != nil {
		return nil, nil, fmt.Errorf("decoding CustomResourceDefinition: %w", err)
	}
	crd := &shadow.CustomResourceDefinition
	if crd.APIVersion != "" && crd.APIVersion != groupVersion {
		return nil, nil, fmt.Errorf("decoding CustomResourceDefinition: apiVersion %q is not supported, only %s", crd.APIVersion, groupVersion)
	}
	if crd.Kind != "" && crd.Kind != "CustomResourceDefinition" {
		return nil, nil, fmt.Errorf("decoding CustomResourceDefinition: kind is %q", crd.Kind)
	}
	var unknown []string
	for _, e := range strictErrs {
		var fe interface{ FieldPath() string }
		if errors.As(e, &fe) && strings.HasPrefix(e.Error(), "unknown field") {
			unknown = append(unknown, fe.FieldPath())
		}
	}
	return shadow, unknown, nil
}

// crdShadow is CustomResourceDefinition for the strict decoder, with the
// versions' openAPIV3Schema skipped. Its fields shadow the embedded ones of
// the same JSON names, so that everything else decodes (and reports
// unknown fields) exactly as the real type.
type crdShadow struct {
	CustomResourceDefinition
	Spec specShadow `json:"spec"`
}

type specShadow struct {
	CustomResourceDefinitionSpec
	Versions []versionShadow `json:"versions"`
}

type versionShadow struct {
	CustomResourceDefinitionVersion
	Schema *validationShadow `json:"schema,omitempty"`
}

type validationShadow struct {
	OpenAPIV3Schema skippedJSON `json:"openAPIV3Schema,omitempty"`
}

// skippedJSON records that a value was present without decoding it.
type skippedJSON struct{ set bool }

func (s *skippedJSON) UnmarshalJSON(data []byte) error {
	s.set = string(data) != "null"
	return nil
}
