package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestKubernetesVersionFlag: a range prints which releases accept a CRD
// (isSemver came with 1.34) and exits 1; one release checks as that
// release's API server; an unknown release is a usage error.
func TestKubernetesVersionFlag(t *testing.T) {
	crds := "testdata/releases/semver-crd.yaml"
	var out, errOut bytes.Buffer
	code := run([]string{"-kubernetes-version", "1.33-1.37", "-crds", crds}, nil, &out, &errOut)
	if code != exitRejected || !strings.Contains(out.String(), "refused  accepted  accepted  accepted  accepted") ||
		!strings.Contains(out.String(), "`isSemver` is not available before Kubernetes 1.34") {
		t.Errorf("range: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	for _, tt := range []struct {
		version string
		code    int
	}{{"1.33", exitRejected}, {"1.34", exitOK}, {"1.20", exitUsage}} {
		out.Reset()
		errOut.Reset()
		if code := run([]string{"-kubernetes-version", tt.version, "-crds", crds}, nil, &out, &errOut); code != tt.code {
			t.Errorf("-kubernetes-version %s: exit %d, want %d\n%s%s", tt.version, code, tt.code, out.String(), errOut.String())
		}
	}
}
