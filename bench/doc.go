// Package bench measures crdschema side by side with the Kubernetes API
// server's own code (k8s.io/apiextensions-apiserver v0.37.2) on the same
// inputs. See README.md.
package bench
