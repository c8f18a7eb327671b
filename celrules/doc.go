// Package celrules compiles and evaluates the CEL validation rules of a
// CustomResourceDefinition schema (x-kubernetes-validations) exactly as the
// Kubernetes API server does: the same CEL types derived from the
// structural schema, the same environment and libraries per compatibility
// version, the same compile errors, the same static cost estimates and
// runtime cost accounting, and the same error types, paths and texts.
//
// # Types
//
// Every schema node becomes a CEL type: objects with properties are
// message-like types whose fields are the property names escaped as the
// API server escapes them ("a-b" is a__dash__b, "namespace" is __namespace__ and, from
// compatibility version 1.31, also plain namespace); additionalProperties
// give maps, arrays lists, x-kubernetes-int-or-string dyn, and the string
// formats byte, duration, date and date-time give bytes, durations and
// timestamps. Lists with x-kubernetes-list-type set or map compare without
// regard to order, and + unions them (sets) or merges them by key (maps).
// The resource root and embedded resources see apiVersion, kind and
// metadata.name/generateName only. Nodes without a type (preserved unknown
// fields) are not visible.
//
// # Compiling and validating
//
// Compile compiles every rule of a schema once; the result validates any
// number of objects, concurrently. Validate binds self (and oldSelf for
// transition rules on updates, correlated through object properties and
// list-type=map keys), evaluates every rule at every value of its node
// within the per-call limit (PerCallLimit) and the caller's budget
// (RuntimeBudget per object in the API server), and reports failures with
// message, messageExpression, reason and fieldPath applied; with
// WithRatcheting (a ratchet.Correlation) failures in
// unchanged parts of an update are dropped as the API server drops them. For
// a Compiled that validates a single small value (a default, say),
// WithLazyCompile compiles each node's rules only when a value first reaches
// the node.
//
// # CRD validation
//
// Check compiles the rules of a schema as CRD validation does (new
// expressions in the environment of the compatibility version, those a CRD
// update keeps in the stored-expressions environment: WithStoredExpressions)
// and reports, per node, what that gives: compile errors, whether a rule
// uses oldSelf and whether old values correlate there, and each
// expression's estimated cost and cardinality. Package crd turns that into
// the API server's errors: rules whose estimated cost, multiplied by how
// often they can run, exceeds StaticCostLimit (or together
// StaticCRDCostLimit), compile errors, oldSelf misuse.
//
// # Options
//
// There is one option type per stage, as in cel-go: the compile stage
// (Compile, Check) takes Options (WithKubernetesVersion, WithCache, and
// WithLazyCompile and WithStoredExpressions where they apply), the
// evaluation stage (Compiled.Validate) ValidateOptions (WithBudget,
// WithRatcheting, WithBoundedCost), and Validate returns one Result:
// errors, warnings (the failures ratcheting keeps from being errors) and
// the remaining budget. Compiled.Errors reports at compile time the rules
// that do not compile.
// Compilations for one piece of work (all versions of a CRD, a set of
// related CRDs) can share a Cache (WithCache): each distinct expression is
// then parsed once, however often the CRD repeats it, nodes whose rules and
// type (declarations and size bounds) are equal compile once, and nodes
// whose types declare the same share one environment. Results, errors and
// cost figures are the same with and without a Cache. Compile and Check
// share work between the nodes of one schema through a Cache of their own
// when given none.
package celrules
