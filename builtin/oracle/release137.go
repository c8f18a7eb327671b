//go:build !k8s133

package oracle

// Release is the Kubernetes release whose code the oracle runs.
const Release = "1.37"
