//go:build !k8s133 && !k8s134 && !k8s135 && !k8s136

package oracle

// Release is the Kubernetes release whose code the oracle runs.
const Release = "1.37"
