package validation

import (
	"sync"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/objectcheck"
	"github.com/crdschema/crdschema/internal/pattern"
	"github.com/crdschema/crdschema/internal/release"
	"github.com/crdschema/crdschema/structural"
)

// defaultCompatibilityMinor is the minor version of the Kubernetes
// compatibility version (1.36) whose supported formats a Validator uses by
// default. It is the one the API server of the reference version uses.
const defaultCompatibilityMinor = 36

// Validator validates objects against one structural schema with the
// OpenAPI v3 keywords that CustomResourceDefinitions allow, reporting the
// field errors the API server reports. Build it with New; it is immutable
// and safe for concurrent use.
type Validator struct {
	root *node
	// embedded is the schema when it has embedded resources, lists the
	// schema cut down to its lists of type set or map: the object checks
	// run only where they can find something.
	embedded, lists *structural.Schema
}

// Option configures New.
type Option func(*options)

// options are objectcheck's, so that package crd can ask for the OpenAPI
// checks alone.
type options = objectcheck.ValidatorOptions

// WithKubernetesVersion makes the Validator answer as the API server of
// the Kubernetes release v (the default is 1.37): the formats of its
// compatibility version (v minus one) and the checks of that release (a
// non-integer in an integer field gets a second, format error from 1.36
// on).
func WithKubernetesVersion(v crdschema.KubernetesVersion) Option {
	return func(o *options) {
		r := release.Of(v)
		o.Release = r
		o.Minor = r.Compatibility()
	}
}

// WithDefaultsCheck makes the Validator judge values as the API server
// judges the defaults of a CRD before it accepts the CRD, which differs
// from how it validates requests in two ways: formats are kept as written
// (a known format is checked on every string, whatever the type, and the
// type check is skipped for a string or list under a non-numeric type with
// a format), and x-kubernetes-int-or-string sets no type (an anyOf, if
// any, judges the value alone).
func WithDefaultsCheck() Option {
	return func(o *options) { o.Defaults = true }
}

// New compiles s into a Validator: patterns are compiled, formats resolved
// and unsupported formats cleared once, here. A nil schema gives a
// Validator that accepts everything. An invalid pattern is not an error
// here: like the API server, the Validator reports it on every value it
// checks.
func New(s *structural.Schema, opts ...Option) (*Validator, error) {
	o := options{Minor: defaultCompatibilityMinor, Release: release.Default}
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	c := compiler{defaults: o.Defaults, release: o.Release, formats: formatsAt(o.Minor), regexps: o.Patterns}
	if c.regexps == nil {
		c.regexps = map[string]*pattern.Matcher{}
	}
	if o.Defaults {
		// Every format the validator knows, whatever the version.
		c.formats = formatsAt(maxCompatibilityMinor)
	}
	root, err := c.schema(s)
	if err != nil {
		return nil, err
	}
	v := &Validator{root: root}
	if !o.OpenAPIOnly {
		if objectcheck.Has(s, objectcheck.IsEmbedded) {
			v.embedded = s
		}
		v.lists = objectcheck.ListTypesOnly(s)
	}
	return v, nil
}

// Validate checks obj against the schema and returns the problems found,
// with paths below fldPath (nil for a whole custom resource), in the API
// server's order: those of the OpenAPI keywords, then those of the
// embedded resources below obj (apiVersion, kind and metadata), then those
// of the x-kubernetes-list-type set and map lists (repeated items and
// keys). Like the API server, it reports failed anyOf, oneOf, allOf and
// not keywords and number format range failures at fldPath itself, which
// prints as "<nil>" for a nil fldPath. The metadata of obj itself, when it
// is a whole custom resource, is not checked here (package crd does). obj
// is not modified.
//
// Upstream reports sibling properties in Go map order; here properties
// and keys are visited in sorted order, so results are deterministic.
func (v *Validator) Validate(fldPath *crdschema.Path, obj any) crdschema.ErrorList {
	if v == nil || v.root == nil {
		return nil
	}
	st := states.Get().(*state)
	v.root.validate(obj, st)
	errs := toFieldErrors(fldPath, st.fails)
	putState(st)
	errs = append(errs, v.embeddedMeta(fldPath, obj)...)
	return append(errs, v.listSetsAndMaps(fldPath, obj)...)
}

func (v *Validator) embeddedMeta(fldPath *crdschema.Path, obj any) crdschema.ErrorList {
	if v.embedded == nil {
		return nil
	}
	return objectcheck.EmbeddedMeta(fldPath, obj, v.embedded, false)
}

func (v *Validator) listSetsAndMaps(fldPath *crdschema.Path, obj any) crdschema.ErrorList {
	if v.lists == nil {
		return nil
	}
	return objectcheck.ListSetsAndMaps(fldPath, obj, v.lists)
}

// states are the empty validation states, shared by all Validators: a
// Validator built for one value (CRD validation builds one per default)
// reuses one as well.
var states = sync.Pool{New: func() any {
	st := &state{}
	st.stack = st.stackBuf[:0]
	return st
}}

// putState releases st for reuse. The failures were converted already, so
// only their memory is kept; large lists are dropped.
func putState(st *state) {
	if cap(st.fails) > 256 || cap(st.stack) > 256 {
		return
	}
	clear(st.fails)
	st.fails = st.fails[:0]
	st.stack = st.stack[:0]
	st.corr, st.corrRoot, st.warnings = nil, false, false
	states.Put(st)
}
