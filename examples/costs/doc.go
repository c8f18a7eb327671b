// Command costs reports the estimated cost of every CEL validation rule
// (x-kubernetes-validations) of a CustomResourceDefinition, with the
// figures the Kubernetes API server computes when the CRD is applied, and
// says where a maxItems, maxProperties or maxLength would bring a rule
// that is over budget back under it.
//
// Usage:
//
//	go run ./examples/costs [-version V] [-top N] [-objects FILE] [FILE]
//
// FILE is a YAML or JSON manifest; every CustomResourceDefinition in it is
// reported. Without FILE, costs reports an embedded example
// (mailinglist.yaml) whose first rule runs a regular expression on every
// string of a list where neither the list nor its strings are bounded: the
// API server refuses it. -version limits the report to one version, -top N
// to the N most expensive rules of each version (by default every rule is
// listed, in the order of the schema).
//
// For each version and each rule (and messageExpression) it prints the
// rule's field in the CRD (the path the API server's errors use), its
// estimated cost per evaluation, its cardinality (how many times it can
// run per object: the product of the maxItems and maxProperties of the
// lists and maps above it, or the worst case when one is unbounded), their
// product and its share of the per-expression limit (10,000,000), and its
// share of the limit for all rules of the schema (100,000,000). A rule
// over the per-expression limit is followed by the lists, maps and strings
// without a maximum size that drive its estimate, as package costs names
// them when the API server refuses the CRD for its costs:
//
//	add maxItems here: spec.validation.openAPIV3Schema.properties[spec].properties[addresses]
//
// Then comes the schema's total, and the cost errors the API server
// reports for the CRD, as kubectl shows them. For a CRD over the limits
// follow (package costs) how each figure is made (the cost per evaluation,
// the bound of each enclosing list and map, or the worst case where none is
// set) and the fixes: each maxItems, maxProperties or maxLength on the
// rules' paths that alone brings the CRD under the limits, with the
// largest value that does, a value to write (usual for the field's kind,
// or round; never 0), its schema path and its kubebuilder marker
// (+kubebuilder:validation:MaxItems=4); and a recommended combination when
// bounds together allow much larger values (maxItems=1024 with
// maxLength=1024 here) or no single bound is enough. Every fix is checked
// with crd.Validate.
//
// With -objects, each rule then runs alone on each object of the file (of
// the CRD's kind) and its actual cost is printed next to its estimate, the
// per-call limit and the per-object budget.
//
// The exit status is 0 when every version is within budget, 1 when a rule
// or a schema's total is over budget, and 2 for a usage error or an input
// that cannot be read.
package main
