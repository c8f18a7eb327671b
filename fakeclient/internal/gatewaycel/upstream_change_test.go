//go:build experimental

// This file is not part of Gateway API's suite: it pins why one of its
// subtests fails against Kubernetes 1.37 API servers, fakeclient included,
// and passes against 1.33 and 1.34 ones.

package main

import (
	"context"
	"os"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestUpstreamCELTextChange: since k8s.io/apiextensions-apiserver v0.37, the
// error of a failed CEL rule on an object or array omits the value
// ("Invalid value: <message>"); Kubernetes up to 1.3x printed
// `Invalid value: "object": <message>`, which
// TestHTTPRouteTimeouts/invalid_timeout_request_200ms_less_than_backendRequest_1s
// of Gateway API v1.4.1 expects.
func TestUpstreamCELTextChange(t *testing.T) {
	d := func(s string) *gatewayv1.Duration { return (*gatewayv1.Duration)(&s) }
	route := &gatewayv1.HTTPRoute{
		ObjectMeta: metav1.ObjectMeta{Name: "timeouts", Namespace: metav1.NamespaceDefault},
		Spec: gatewayv1.HTTPRouteSpec{Rules: []gatewayv1.HTTPRouteRule{{
			Timeouts: &gatewayv1.HTTPRouteTimeouts{Request: d("200ms"), BackendRequest: d("1s")},
		}}},
	}
	err := k8sClient.Create(context.Background(), route)
	want := `HTTPRoute.gateway.networking.k8s.io "timeouts" is invalid: spec.rules[0].timeouts: Invalid value: backendRequest timeout cannot be longer than request timeout`
	switch v := os.Getenv("GATEWAY_CEL_KUBERNETES_VERSION"); {
	case strings.HasPrefix(v, "1.33") || strings.HasPrefix(v, "1.34"):
		// The text the suite's subtest expects, as those releases print it.
		want = `HTTPRoute.gateway.networking.k8s.io "timeouts" is invalid: spec.rules[0].timeouts: Invalid value: "object": backendRequest timeout cannot be longer than request timeout`
	case v != "" && !strings.HasPrefix(v, "1.37"):
		t.Skipf("skipped: the text of Kubernetes %s is not pinned here (1.33, 1.34 and 1.37 are)", v)
	}
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
