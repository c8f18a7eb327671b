package main

import (
	"cmp"
	"fmt"
	"runtime/debug"
)

// kubernetesRelease is the Kubernetes release whose API server behaviour
// crdschema reproduces: k8s.io/apiextensions-apiserver v0.37.2 is the
// module of Kubernetes v1.37.2.
const kubernetesRelease = "v1.37.2 (k8s.io/apiextensions-apiserver v0.37.2)"

// versionText says which crdschema this is and whose verdicts it gives.
func versionText() string {
	version := "(devel)"
	if info, ok := debug.ReadBuildInfo(); ok {
		version = moduleVersion(info)
	}
	return fmt.Sprintf("crdcheck, crdschema %s: the verdicts of the Kubernetes API server %s (-kubernetes-version 1.33 to 1.37 for those releases)", version, kubernetesRelease)
}

// moduleVersion is the crdschema module's version in a build: its
// release, or for a build from a repository the pseudo-version the go
// command (1.24 on) makes of the commit, with "+dirty" for uncommitted
// changes.
func moduleVersion(info *debug.BuildInfo) string {
	v := info.Main.Version
	if info.Main.Path != "github.com/crdschema/crdschema" {
		for _, d := range info.Deps {
			if d.Path == "github.com/crdschema/crdschema" {
				v = d.Version
			}
		}
	}
	return cmp.Or(v, "(devel)")
}
