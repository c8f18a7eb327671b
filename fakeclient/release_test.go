package fakeclient

import (
	"testing"

	"github.com/crdschema/crdschema"
)

// TestKubernetesVersion: a release the library reproduces builds a client.
// (A release outside 1.33 to 1.37 is an error of
// crdschema.ParseKubernetesVersion, where it is given.)
func TestKubernetesVersion(t *testing.T) {
	v, err := crdschema.ParseKubernetesVersion("1.34")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewClientBuilder().WithKubernetesVersion(v).WithCRDFiles("testdata/crontab.yaml").Build(); err != nil {
		t.Fatalf("1.34: %v", err)
	}
}
