//go:build k8s134

package oracle

// Release is the Kubernetes release whose code the oracle runs (built
// with -modfile=go.k8s134.mod -tags k8s134).
const Release = "1.34"
