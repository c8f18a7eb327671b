package fakeclient

import (
	"strings"
	"testing"
)

// TestKubernetesVersion: a release the library reproduces builds a client;
// one outside 1.33 to 1.37 fails Build with an error naming the range.
func TestKubernetesVersion(t *testing.T) {
	if _, err := NewClientBuilder().WithKubernetesVersion("1.34").WithCRDFiles("testdata/crontab.yaml").Build(); err != nil {
		t.Fatalf("1.34: %v", err)
	}
	_, err := NewClientBuilder().WithKubernetesVersion("1.20").WithCRDFiles("testdata/crontab.yaml").Build()
	if err == nil || !strings.Contains(err.Error(), "1.33") {
		t.Fatalf("1.20: got %v, want an error naming the supported releases", err)
	}
}
