//go:build k8s133

package oracle

// Release is the Kubernetes release whose code the oracle runs (built
// with -modfile=go.k8s133.mod -tags k8s133).
const Release = "1.33"
