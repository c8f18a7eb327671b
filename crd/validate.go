package crd

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/internal/celshare"
	"github.com/crdschema/crdschema/internal/k8snames"
	"github.com/crdschema/crdschema/internal/metavalidation"
	"github.com/crdschema/crdschema/internal/release"
)

// config is the state of one Validate or ValidateUpdate call.
type config struct {
	ctx context.Context
	// cache shares compilations (parses, environments, the rules of
	// equal nodes) between the versions of the CRD, the rule checks and
	// the evaluation of rules on defaults; WithCache gives one that lives
	// longer.
	cache *celrules.Cache
	// kubeVersion is the release answered as; release its minor number.
	kubeVersion crdschema.KubernetesVersion
	release     release.Minor
	// structurals converts each schema once per call (and per crd.New
	// call, for validation and serving alike).
	structurals *structurals
	// valid are the schemas of the CRD validated without errors so far.
	valid []validSchema
}

func newConfig(ctx context.Context, opts []Option) *config {
	if ctx == nil {
		ctx = context.Background()
	}
	s := applyOptions(opts)
	cache := s.Cache
	if cache == nil {
		// The call's own: its schemas are the call's, never modified,
		// so the CEL type of each node is derived once (celshare).
		cache = new(celrules.Cache)
		celshare.ShareNodeTypes(cache)
	}
	return &config{ctx: ctx, cache: cache, kubeVersion: s.Version, release: release.Of(s.Version), structurals: newStructurals()}
}

// celOption is the CEL environment option of c's release.
func (c *config) celOption() celrules.Option {
	return celrules.WithKubernetesVersion(c.kubeVersion)
}

// The values the API server takes from its clock and a random source when a
// CRD is created. Validation does not depend on them; they only make the
// prepared metadata complete and deterministic.
const createdUID = "00000000-0000-0000-0000-000000000001"

var createdTimestamp = crdschema.Time{Time: time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)}

// generatedSuffix stands in for the five random characters the API server
// appends to metadata.generateName.
const generatedSuffix = "xxxxx"

// Validate reports every reason why the API server would refuse to create
// def, with the API server's errors (type, field path, detail): the CRD's
// metadata and name, group, names, scope, versions, schemas (structural
// rules, CRD restrictions and defaults), subresources, printer columns,
// selectable fields, conversion, stored versions, API approval and
// preserveUnknownFields. It returns nil when def would be accepted.
//
// def is read as a user writes it (apiextensions.k8s.io/v1, before
// defaulting); it is not modified. ctx bounds the evaluation of CEL rules
// on defaults, which CRD validation does.
func Validate(ctx context.Context, def *crdschema.CustomResourceDefinition, opts ...Option) crdschema.ErrorList {
	return cachedVerdict(ctx, applyOptions(opts), "create", func() crdschema.ErrorList {
		return validateDefWith(newConfig(ctx, opts), def)
	}, def)
}

// validateDefWith is Validate without the cache's verdicts, with the
// call's config.
func validateDefWith(c *config, def *crdschema.CustomResourceDefinition) crdschema.ErrorList {
	in := toInternal(prepareCreate(def), c.structurals)
	return nilIfEmpty(legacyErrors(validateCreate(in, createOptions(), c), c.release))
}

// ValidateUpdate reports every reason why the API server would refuse to
// update the stored CRD old to def. On top of the checks of Validate, the
// group and the plural name may not change, nor the scope and kind once old
// is established; checks added to the API server over time are relaxed for
// schemas that old already violated, as the API server does.
//
// old is taken as the API server has it stored: missing defaults are
// applied, its system metadata (uid, creationTimestamp, deletion fields) is
// kept and filled in where missing, and an old without status is taken as
// established, with its spec names accepted and its storage version
// stored. def takes over old's system metadata and status, as on the API
// server. Neither def nor old is modified. ctx bounds the evaluation of
// CEL rules on defaults.
func ValidateUpdate(ctx context.Context, def, old *crdschema.CustomResourceDefinition, opts ...Option) crdschema.ErrorList {
	return cachedVerdict(ctx, applyOptions(opts), "update", func() crdschema.ErrorList {
		c := newConfig(ctx, opts)
		stored := prepareStored(old)
		oldIn := toInternal(stored, c.structurals)
		in := toInternal(prepareUpdate(def, stored), c.structurals)
		vo := updateOptions(in, oldIn)
		if c.release < 35 {
			// More selectable fields than allowed may stay from 1.35 on.
			vo.allowTooManySelectableFields = nil
		}
		return nilIfEmpty(legacyErrors(validateUpdate(in, oldIn, vo, c), c.release))
	}, def, old)
}

func nilIfEmpty(errs crdschema.ErrorList) crdschema.ErrorList {
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// prepareCreate returns def as the API server validates it on create:
// defaulted, with the system fields of its metadata wiped and filled, a
// generated name, and the status reset to the storage version only.
func prepareCreate(def *crdschema.CustomResourceDefinition) *crdschema.CustomResourceDefinition {
	if def == nil {
		def = &crdschema.CustomResourceDefinition{}
	}
	d := Defaulted(def)
	m := &d.ObjectMeta
	m.CreationTimestamp = createdTimestamp
	m.UID = createdUID
	m.DeletionTimestamp = nil
	m.DeletionGracePeriodSeconds = nil
	m.SelfLink = ""
	m.Namespace = "" // cluster-scoped: the server drops a namespace
	if m.GenerateName != "" && m.Name == "" {
		m.Name = k8snames.GeneratedName(m.GenerateName, generatedSuffix)
	}
	m.Generation = 1
	d.Status = crdschema.CustomResourceDefinitionStatus{}
	if sv, ok := firstStorageVersion(d); ok {
		d.Status.StoredVersions = []string{sv}
	}
	return d
}

// prepareStored returns old as the API server has it stored: defaulted,
// with system metadata, and (when old carries no status) established with
// its names accepted and its storage version stored.
func prepareStored(old *crdschema.CustomResourceDefinition) *crdschema.CustomResourceDefinition {
	if old == nil {
		old = &crdschema.CustomResourceDefinition{}
	}
	d := Defaulted(old)
	m := &d.ObjectMeta
	m.UID = cmp.Or(m.UID, createdUID)
	if m.CreationTimestamp.IsZero() {
		m.CreationTimestamp = createdTimestamp
	}
	m.Generation = max(m.Generation, 1)
	m.Namespace = "" // cluster-scoped
	m.ResourceVersion = cmp.Or(m.ResourceVersion, "1")
	if d.Status.AcceptedNames.Plural == "" && d.Status.AcceptedNames.Kind == "" {
		d.Status.AcceptedNames = d.Spec.Names
	}
	if !slices.ContainsFunc(d.Status.Conditions, func(c crdschema.CustomResourceDefinitionCondition) bool { return c.Type == crdschema.Established }) {
		// appended to a copy: old's conditions are not modified
		d.Status.Conditions = append(slices.Clip(d.Status.Conditions), crdschema.CustomResourceDefinitionCondition{
			Type: crdschema.Established, Status: crdschema.ConditionTrue,
		})
	}
	return d
}

// prepareUpdate returns def as the API server validates it when it
// replaces the stored CRD old: defaulted, with old's status (plus the new
// storage version) and old's system metadata.
func prepareUpdate(def, old *crdschema.CustomResourceDefinition) *crdschema.CustomResourceDefinition {
	if def == nil {
		def = &crdschema.CustomResourceDefinition{}
	}
	d := Defaulted(def)
	m := &d.ObjectMeta
	om := &old.ObjectMeta
	m.Namespace = ""
	m.Generation = om.Generation
	m.ResourceVersion = cmp.Or(m.ResourceVersion, om.ResourceVersion)
	d.Status = old.Status
	if sv, ok := firstStorageVersion(d); ok && !slices.Contains(d.Status.StoredVersions, sv) {
		d.Status.StoredVersions = append(slices.Clip(d.Status.StoredVersions), sv) // a copy: old's is not modified
	}
	m.UID = cmp.Or(m.UID, om.UID)
	if !om.CreationTimestamp.IsZero() {
		m.CreationTimestamp = om.CreationTimestamp
	}
	m.DeletionTimestamp = cmp.Or(om.DeletionTimestamp, m.DeletionTimestamp)
	m.DeletionGracePeriodSeconds = cmp.Or(m.DeletionGracePeriodSeconds, om.DeletionGracePeriodSeconds)
	return d
}

func firstStorageVersion(d *crdschema.CustomResourceDefinition) (string, bool) {
	for _, v := range d.Spec.Versions {
		if v.Storage {
			return v.Name, true // even an empty name, as the API server does
		}
	}
	return "", false
}

var metadataPath = crdschema.NewPath("metadata")

// validateCreate is the API server's create validation of a CRD.
func validateCreate(in *internalCRD, opts validationOptions, c *config) crdschema.ErrorList {
	requiredName := in.spec.names.Plural + "." + in.spec.group
	nameFn := func(name string, prefix bool) []string {
		errs := metavalidation.NameIsDNSSubdomain(name, prefix)
		if name != requiredName {
			errs = append(errs, `must be spec.names.plural+"."+spec.group`)
		}
		return errs
	}
	errs := metavalidation.ValidateObjectMeta(in.meta, false, nameFn, metadataPath)
	errs = append(errs, validateSpec(&in.spec, opts, c, crdschema.NewPath("spec"))...)
	errs = append(errs, validateStatus(&in.status, crdschema.NewPath("status"))...)
	errs = append(errs, validateStoredVersions(in.status.storedVersions, in.spec.versions, crdschema.NewPath("status", "storedVersions"))...)
	errs = append(errs, validateAPIApproval(in, nil)...)
	errs = append(errs, validatePreserveUnknownFields(in, nil)...)
	if len(errs) == 0 {
		// The generic create path checks the metadata once more, with
		// the name only required to be a path segment.
		errs = metavalidation.ValidateObjectMeta(in.meta, false, metavalidation.NameIsPathSegment, metadataPath)
	}
	return errs
}

// validateUpdate is the API server's update validation of a CRD, including
// the generic metadata checks of every update.
func validateUpdate(in, old *internalCRD, opts validationOptions, c *config) crdschema.ErrorList {
	errs := metavalidation.ValidateObjectMeta(in.meta, false, metavalidation.NameIsPathSegment, metadataPath)
	errs = append(errs, metavalidation.ValidateObjectMetaUpdate(in.meta, old.meta, metadataPath)...)
	errs = append(errs, metavalidation.ValidateObjectMetaUpdate(in.meta, old.meta, metadataPath)...)
	errs = append(errs, validateSpecUpdate(&in.spec, &old.spec, opts, c, crdschema.NewPath("spec"))...)
	errs = append(errs, validateStatus(&in.status, crdschema.NewPath("status"))...)
	errs = append(errs, validateStoredVersions(in.status.storedVersions, in.spec.versions, crdschema.NewPath("status", "storedVersions"))...)
	errs = append(errs, validateAPIApproval(in, old)...)
	errs = append(errs, validatePreserveUnknownFields(in, old)...)
	return errs
}
