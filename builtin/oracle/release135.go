//go:build k8s135

package oracle

// Release is the Kubernetes release whose code the oracle runs (built
// with -modfile=go.k8s135.mod -tags k8s135).
const Release = "1.35"
