package crd

import (
	"regexp"
	"testing"
)

// TestRandomUID checks that the UIDs given to created objects are random
// version 4 UUIDs in their canonical form, as the API server's.
func TestRandomUID(t *testing.T) {
	v4 := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)
	seen := map[string]bool{}
	for range 1000 {
		u := randomUID()
		if !v4.MatchString(u) {
			t.Fatalf("%q is not a version 4 UUID", u)
		}
		if seen[u] {
			t.Fatalf("%q twice", u)
		}
		seen[u] = true
	}
}
