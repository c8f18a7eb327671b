package main

import (
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
// release, or the commit it was built from.
func moduleVersion(info *debug.BuildInfo) string {
	v := info.Main.Version
	if info.Main.Path != "github.com/crdschema/crdschema" {
		for _, d := range info.Deps {
			if d.Path == "github.com/crdschema/crdschema" {
				v = d.Version
			}
		}
	}
	if v != "" && v != "(devel)" {
		return v
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+dirty"
			}
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		return "(devel) " + rev + modified
	}
	return "(devel)"
}
