// Package upstream runs a conformance case through the real Kubernetes API
// server code (k8s.io/apiextensions-apiserver and the modules it requires,
// at the release the build selects: see ../../README.md, "Older
// releases") and returns its result in the golden form of
// conformance/testdata/README.md.
//
// It is the oracle command's engine, and the upstream side of the
// differential fuzz targets in ../../difffuzz, which is why it is a package.
package upstream
