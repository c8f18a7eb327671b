package crd

import (
	"fmt"
	"reflect"
	"sort"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/objectcheck"
	"github.com/crdschema/crdschema/internal/objectmeta"
	"github.com/crdschema/crdschema/internal/pathstack"
	"github.com/crdschema/crdschema/internal/pattern"
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/internal/surround"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// The apiVersion and kind of the object a default inside metadata is
// placed in to be checked, as the API server names it.
const (
	defaultsCheckAPIVersion = "validation/v1"
	defaultsCheckKind       = "Validation"
)

// validateDefaults checks every default of the structural schema ss (the
// schema of a whole resource) as the API server does before it accepts a
// CRD: a default must survive pruning (with requirePruned), its embedded
// resources must have valid apiVersion, kind and metadata, and it must be
// valid against the schema of its node. A default inside metadata,
// apiVersion or kind of an embedded resource is checked in the object it
// would be placed in. Defaults below additionalProperties are not checked,
// as upstream does not check them.
//
// Last, the CEL rules of the node are evaluated on the default, within one
// runtime cost budget for the whole schema. A non-nil error is a default
// that cannot even be placed in its surrounding object.
func validateDefaults(c *config, path *crdschema.Path, ss *structural.Schema, requirePruned bool) (crdschema.ErrorList, error) {
	below := map[*structural.Schema]bool{}
	if !markDefaulted(ss, below) {
		return nil, nil
	}
	s := ss
	if !s.XEmbeddedResource {
		clone := *s
		clone.XEmbeddedResource = true
		s = &clone
	}
	// The validators of the defaults share their compiled patterns.
	shared := map[string]*pattern.Matcher{}
	patterns := validation.Option(func(o *objectcheck.ValidatorOptions) { o.Patterns = shared })
	// The rules first run without cost tracking where their bounds allow
	// (see celrules/bounded.go): the budget left is then the budget less
	// the bounds, at most what the exact costs leave. While it lasts, no
	// evaluation can run out of budget with the exact costs either, and
	// the errors are those of tracked runs. When it runs out, the walk is
	// done again with every cost tracked.
	var errs crdschema.ErrorList
	for _, bounded := range defaultsPasses {
		v := defaultsValidator{config: c, requirePruned: requirePruned, budget: celrules.RuntimeBudget, bounded: bounded, below: below, patterns: patterns}
		root := surround.Surrounding{}.WithTypeMeta(defaultsCheckAPIVersion, defaultsCheckKind)
		st := pathstack.New(path) // paths are built for defaults only
		err := v.walk(&st, s, s, root, false)
		st.Release()
		if err != nil {
			return nil, err
		}
		errs = v.errs
		if !bounded || v.budget >= 0 {
			break
		}
	}
	return errs, nil
}

// defaultsPasses are the walks validateDefaults may make: bounded, then
// tracked (tests change them).
var defaultsPasses = []bool{true, false}

type defaultsValidator struct {
	*config
	requirePruned bool
	budget        int64 // left for CEL rules
	errs          crdschema.ErrorList
	// bounded lets the rules run without cost tracking where their bounds
	// allow; budget is then at most what exact costs leave.
	bounded bool
	// below holds the nodes with a default at or below them (through
	// items and properties): the walk visits only those.
	below    map[*structural.Schema]bool
	patterns validation.Option // gives validation.New the shared patterns
}

func (v *defaultsValidator) walk(st *pathstack.Stack, s, root *structural.Schema, sur surround.Surrounding, insideMeta bool) error {
	if s == nil {
		return nil
	}
	if s.XEmbeddedResource {
		insideMeta = false
		sur = surround.Surrounding{}.WithTypeMeta(defaultsCheckAPIVersion, defaultsCheckKind)
		root = s
	}
	if s.Default != nil && s.Default.Value != nil {
		if err := v.check(st.Path().Child("default"), s, s == root, root, sur, insideMeta); err != nil {
			return err
		}
	}
	if v.budget < 0 {
		return nil
	}
	if v.below[s.Items] {
		st.Child("items")
		err := v.walk(st, s.Items, root, sur.Index(), insideMeta)
		st.Pop()
		if err != nil || v.budget < 0 {
			return err
		}
	}
	// Only the properties with a default at or below them are visited:
	// most of a schema has none, and visiting costs a path and a sort.
	var keys []string
	for k, p := range s.Properties {
		if v.below[p] {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil
	}
	sort.Strings(keys)
	st.Child("properties")
	defer st.Pop()
	for _, k := range keys {
		meta := insideMeta || (s.XEmbeddedResource && (k == "metadata" || k == "apiVersion" || k == "kind"))
		st.Key(k)
		err := v.walk(st, s.Properties[k], root, sur.Child(k), meta)
		st.Pop()
		if err != nil || v.budget < 0 {
			return err
		}
	}
	return nil
}

// markDefaulted reports whether s or a node below it (through items and
// properties, the nodes whose defaults are checked) has a default, and
// adds every such node to below, in one walk.
func markDefaulted(s *structural.Schema, below map[*structural.Schema]bool) bool {
	if s == nil {
		return false
	}
	has := markDefaulted(s.Items, below)
	for _, p := range s.Properties {
		has = markDefaulted(p, below) || has
	}
	if has || s.Default != nil {
		below[s] = true
		return true
	}
	return false
}

// check validates the default of s, reported at path.
func (v *defaultsValidator) check(path *crdschema.Path, s *structural.Schema, isResourceRoot bool, root *structural.Schema, sur surround.Surrounding, insideMeta bool) error {
	def := s.Default.Value
	validator, err := validation.New(s, validation.WithDefaultsCheck(), validation.WithKubernetesVersion(v.kubeVersion), openAPIOnly, v.patterns)
	if err != nil {
		return err
	}
	if insideMeta {
		obj, err := sur.Wrap(jsonvalue.Copy(def))
		if err != nil {
			return fmt.Errorf("failed to validate default value inside metadata: %v", err)
		}
		// The detail quotes the metadata errors as the release words
		// them (legacyErrors: owner references before 1.37, values in Go
		// syntax at any depth in 1.33, ...).
		if e, _ := objectmeta.Coerce(nil, obj, root, true, objectmeta.CoerceOptions{}); e != nil {
			e = legacyErrors(crdschema.ErrorList{e}, v.release)[0]
			v.errs = append(v.errs, crdschema.Invalid(path, def, "must result in valid metadata: "+e.Error()))
		} else if errs := objectcheck.EmbeddedMeta(nil, obj, root, true); len(errs) > 0 {
			errs = legacyErrors(errs, v.release)
			v.errs = append(v.errs, crdschema.Invalid(path, def, "must result in valid metadata: "+errs.ToAggregate().Error()))
		} else if errs := validator.Validate(path, def); len(errs) > 0 {
			v.errs = append(v.errs, errs...)
		} else {
			v.evalRules(path, s, isResourceRoot, def)
		}
		return nil
	}
	// The API server coerces the default in place and validates the
	// result; here a copy is coerced, the schema stays as it is.
	coerced := jsonvalue.Copy(def)
	if v.requirePruned {
		pruned := jsonvalue.Copy(def)
		prune.Prune(pruned, s, s.XEmbeddedResource)
		if !reflect.DeepEqual(pruned, def) {
			// The API server's error holds the default itself, which the
			// coercion below then rewrites (the ObjectMeta round trip
			// drops unknown metadata fields): the message prints the
			// default as coerced.
			v.errs = append(v.errs, crdschema.Invalid(path, coerced, "must not have unknown fields"))
		}
	}
	if e, _ := objectmeta.Coerce(path, coerced, s, s.XEmbeddedResource, objectmeta.CoerceOptions{}); e != nil {
		v.errs = append(v.errs, e)
	} else if errs := objectcheck.EmbeddedMeta(path, coerced, s, s.XEmbeddedResource); len(errs) > 0 {
		v.errs = append(v.errs, errs...)
	} else if errs := validator.Validate(path, coerced); len(errs) > 0 {
		v.errs = append(v.errs, errs...)
	} else {
		v.evalRules(path, s, isResourceRoot, coerced)
	}
	return nil
}

// evalRules evaluates the CEL rules of s on a valid default, as CRD
// validation does: with the default as its own old value and, when that
// passes, without an old value; the lower remaining budget counts.
func (v *defaultsValidator) evalRules(path *crdschema.Path, s *structural.Schema, isResourceRoot bool, value any) {
	// The compiled rules serve this one default: only the nodes the
	// default reaches are compiled.
	c, err := celrules.Compile(s, isResourceRoot, celrules.WithLazyCompile(), celrules.WithCache(v.cache), v.celOption())
	if err != nil {
		v.errs = append(v.errs, crdschema.InternalError(path, err))
		return
	}
	if c == nil {
		return // no rules
	}
	opts := []celrules.ValidateOption{celrules.WithBudget(v.budget)}
	if v.bounded {
		opts = append(opts, celrules.WithBoundedCost())
	}
	r := c.Validate(v.ctx, path, value, value, opts...)
	errs, left := r.Errors, r.Remaining
	if len(errs) == 0 {
		more := c.Validate(v.ctx, path, value, nil, opts...)
		errs = append(errs, more.Errors...)
		left = min(left, more.Remaining)
	}
	v.errs = append(v.errs, errs...)
	v.budget = left
}
