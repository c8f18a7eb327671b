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
//
// Every case also runs at Kubernetes 1.33 to 1.36 (TestConformanceReleases),
// against the goldens of that release under testdata/releases (see the
// README there); CRDSCHEMA_RELEASE=1.34 runs one release and prints its
// failures.
package conformance
