package objectcheck

import (
	"github.com/crdschema/crdschema/internal/pattern"
	"github.com/crdschema/crdschema/internal/release"
)

// ValidatorOptions are the settings of package validation's New: its
// Option is a function of them (through an alias), so that package crd,
// and only code of this module, can set OpenAPIOnly.
type ValidatorOptions struct {
	// Minor is the Kubernetes compatibility version 1.Minor whose formats
	// are checked.
	Minor int
	// Defaults judges values as the API server judges a CRD's defaults.
	Defaults bool
	// Release is the Kubernetes release answered as.
	Release release.Minor
	// OpenAPIOnly leaves out the checks of this package: the Validator
	// runs the OpenAPI checks alone, and the caller runs EmbeddedMeta and
	// ListSetsAndMaps where the API server's order puts them.
	OpenAPIOnly bool
	// Patterns, if not nil, are the compiled patterns by expression that
	// New takes and adds to: Validators built with one map share them.
	Patterns map[string]*pattern.Matcher
}
