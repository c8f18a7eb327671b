//go:build k8s136

package oracle

// Release is the Kubernetes release whose code the oracle runs (built
// with -modfile=go.k8s136.mod -tags k8s136).
const Release = "1.36"
