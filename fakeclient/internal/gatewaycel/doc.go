// Command gatewaycel holds Gateway API's own CEL test suite (the
// pkg/test/cel tests of sigs.k8s.io/gateway-api v1.4.1, unchanged, under
// Gateway API's Apache 2.0 LICENSE beside them) with one replaced file:
// main_test.go builds the suite's k8sClient from fakeclient and the
// release's CRDs (testdata/crd) instead of a kube-apiserver.
//
//	go test ./internal/gatewaycel                         # standard channel
//	go test -tags experimental ./internal/gatewaycel      # experimental channel
package main

func main() {}
