// Package cellib provides the Kubernetes CEL function libraries used by
// x-kubernetes-validations rules, re-implemented without any k8s.io
// dependency.
//
// Each library is a [cel.EnvOption] with the same function names, overload
// IDs, signatures, runtime results and error texts as the libraries of the
// Kubernetes API server (k8s.io/apiserver/pkg/cel/library), so that rules
// compile, evaluate and fail exactly as they would in a cluster:
//
//   - [Lists]: isSorted, sum, min, max, indexOf, lastIndexOf (and includes from version 1)
//   - [Regex]: find, findAll
//   - [URLs]: url, isURL and the URL accessors
//   - [Quantity]: quantity, isQuantity, sign and the Quantity comparisons and arithmetic
//   - [IP] and [CIDR]: ip, isIP, ip.isCanonical, cidr, isCIDR and their members
//   - [Format]: format.dns1123Label() ... format.named(), validate
//   - [Semver]: semver, isSemver and the Semver members
//   - [Authz] and [AuthzSelectors]: the authorization type and function
//     declarations (CRD rules have no authorizer variable, but the
//     declarations shape overload resolution)
//
// [CostEstimator] prices every function of these libraries, and the cel-go
// extension functions the API server prices, both statically (at compile
// time, for the CRD cost budget) and at runtime (for the per-call and
// per-object limits).
//
// Resource quantities follow the rules of Kubernetes' resource.Quantity:
// the same accepted syntax, suffixes, int64/decimal representation,
// rounding, comparisons and arithmetic. Observable Kubernetes quirks are
// kept on purpose: a quantity compared with one held as a decimal turns
// into a decimal itself (isInteger then reports false), the results of
// add and sub are not accepted as the right-hand side of ==, and the
// exponent of "1e<n>" wraps to 32 bits.
//
// The one deliberate difference: a non-zero quantity whose decimal
// exponent exceeds 4096 (such as "1e5000") is rejected with "unable to
// parse numeric part of quantity", where Kubernetes accepts it and then
// computes with numbers of up to billions of digits (it hangs on
// "1e2000000000"). Very small numbers ("1e-2000000000") round up to one
// nano unit, as in Kubernetes, but without the huge computation.
package cellib
