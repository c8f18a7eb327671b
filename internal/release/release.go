// Package release names the Kubernetes releases whose API server the
// library reproduces, 1.33 to 1.37, and parses them.
package release

import (
	"fmt"
	"strconv"
	"strings"
)

// A Minor is the minor number of a Kubernetes 1.x release.
type Minor int

// The releases reproduced: Oldest to Newest; Default is the one options
// select when none is given.
const (
	Oldest  Minor = 33
	Newest  Minor = 37
	Default Minor = Newest
)

// Supported is the supported range as error texts word it.
const Supported = "1.33 to 1.37"

// Parse reads a release written "1.34" (or "v1.34", or with a patch
// number, "1.34.2"); "" is Default. A release outside Oldest..Newest is an
// error naming the supported range.
func Parse(s string) (Minor, error) {
	if s == "" {
		return Default, nil
	}
	t := strings.TrimPrefix(s, "v")
	major, rest, ok := strings.Cut(t, ".")
	minor, _, _ := strings.Cut(rest, ".")
	n, err := strconv.Atoi(minor)
	if !ok || major != "1" || err != nil || n < 0 {
		return 0, fmt.Errorf("unsupported Kubernetes version %q: want a release such as 1.34 (supported: %s)", s, Supported)
	}
	m := Minor(n)
	if m < Oldest || m > Newest {
		return 0, fmt.Errorf("unsupported Kubernetes version %q: crdschema reproduces the API server of Kubernetes %s", s, Supported)
	}
	return m, nil
}

// String writes m as "1.34".
func (m Minor) String() string { return "1." + strconv.Itoa(int(m)) }

// Compatibility is the minor number of the CEL compatibility version an
// API server of release m uses by default: the release before it.
func (m Minor) Compatibility() int { return int(m) - 1 }

// Valid reports whether m is a reproduced release.
func (m Minor) Valid() bool { return m >= Oldest && m <= Newest }

// Of returns the release v names, a crdschema.KubernetesVersion (which
// only gives valid releases): by its String, since the root package
// imports this one.
func Of(v fmt.Stringer) Minor {
	m, err := Parse(v.String())
	if err != nil {
		return Default
	}
	return m
}
