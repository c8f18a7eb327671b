// This file replaces the suite's main_test.go of sigs.k8s.io/gateway-api
// v1.4.1 (pkg/test/cel), as fakeclient/internal/gatewaycel's does: TestMain
// starts a testserver with the release's CRDs of the channel the build tags
// select and builds k8sClient from its *rest.Config with controller-runtime,
// as the suite does from a kubeconfig. The suite's other files are symbolic
// links to fakeclient/internal/gatewaycel's (unchanged upstream files).
// ptrTo and celErrorStringMatches are copied from the original file
// unchanged.

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
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/crdschema/crdschema/testserver"
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

	// GATEWAY_CEL_KUBERNETES_VERSION picks the Kubernetes release the
	// server answers as (default 1.37), as for the fake client.
	version, err := crdschema.ParseKubernetesVersion(os.Getenv("GATEWAY_CEL_KUBERNETES_VERSION"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "GATEWAY_CEL_KUBERNETES_VERSION:", err)
		os.Exit(2)
	}
	srv, err := testserver.Start(
		testserver.WithKubernetesVersion(version),
		testserver.WithCRDFiles(filepath.Join("testdata", "crd", crdChannel)))
	if err != nil {
		fmt.Fprintf(os.Stderr, "starting the test server with the %s CRDs: %v\n", crdChannel, err)
		os.Exit(1)
	}
	cfg := srv.RESTConfig()
	cfg.WarningHandler = rest.NoWarnings{}
	k8sClient, err = client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		fmt.Fprintf(os.Stderr, "building the client: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("gateway-api v1.4.1 CEL suite, %s channel, against testserver over HTTPS as Kubernetes %s\n", crdChannel, version)
	code := m.Run()
	_ = srv.Close()
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
