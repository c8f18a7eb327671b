// Package difffuzz holds differential fuzz targets: each feeds the same
// random input to a piece of crdschema and to the upstream Kubernetes code
// it reproduces, and fails on any difference.
//
// It is a nested module of its own, inside the oracle's folder, because it
// must import both sides: upstream's modules (k8s.io/apiserver,
// k8s.io/apimachinery, k8s.io/client-go, k8s.io/apiextensions-apiserver,
// sigs.k8s.io/json at the versions of Kubernetes 1.37), which the library
// may not require, and crdschema's internal packages, which Go lets only
// packages below github.com/crdschema/crdschema import (the rule is by
// import path, so a nested module there may). Being below
// github.com/crdschema/crdschema/oracle as well, it also imports the
// oracle's own package, so that the whole create pipeline is compared
// with exactly the code that writes the conformance goldens. It is not in
// the oracle's module, whose per-release module files must not see
// crdschema's requirements.
//
// The targets (see README.md for how they are run and the long run):
//
//   - FuzzCELLibrary, FuzzCELExpression: internal/cellib against
//     k8s.io/apiserver/pkg/cel/library: compile errors, values, runtime
//     errors, estimated and actual costs;
//   - FuzzJSONPath: printer/jsonpath against k8s.io/client-go/util/jsonpath;
//   - FuzzNames, FuzzObjectMeta: internal/k8snames and
//     internal/metavalidation against k8s.io/apimachinery's validation;
//   - FuzzJSONScan: internal/jsonscan against sigs.k8s.io/json;
//   - FuzzCreate: crd's create pipeline against apiextensions-apiserver's,
//     on the CRDs of conformance cases and random bodies.
package difffuzz
