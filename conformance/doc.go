// Package conformance runs the conformance cases under testdata/cases
// through crdschema and compares the results with upstream's, recorded in
// each case's .golden.json. See testdata/README.md for the case format and
// the matching rules, and run it with
//
//	go test -v ./...
//
// or, for cases of your own in the same format,
//
//	CRDSCHEMA_CASES=/path/to/cases go test -v ./...
package conformance
