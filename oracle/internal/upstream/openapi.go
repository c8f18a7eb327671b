package upstream

// The OpenAPI documents the API server publishes for one CRD version, built
// with the options of the OpenAPI v2 and v3 controllers
// (pkg/controller/openapi/controller.go, pkg/controller/openapiv3/controller.go).

import (
	"encoding/json"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/controller/openapi/builder"
	apiextensionsfeatures "k8s.io/apiextensions-apiserver/pkg/features"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kube-openapi/pkg/handler"
)

// buildOpenAPI returns
//   - v2: what the v2 controller merges into /openapi/v2 for this version:
//     BuildOpenAPIV2 with defaults pruned from the definitions;
//   - v3: what the v3 controller serves at /openapi/v3/apis/<group>/<version>
//     when this CRD is the only one in its group version: MergeSpecsV3 of
//     BuildOpenAPIV3.
func buildOpenAPI(crd *apiextensionsv1.CustomResourceDefinition, version string) (*OpenAPIResult, error) {
	selectable := utilfeature.DefaultFeatureGate.Enabled(apiextensionsfeatures.CustomResourceFieldSelectors)

	v2, err := builder.BuildOpenAPIV2(crd, version, builder.Options{V2: true, IncludeSelectableFields: selectable})
	if err != nil {
		return nil, err
	}
	v2.Definitions = handler.PruneDefaults(v2.Definitions)

	v3, err := builder.BuildOpenAPIV3(crd, version, builder.Options{V2: false, IncludeSelectableFields: selectable})
	if err != nil {
		return nil, err
	}
	v3, err = builder.MergeSpecsV3(v3)
	if err != nil {
		return nil, err
	}

	res := &OpenAPIResult{}
	for _, d := range []struct {
		doc interface{}
		out *json.RawMessage
	}{{v2, &res.V2}, {v3, &res.V3}} {
		raw, err := json.Marshal(d.doc)
		if err != nil {
			return nil, err
		}
		if *d.out, err = canonicalJSON(raw); err != nil {
			return nil, err
		}
	}
	return res, nil
}
