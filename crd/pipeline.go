package crd

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/internal/crdoptions"
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/internal/release"
	"github.com/crdschema/crdschema/ratchet"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// Pipeline is the API server's handling of the objects of one schema,
// compiled once: the steps of its custom resource strategy that depend on
// the schema, each a method, in the order the API server runs them:
//
//   - Decode: unknown fields pruned, nulls dropped where the schema does
//     not allow them, the metadata of the object and of its embedded
//     resources decoded as ObjectMeta;
//   - Default: the defaults as the API server serves them (after a round
//     trip through storage, so a whole-number float default of an integer
//     field is an integer);
//   - Validate, ValidateUpdate, ValidateStatusUpdate: kind and apiVersion
//     (with WithKind), the root metadata, the OpenAPI schema, embedded
//     resources, list sets and maps, and the CEL rules, which do not run
//     after errors that block them, as each release decides; updates
//     ratchet, run transition rules, and report list set and map errors
//     only when the old object had none; a status update validates the
//     status, correlated with the old status.
//
// What REST storage adds on top (system fields, generation, status reset,
// namespaces, resourceVersion, size limits, the scale subresource) is
// Resource's, which is built on a Pipeline (Resource.Pipeline). A Pipeline
// is immutable and safe for concurrent use.
type Pipeline struct {
	core
}

// core is what Pipeline and Resource share: the compiled schema policy.
type core struct {
	group, version, kind string // empty kind: objects of any kind
	namespaced           bool

	schemas map[string]*structural.Schema // every version's, defaults pruned, by name
	schema  *structural.Schema            // this version's
	decoder *prune.Decoder                // request bodies
	storage *prune.Decoder                // objects read back from storage

	validator       *validation.Validator // OpenAPI checks alone
	statusValidator *validation.Validator // nil when there is no status to update
	// hasEmbedded tells whether the schema has embedded resources: only
	// then do requests walk the object for them.
	hasEmbedded bool
	// defaulters apply the defaults of each version's schema (cut down to
	// what defaulting uses, defaultsOnly), listSchema is this version's
	// cut down to its lists of type set or map (objectcheck.ListTypesOnly);
	// made on first use.
	walksOnce  sync.Once
	defaulters map[*structural.Schema]*defaulter
	listSchema *structural.Schema

	rules *celrules.Compiled // nil when the version has no CEL rules

	release release.Minor // the Kubernetes release answered as
}

// WithKind gives NewPipeline the API group, version and kind of the
// objects and the scope of the resource. With it, Decode prunes only
// objects of that group and kind (others get their metadata cleaned),
// and validation checks kind and apiVersion (they must be kind and
// group/version) and the root metadata as the scope requires (a
// namespace for NamespaceScoped, none for Cluster). Without it, every
// object is decoded with the schema, kind and apiVersion are not checked,
// and the metadata, if the object has any, is checked as that of a
// cluster-scoped resource if it has no namespace and of a namespaced one
// if it has. New takes all of
// this from the CRD and ignores WithKind.
func WithKind(group, version, kind string, scope crdschema.ResourceScope) Option {
	return func(s *settings) {
		s.Kind = &crdoptions.Kind{Group: group, Version: version, Kind: kind, Scope: scope}
	}
}

// WithLazyCompile defers compiling the CEL rules of each schema node until
// a request first reaches the node. Results are the same; New and
// NewPipeline return sooner, and rules no object reaches are never
// compiled, at the price of a slower first request (and, for NewPipeline,
// of rules that do not compile being reported by the requests rather than
// by NewPipeline). It suits a Resource that serves a few requests, as in a
// unit test or a fake client, not a server.
func WithLazyCompile() Option {
	return func(s *settings) { s.Lazy = true }
}

// NewPipeline compiles the pipeline of schema, the openAPIV3Schema of a
// version of a CRD (crd.VersionSchema gives it for a version of a CRD).
// Options: WithKind (group, version, kind and scope), WithKubernetesVersion,
// WithCache and WithLazyCompile; the others are ignored.
//
// NewPipeline refuses a schema the API server would not serve: one that is
// not structural, or whose CEL rules do not compile (the error says which
// and where). It does not run the other checks of a CRD (Validate does,
// and New runs them on a whole CRD). schema is not modified, and may be
// modified once NewPipeline returns.
func NewPipeline(schema *crdschema.JSONSchemaProps, opts ...Option) (*Pipeline, error) {
	if schema == nil {
		return nil, errors.New("crd.NewPipeline: nil schema")
	}
	set := applyOptions(opts)
	s, err := structural.New(schema)
	if err != nil {
		return nil, fmt.Errorf("crd.NewPipeline: %w", err)
	}
	if errs := structural.Validate(nil, s, structural.Options{}); len(errs) > 0 {
		return nil, fmt.Errorf("crd.NewPipeline: the schema is not structural: %w", errs.ToAggregate())
	}
	s, embeds, err := prune.Defaults(s, false)
	if err != nil {
		return nil, fmt.Errorf("crd.NewPipeline: %w", err)
	}
	p := &Pipeline{}
	k := cmp.Or(set.Kind, &crdoptions.Kind{})
	if err := p.init(k.Group, k.Version, k.Kind, k.Scope == crdschema.NamespaceScoped, map[string]*structural.Schema{k.Version: s}, embeds, nil, false, true, set); err != nil {
		return nil, fmt.Errorf("crd.NewPipeline: %w", err)
	}
	if p.rules != nil && !set.Lazy {
		if errs := p.rules.Errors(); len(errs) > 0 {
			return nil, fmt.Errorf("crd.NewPipeline: %w", errs.ToAggregate())
		}
	}
	return p, nil
}

// init compiles c for version of schemas. The CEL rules are compiled from
// rulesSchema when it is not nil: the version's schema before its defaults
// were pruned or served, which compiles to the same rules (the CEL types
// depend on where defaults are, not on their values) and may share its
// types with the CRD's validation. embeds are the embedding nodes of the
// schemas (prune.DecoderOptions.Embeds), which both decoders share.
// preserveUnknown is the CRD's spec.preserveUnknownFields; with status,
// status updates are validated.
func (c *core) init(group, version, kind string, namespaced bool, schemas map[string]*structural.Schema, embeds map[*structural.Schema]bool, rulesSchema *structural.Schema, preserveUnknown, status bool, set settings) error {
	c.group, c.version, c.kind, c.namespaced = group, version, kind, namespaced
	c.schemas = schemas
	c.schema = schemas[version]
	c.release = release.Of(set.Version)
	c.hasEmbedded = embeds[c.schema]
	dopts := prune.DecoderOptions{Group: group, Kind: kind, Schemas: schemas, PreserveUnknownFields: preserveUnknown, Embeds: embeds}
	c.decoder = prune.NewDecoder(dopts)
	dopts.Storage = true
	c.storage = prune.NewDecoder(dopts)
	vopt := validation.WithKubernetesVersion(set.Version)
	var err error
	if c.validator, err = validation.New(c.schema, vopt, openAPIOnly); err != nil {
		return err
	}
	if status {
		var st *structural.Schema
		if c.schema != nil {
			st = c.schema.Properties["status"]
		}
		if c.statusValidator, err = validation.New(st, vopt, openAPIOnly); err != nil {
			return fmt.Errorf("status: %w", err)
		}
	}
	cache := set.Cache
	if cache == nil {
		cache = new(celrules.Cache)
	}
	copts := []celrules.Option{celrules.WithKubernetesVersion(set.Version), celrules.WithCache(cache)}
	if set.Lazy {
		copts = append(copts, celrules.WithLazyCompile())
	}
	rulesSchema = cmp.Or(rulesSchema, c.schema)
	c.rules, err = celrules.Compile(rulesSchema, true, copts...)
	return err
}

// Decode returns a copy of obj decoded as the API server decodes a request
// body after reading its JSON: its metadata decoded as ObjectMeta (unknown
// fields dropped, timestamps in UTC), unknown fields pruned, nulls that
// the schema does not allow and no default replaces dropped, and the
// apiVersion, kind and metadata of embedded resources coerced. It returns
// the paths of the fields dropped as unknown, in the API server's order
// (kubectl warns about them; strict field validation refuses them). An
// error means the API server refuses the body ("cannot be handled as a
// ..."). obj is not modified. Defaulting is the next step, Default.
func (p *Pipeline) Decode(obj map[string]any) (map[string]any, []string, error) {
	if obj == nil {
		return nil, nil, errors.New("not an object")
	}
	o, unknown, err := p.decoder.DecodeCopy(obj)
	if err != nil {
		return nil, nil, err
	}
	sort.Strings(unknown)
	return o, unknown, nil
}

// ReadStored returns a copy of obj, a stored object, as the API server
// reads it back from storage before it validates an update against it:
// decoded as storage decodes it (malformed metadata dropped, a missing
// generation set to 1, unknown fields pruned; nulls kept), defaulted, and
// decoded as Decode decodes a body. obj is not modified.
func (p *Pipeline) ReadStored(obj map[string]any) (map[string]any, error) {
	return p.readStored(obj)
}

// readStored is ReadStored: with the storage version's schema when the
// CRD stores objects in another version than c's (a Resource's).
func (c *core) readStored(obj map[string]any) (map[string]any, error) {
	if obj == nil {
		return nil, refuse("the stored object is not an object")
	}
	o, _, err := c.storage.DecodeCopy(obj)
	if err != nil {
		return nil, refuse("the stored object cannot be decoded: %v", err)
	}
	c.defaultObject(o)
	// Conversion between versions with strategy None changes only the
	// apiVersion.
	if c.kind != "" {
		if av, _ := o["apiVersion"].(string); av != c.group+"/"+c.version {
			o["apiVersion"] = c.group + "/" + c.version
		}
	}
	if _, err := c.decoder.Decode(o); err != nil {
		return nil, refuse("the stored object cannot be decoded: %v", err)
	}
	return o, nil
}

// Default applies the defaults of the schema to obj, in place, as the API
// server's decoder does after Decode.
func (p *Pipeline) Default(obj map[string]any) {
	p.defaultObject(obj)
}

// Validate validates obj, decoded and defaulted, as the API server
// validates the object of a create. ctx bounds the evaluation of the CEL
// rules, besides their cost limits. obj is not modified.
func (p *Pipeline) Validate(ctx context.Context, obj map[string]any) crdschema.ErrorList {
	return nilIfEmpty(p.releaseErrors(p.validateCreate(ctx, obj, nil)))
}

// ValidateUpdate validates obj as the API server validates the object of
// an update of the main resource that replaces old (both decoded and
// defaulted): ratcheting, transition rules, and what an update may not
// change in the metadata. Neither is modified.
func (p *Pipeline) ValidateUpdate(ctx context.Context, obj, old map[string]any) crdschema.ErrorList {
	return nilIfEmpty(p.releaseErrors(p.validateUpdate(ctx, obj, old, nil)))
}

// ValidateStatusUpdate validates obj as the API server validates the
// object of an update of the status subresource that replaces old: the
// status with ratcheting against the old status, list sets and maps, the
// CEL rules, and the metadata. obj is what the status update stores (old
// with the new status, as the API server prepares it). Neither is
// modified.
func (p *Pipeline) ValidateStatusUpdate(ctx context.Context, obj, old map[string]any) crdschema.ErrorList {
	return nilIfEmpty(p.releaseErrors(p.validateStatusUpdate(ctx, obj, old, nil)))
}

// correlate correlates an update's objects for ratcheting.
func (c *core) correlate(o, old map[string]any) *ratchet.Correlation {
	return ratchet.Correlate(o, old, c.schema)
}
