// Package costs explains the cost figures of a CRD's CEL validation rules
// (x-kubernetes-validations): why the API server refuses a CRD with
// "estimated rule cost exceeds budget", which bound fixes it, and what the
// rules really cost on sample objects.
//
// Explain takes a CRD the API server refuses for its rules' costs and
// reports each expression over the per-expression limit
// (celrules.StaticCostLimit) or in a schema over the total limit
// (celrules.StaticCRDCostLimit): its cost per evaluation, its cardinality
// and the bounds of the lists and maps around it that make the cardinality
// (or -1 where none is set and the worst case the request size allows is
// taken), the lists, maps and strings without maximum that drive its cost;
// then the fixes: for each maxItems, maxProperties or maxLength on the
// rules' paths, unset or too loose, the largest value that alone brings
// every rule and every total under the limits, and a value to write: the
// bound usual for the field's kind where it fits (63 for a namespace, 253
// for a name or host, 254 for an e-mail address, 2048 for a URL), else a
// round number between half of it and it; never 0, which would leave the
// field unusable. The recommendation (Fewest) is the single bound that
// allows most, unless bounding the rules' paths together allows values
// four times larger, spreading the budget; or that combination when no
// single bound is enough. Each fix is named by schema path, by field path
// and as the kubebuilder marker an author writes.
//
// The figures are the library's own estimator's (package crd, the same as
// the API server's): a fix is found by a binary search on the bound's value
// with the estimator as the judge, on a copy of the CRD with only the rules
// the bound can affect, and checked with crd.Validate on the whole CRD, so
// that applying it makes the API server accept the costs.
//
// Runtime runs each rule alone on a sample object and reports its actual
// cost next to its estimate, the per-call limit (celrules.PerCallLimit)
// and the per-object budget (celrules.RuntimeBudget): how far the worst
// case is from a real one.
package costs
