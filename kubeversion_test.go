package crdschema

import (
	"strings"
	"testing"
)

// TestKubernetesVersion: the zero value is 1.37; a release is parsed once,
// a patch number and a leading v ignored; outside 1.33 to 1.37 is an error
// naming the range.
func TestKubernetesVersion(t *testing.T) {
	if got := (KubernetesVersion{}).String(); got != "1.37" {
		t.Errorf("zero value: %s, want 1.37", got)
	}
	for in, want := range map[string]string{"": "1.37", "1.33": "1.33", "v1.34.2": "1.34", "1.37": "1.37"} {
		v, err := ParseKubernetesVersion(in)
		if err != nil || v.String() != want {
			t.Errorf("ParseKubernetesVersion(%q) = %s, %v; want %s", in, v, err, want)
		}
	}
	if v, _ := ParseKubernetesVersion(""); v != (KubernetesVersion{}) {
		t.Error(`"" is not the zero value`)
	}
	for _, in := range []string{"1.32", "1.38", "2.0", "x"} {
		if _, err := ParseKubernetesVersion(in); err == nil || !strings.Contains(err.Error(), "1.33 to 1.37") {
			t.Errorf("ParseKubernetesVersion(%q): %v, want an error naming 1.33 to 1.37", in, err)
		}
	}
}
