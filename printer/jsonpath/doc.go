// Package jsonpath implements the Kubernetes flavour of JSONPath, the
// template language of `kubectl get -o jsonpath=...`, of CRD printer
// columns and of selectable fields.
//
// A template is text with actions in braces. Inside an action:
//
//	.name  ['name']       a key of a map (['a.b'] is .a.b; .a\.b is the key "a.b")
//	[i]  [-1]  [s:e:step] an index or a slice of a list
//	[*]  .*               every element of a list or map
//	..name                recursive descent
//	[a,b]                 union
//	[?(@.k=="v")]         filter: ==, !=, <, >, <=, >=, or existence [?(@.k)]
//	"text"  'text'        a quoted string
//	range ... end         {range .items[*]}...{end} repeats for each value
//
// Templates are parsed once into an immutable [Template] and evaluated any
// number of times, concurrently if need be. The behaviour, including the
// error messages and the quirks of the Kubernetes implementation
// (k8s.io/client-go/util/jsonpath), is reproduced, with two differences:
// map elements are visited in sorted key order rather than in Go's random
// order, and a template with {range} can be evaluated more than once.
// Evaluation is bounded: it fails rather than producing more than 2^20
// values in total or descending more than 10000 levels into the data.
package jsonpath
