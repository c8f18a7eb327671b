// This file replaces the suite's main_test.go of sigs.k8s.io/gateway-api
// v1.4.1 (pkg/test/cel): TestMain builds k8sClient with newClient from the
// release's CRDs of the channel the build tags select, instead of a
// kubeconfig or envtest. newClient is in client_test.go: fakeclient's here,
// testserver's in testserver/internal/gatewaycel, where this file and the
// suite's are symbolic links to these. ptrTo and celErrorStringMatches are
// copied from the original file unchanged.

package main

import (
	"fmt"
	"github.com/crdschema/crdschema"
	"os"
	"path/filepath"
	"strings"
	"testing"

	v1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/apis/v1alpha2"
	"sigs.k8s.io/gateway-api/apis/v1alpha3"
	"sigs.k8s.io/gateway-api/apis/v1beta1"
	apisxv1alpha1 "sigs.k8s.io/gateway-api/apisx/v1alpha1"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

var k8sClient client.Client

func TestMain(m *testing.M) {
	scheme := runtime.NewScheme()

	v1alpha3.Install(scheme)
	v1alpha2.Install(scheme)
	v1beta1.Install(scheme)
	v1.Install(scheme)
	apisxv1alpha1.Install(scheme)

	// Add core APIs in case we refer secrets, services and configmaps
	corev1.AddToScheme(scheme)

	var err error
	// GATEWAY_CEL_KUBERNETES_VERSION picks the Kubernetes release the client
	// answers as (default 1.37). The suite's assertions were written against
	// the API servers of their time: one experimental-channel subtest expects
	// the CEL error text of 1.33 and 1.34 ('Invalid value: "object": ...').
	version, err := crdschema.ParseKubernetesVersion(os.Getenv("GATEWAY_CEL_KUBERNETES_VERSION"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "GATEWAY_CEL_KUBERNETES_VERSION:", err)
		os.Exit(2)
	}
	var what string
	var closeClient func()
	k8sClient, closeClient, what, err = newClient(scheme, version, filepath.Join("testdata", "crd", crdChannel))
	if err != nil {
		fmt.Fprintf(os.Stderr, "building the client with the %s CRDs: %v\n", crdChannel, err)
		os.Exit(1)
	}
	fmt.Printf("gateway-api v1.4.1 CEL suite, %s channel, against %s as Kubernetes %s\n", crdChannel, what, version)
	code := m.Run()
	closeClient()
	os.Exit(code)
}

func ptrTo[T any](a T) *T {
	return &a
}

func celErrorStringMatches(got, want string) bool {
	gotL := strings.ToLower(got)
	wantL := strings.ToLower(want)

	// Starting in k8s v1.32, some CEL error messages changed to use "more" instead of "longer"
	alternativeWantL := strings.ReplaceAll(wantL, "longer", "more")

	// Starting in k8s v1.28, CEL error messages stopped adding spec and status prefixes to path names
	wantLAdjusted := strings.ReplaceAll(wantL, "spec.", "")
	wantLAdjusted = strings.ReplaceAll(wantLAdjusted, "status.", "")
	alternativeWantL = strings.ReplaceAll(alternativeWantL, "spec.", "")
	alternativeWantL = strings.ReplaceAll(alternativeWantL, "status.", "")

	// Enum validation messages changed in k8s v1.28:
	// Before: must be one of ['Exact', 'PathPrefix', 'RegularExpression']
	// After: supported values: "Exact", "PathPrefix", "RegularExpression"
	if strings.Contains(wantLAdjusted, "must be one of") {
		r := strings.NewReplacer(
			"must be one of", "supported values:",
			"[", "",
			"]", "",
			"'", "\"",
		)
		wantLAdjusted = r.Replace(wantLAdjusted)
	}
	return strings.Contains(gotL, wantL) || strings.Contains(gotL, wantLAdjusted) || strings.Contains(gotL, alternativeWantL)
}
