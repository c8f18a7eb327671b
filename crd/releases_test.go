package crd_test

import (
	"context"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/manifest"
)

const releasesCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: probes.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: probes
    kind: Probe
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              arns:
                type: array
                maxItems: 10
                items:
                  type: string
                  x-kubernetes-validations:
                  - rule: "matches(self, '^arn:(aws|aws-cn):iam::[0-9]{12}:role/.*$')"
`

// kubeVersion parses a release.
func kubeVersion(t testing.TB, s string) crdschema.KubernetesVersion {
	t.Helper()
	v, err := crdschema.ParseKubernetesVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestReleaseOutOfRange(t *testing.T) {
	def, _, err := manifest.UnmarshalCRD([]byte(releasesCRD))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"1.32", "1.38", "2.0", "banana"} {
		if _, err := crdschema.ParseKubernetesVersion(v); err == nil || !strings.Contains(err.Error(), "1.33 to 1.37") {
			t.Errorf("ParseKubernetesVersion(%q): got %v, want an error naming 1.33 to 1.37", v, err)
		}
	}
	if _, err := crd.CheckReleases(context.Background(), def, nil, kubeVersion(t, "1.36"), kubeVersion(t, "1.34")); err == nil {
		t.Error("CheckReleases from 1.36 to 1.34: no error")
	}
}

// The global matches() with a constant pattern was priced as one call
// before 1.37: a list of unbounded strings checked with it is accepted by
// 1.36 and refused by 1.37.
func TestCheckReleasesCost(t *testing.T) {
	def, _, err := manifest.UnmarshalCRD([]byte(releasesCRD))
	if err != nil {
		t.Fatal(err)
	}
	res, err := crd.CheckReleases(context.Background(), def, nil, kubeVersion(t, "1.35"), crdschema.KubernetesVersion{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 || res[0].Version != "1.35" || res[2].Version != "1.37" {
		t.Fatalf("got releases %v, want 1.35 to 1.37", res)
	}
	if !res[0].Accepted || !res[1].Accepted {
		t.Errorf("1.35/1.36 refuse: %v / %v", res[0].Errors, res[1].Errors)
	}
	if res[2].Accepted || len(res[2].Reasons) == 0 {
		t.Fatalf("1.37 accepts, want a refusal for cost")
	}
	if r := res[2].Reasons[0]; !strings.Contains(r, "estimated cost exceeds the limit from Kubernetes 1.37 on") {
		t.Errorf("reason %q does not say the cost limit is exceeded from 1.37 on", r)
	}
}
