// Package crdoptions holds what package crd's options set: crd.Option is
// a function of Settings (through an alias), so that the packages built on
// crd (costs, upgrade) take crd's options and read the release they
// select.
package crdoptions

import (
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
)

// Settings are what crd's options set.
type Settings struct {
	Version     crdschema.KubernetesVersion // the Kubernetes release
	Cache       *celrules.Cache             // shared compilations (WithCache), or nil
	Lazy        bool                        // WithLazyCompile
	Unvalidated bool                        // WithoutValidation
	Now         func() time.Time            // WithClock
	UID         func() string               // WithUID
	NameSuffix  func() string               // WithNameSuffix
	Kind        *Kind                       // WithKind
}

// Kind is what WithKind sets.
type Kind struct {
	Group, Version, Kind string
	Scope                crdschema.ResourceScope
}

// Apply returns the settings opts make, in order; nil options are skipped.
func Apply[O ~func(*Settings)](opts []O) Settings {
	var s Settings
	for _, o := range opts {
		if o != nil {
			o(&s)
		}
	}
	return s
}
