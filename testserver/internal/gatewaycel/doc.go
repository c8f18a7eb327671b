// Command gatewaycel runs Gateway API's own CEL test suite (the
// pkg/test/cel tests of sigs.k8s.io/gateway-api v1.4.1, unchanged: symbolic
// links to fakeclient/internal/gatewaycel's copies, under Gateway API's
// Apache 2.0 LICENSE) against a testserver over HTTPS, through a
// controller-runtime client built from its *rest.Config.
//
//	go test ./internal/gatewaycel                         # standard channel
//	go test -tags experimental ./internal/gatewaycel      # experimental channel
package main

func main() {}
