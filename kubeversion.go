package crdschema

import "github.com/crdschema/crdschema/internal/release"

// A KubernetesVersion is the Kubernetes release whose API server the
// packages of this module answer as. Every package that answers as a
// release takes one through its WithKubernetesVersion option. The zero
// value is the default release, 1.37; ParseKubernetesVersion gives the
// others.
type KubernetesVersion struct {
	minor uint8 // 0 for the default
}

// ParseKubernetesVersion parses a Kubernetes release ("1.34"; a leading
// "v" and a patch number are accepted and ignored). The empty string is
// the default release, as is "1.37": equal releases are equal values. A
// release outside 1.33 to 1.37, the releases reproduced, is an error
// naming that range.
func ParseKubernetesVersion(s string) (KubernetesVersion, error) {
	if s == "" {
		return KubernetesVersion{}, nil
	}
	m, err := release.Parse(s)
	if err != nil || m == release.Default {
		// the default release is the zero value, so that equal releases
		// are equal values
		return KubernetesVersion{}, err
	}
	return KubernetesVersion{minor: uint8(m)}, nil
}

// String returns the release as "1.34".
func (v KubernetesVersion) String() string { return v.release().String() }

func (v KubernetesVersion) release() release.Minor {
	if v.minor == 0 {
		return release.Default
	}
	return release.Minor(v.minor)
}
