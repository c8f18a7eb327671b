// Package printer renders custom resources as the Kubernetes API server
// does for `kubectl get`: it compiles a CRD version's
// additionalPrinterColumns once into a [Printer] whose rows have the
// implicit Name column, then one cell per column, typed and formatted
// exactly as in the API server's Table responses (dates as ages relative to
// an injectable clock, values that do not fit their column left empty). A
// [Table] holds the rows of many objects and prints itself as plain text,
// narrow or wide, like kubectl.
//
// The package also computes the field set that field selectors are matched
// against ([Fields]: metadata.name, metadata.namespace and the version's
// selectableFields) and parses field selectors ([ParseSelector]) with the
// API server's syntax, escaping and error messages.
//
// Column paths are Kubernetes JSONPath expressions, evaluated by the
// sub-package jsonpath.
package printer
