package main

import (
	"strings"
	"testing"
)

func TestFixesAndRuntime(t *testing.T) {
	code, out, errOut := runCosts(t, "-objects", "testdata/mailinglist-objects.yaml")
	if code != 1 {
		t.Errorf("exit status %d, want 1 (over budget)\n%s", code, errOut)
	}
	for _, want := range []string{
		"How the figures are made:\n",
		"      read unbounded: spec.addresses (no maxItems)\n",
		"      spec.moderators: maxItems 10\n",
		"Each of these bounds alone brings the CRD under the limits (checked with crd.Validate):\n  spec.addresses maxItems=4 (at most 4; now unset)\n",
		"    +kubebuilder:validation:MaxItems=4\n",
		"Object 1 (team), version v1: actual costs\n",
		"x-kubernetes-validations[0].rule: 1 evaluation(s), actual cost 38 (<0.01% of the estimate 2308977878627",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q\n%s", want, out)
		}
	}
}
