package crd

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/internal/celshare"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/k8snames"
	"github.com/crdschema/crdschema/internal/metavalidation"
	"github.com/crdschema/crdschema/structural"
)

// Resource is one served version of a custom resource: its Pipeline (the
// schema's policy: decoding, defaulting, validation) and what the API
// server's REST storage adds on top (system fields, generation, status
// handling, namespaces, resourceVersions, size limits, the scale
// subresource, objects read back from storage of any version), compiled
// once. Its Create, Update and UpdateStatus run the API server's request
// pipeline on an object. A Resource is safe for concurrent use; what a
// request changes in it is only the counter of the resourceVersions it
// gives stored objects.
type Resource struct {
	*core    // the pipeline's, shared
	pipeline *Pipeline

	def            *crdschema.CustomResourceDefinition // defaulted copy
	resource       string                              // plural.group, as the API server names the resource in errors
	storageVersion string

	hasStatus bool
	scale     *crdschema.CustomResourceSubresourceScale

	now        func() time.Time
	uid        func() string
	nameSuffix func() string

	// resourceVersion is the last resourceVersion given to a stored
	// object (see nextResourceVersion).
	resourceVersion atomic.Uint64
}

// WithClock sets the clock that stamps creationTimestamp on creates (New).
// The default is time.Now.
func WithClock(now func() time.Time) Option {
	return func(s *settings) { s.Now = now }
}

// WithoutValidation makes New serve def without checking that the API
// server would accept it (Validate), as when def has been validated
// already, or to serve a CRD the API server would refuse. A schema New
// cannot compile is still an error.
func WithoutValidation() Option {
	return func(s *settings) { s.Unvalidated = true }
}

// WithUID sets the generator of the uid of created objects (New). The
// default returns random version 4 UUIDs.
func WithUID(uid func() string) Option {
	return func(s *settings) { s.UID = uid }
}

// WithNameSuffix sets the generator of the suffix appended to
// metadata.generateName (New). The default returns 5 random characters,
// as the API server does.
func WithNameSuffix(suffix func() string) Option {
	return func(s *settings) { s.NameSuffix = suffix }
}

// New prepares the named version of def for requests. It fails when the
// version does not exist, a schema cannot be compiled or, unless
// WithoutValidation is given, when the API server would refuse def (as
// Validate says, with the same release and cache): that error is a
// *RequestError of reason Invalid whose Errors are Validate's. Without
// WithCache, the rules Validate compiles are shared with New's own
// compilation. Options: WithKubernetesVersion, WithCache,
// WithLazyCompile, WithoutValidation, WithClock, WithUID, WithNameSuffix.
func New(def *crdschema.CustomResourceDefinition, version string, opts ...Option) (*Resource, error) {
	if def == nil {
		return nil, errors.New("crd.New: nil CustomResourceDefinition")
	}
	d := Defaulted(def)
	if d.Version(version) == nil {
		return nil, fmt.Errorf("crd.New: %s has no version %q", d.Name, version)
	}
	set := applyOptions(opts)
	r := &Resource{
		pipeline:   &Pipeline{},
		def:        d,
		resource:   d.Spec.Names.Plural + "." + d.Spec.Group,
		now:        time.Now,
		uid:        randomUID,
		nameSuffix: randomSuffix,
	}
	r.core = &r.pipeline.core
	if set.Now != nil {
		r.now = set.Now
	}
	if set.UID != nil {
		r.uid = set.UID
	}
	if set.NameSuffix != nil {
		r.nameSuffix = set.NameSuffix
	}
	if sv := d.StorageVersion(); sv != nil {
		r.storageVersion = sv.Name
	} else {
		r.storageVersion = version
	}
	// Validation and the served schemas convert each schema once.
	conv := newStructurals()
	schemas, unpruned, embeds, err := servedSchemas(d, conv)
	if err != nil {
		return nil, err
	}
	own := set.Cache == nil
	if own {
		// New's own cache: no one else holds it or its schemas, so it may
		// keep CEL types by schema node (celshare).
		set.Cache = new(celrules.Cache)
		celshare.ShareNodeTypes(set.Cache)
	}
	if !set.Unvalidated {
		// Validate evaluates CEL rules on defaults, bounded by their cost
		// limits.
		vopts := []Option{WithKubernetesVersion(set.Version), WithCache(set.Cache)}
		validate := func() crdschema.ErrorList {
			c := newConfig(context.Background(), vopts)
			c.structurals = conv
			return validateDefWith(c, def)
		}
		var errs crdschema.ErrorList
		if own {
			// A cache of New's own holds no verdict yet: the CRD is
			// validated without looking one up (its digest costs a
			// quarter of New).
			errs = validate()
		} else {
			errs = cachedVerdict(context.Background(), applyOptions(vopts), "create", validate, def)
		}
		if len(errs) > 0 {
			return nil, &RequestError{
				Reason:  StatusReasonInvalid,
				Message: fmt.Sprintf("CustomResourceDefinition.apiextensions.k8s.io %q is invalid: %v", def.Name, errs.ToAggregate()),
				Errors:  errs,
			}
		}
	}
	// The version's own subresources: the API server's internal form
	// hoists them when all versions agree, to the same value.
	if sub := d.Version(version).Subresources; sub != nil {
		r.hasStatus = sub.Status != nil
		r.scale = sub.Scale
	}
	if err := r.core.init(d.Spec.Group, version, d.Spec.Names.Kind, d.Spec.Scope == crdschema.NamespaceScoped, schemas, embeds, unpruned[version], d.Spec.PreserveUnknownFields, r.hasStatus, set); err != nil {
		return nil, fmt.Errorf("crd.New: version %s: %w", version, err)
	}
	return r, nil
}

// Pipeline returns the pipeline of the version r serves: its decoding,
// defaulting and validation, which r's requests run.
func (r *Resource) Pipeline() *Pipeline { return r.pipeline }

// Result is the outcome of a request. Every request returns one, refused
// or not.
type Result struct {
	// Object is the object as the API server would store it: decoded
	// (unknown fields pruned, metadata cleaned), defaulted and prepared
	// (system fields, generation, status handling); when the request is
	// accepted, with the resourceVersion storage gives it. It is nil when
	// the request was refused before validation.
	Object map[string]any
	// UnknownFields are the paths of the fields dropped while decoding,
	// sorted: kubectl warns about them, and a strict field validation
	// refuses the request because of them.
	UnknownFields []string
	// Warnings are the warnings the API server returns with the response
	// (kubectl prints them as "Warning: ..."): one for each unknown field,
	// and those about the finalizer names a request adds.
	Warnings []string
	// Errors are the field errors of a refused request (those of its
	// *RequestError): the validation errors, or those of a refusal before
	// validation. The request is accepted when the error the request
	// returns is nil.
	Errors crdschema.ErrorList
}

// invalid returns the error of a request whose validation found r.Errors:
// a *RequestError of reason Invalid whose message is the API server's
// ("CronTab.stable.example.com \"a\" is invalid: spec.replicas: ...").
func (r *Result) invalid() *RequestError {
	kind, _ := r.Object["kind"].(string)
	apiVersion, _ := r.Object["apiVersion"].(string)
	group, _, _ := metavalidation.ParseGroupVersion(apiVersion)
	if group != "" {
		kind += "." + group
	}
	name, _ := metaOf(r.Object)["name"].(string)
	return &RequestError{
		Reason:  StatusReasonInvalid,
		Message: fmt.Sprintf("%s %q is invalid: %v", kind, name, r.Errors.ToAggregate()),
		Errors:  r.Errors,
	}
}

// RequestError is the error of a request the API server refuses: before
// validation (a body too large, one that cannot be decoded, a wrong
// apiVersion, a missing or stale resourceVersion, a name that does not
// match), by validation (reason Invalid, with the field errors), or in
// storage (an object too large to store). Its Reason and Message are those
// of the API server's status error, as kubectl prints them: "Error from
// server (<Reason>): <Message>" ("Error from server: <Message>" for the
// empty reason of a storage error).
type RequestError struct {
	Reason  StatusReason
	Message string
	// Errors are the field errors that caused the refusal (the status
	// error's causes), if any.
	Errors crdschema.ErrorList
}

func (e *RequestError) Error() string { return e.Message }

// StatusReason is the reason of an API server status error.
type StatusReason string

// The reasons of refused requests, as the API server names them.
const (
	StatusReasonBadRequest    StatusReason = "BadRequest"
	StatusReasonInvalid       StatusReason = "Invalid"
	StatusReasonConflict      StatusReason = "Conflict"
	StatusReasonNotFound      StatusReason = "NotFound"
	StatusReasonInternalError StatusReason = "InternalError"
	// StatusReasonRequestEntityTooLarge refuses a request body longer
	// than the API server reads (3 MiB of JSON).
	StatusReasonRequestEntityTooLarge StatusReason = "RequestEntityTooLarge"
)

// Code returns the HTTP status code the API server sends with the reason.
func (r StatusReason) Code() int {
	switch r {
	case StatusReasonBadRequest:
		return 400
	case StatusReasonInvalid:
		return 422
	case StatusReasonConflict:
		return 409
	case StatusReasonNotFound:
		return 404
	case StatusReasonRequestEntityTooLarge:
		return 413
	}
	return 500
}

// refuse returns a BadRequest RequestError.
func refuse(format string, args ...any) *RequestError {
	return refuseAs(StatusReasonBadRequest, format, args...)
}

func refuseAs(reason StatusReason, format string, args ...any) *RequestError {
	return &RequestError{Reason: reason, Message: fmt.Sprintf(format, args...)}
}

// Create runs a create request with body obj: decoding, defaulting, the
// preparation of a new object, its validation and the checks of storage
// (a new object must not carry a resourceVersion, and must fit into
// etcd's limit). obj is not modified. The Result is never nil; the error is nil when the
// request is accepted and a *RequestError saying why otherwise (the
// Result's Errors are its field errors). ctx bounds the evaluation of the
// CEL rules, besides their cost limits.
func (r *Resource) Create(ctx context.Context, obj map[string]any) (*Result, error) {
	return r.create(ctx, obj, false)
}

// CreateOwned is Create for a body that belongs to the call: obj, just
// decoded for this request (by manifest.UnmarshalObject, say)
// and not used by the caller afterwards. CreateOwned may modify obj, and
// the Object of the result may share obj's maps and lists; in return it
// saves Create's copy of the body. The outcome is Create's.
func (r *Resource) CreateOwned(ctx context.Context, obj map[string]any) (*Result, error) {
	return r.create(ctx, obj, true)
}

func (r *Resource) create(ctx context.Context, obj map[string]any, owned bool) (*Result, error) {
	if err := checkBodySize(obj); err != nil {
		return refused(nil, err)
	}
	o, unknown, err := r.decodeBody(obj, owned)
	if err != nil {
		return refused(nil, err)
	}
	m := metaOf(o)
	ns := r.requestNamespace(m)
	for _, k := range [...]string{"creationTimestamp", "uid", "deletionTimestamp", "deletionGracePeriodSeconds", "selfLink"} {
		delete(m, k) // system fields a client cannot set
	}
	if err := ensureNamespace(ns, m); err != nil {
		return refused(unknown, err)
	}
	m["creationTimestamp"] = r.now().UTC().Format(time.RFC3339)
	m["uid"] = r.uid()
	if name, _ := m["name"].(string); name == "" {
		if gn, _ := m["generateName"].(string); gn != "" {
			m["name"] = k8snames.GeneratedName(gn, r.nameSuffix())
		}
	}
	if err := ensureNamespace(r.scopeNamespace(ns), m); err != nil {
		return refused(unknown, err)
	}
	if r.hasStatus {
		delete(o, "status")
	}
	m["generation"] = int64(1)
	if len(m) > 0 {
		o["metadata"] = m
	}
	res := r.result(o, unknown, r.validateCreate(ctx, o, r.scale), true, nil)
	if len(res.Errors) == 0 {
		// Storage refuses a new object that carries a resourceVersion, one
		// that parses as a number other than 0 (an unparsable one is
		// replaced), with an error of no reason: an internal error.
		if rv, err := parseResourceVersion(m["resourceVersion"]); err == nil && rv != 0 {
			return res, &RequestError{Message: "resourceVersion should not be set on objects to be created"}
		}
	}
	return r.store(res, 0)
}

// Update runs an update (PUT) of the main resource: obj is the request
// body, old the object as stored. Neither is modified. The Result and the
// error are as Create's.
func (r *Resource) Update(ctx context.Context, obj, old map[string]any) (*Result, error) {
	return r.updateBody(ctx, obj, old, false, false)
}

// UpdateOwned is Update for a body that belongs to the call, as
// CreateOwned is Create for one: it may modify obj, and the Object of the
// result may share obj's maps and lists. old, the stored object, is not
// modified. The outcome is Update's.
func (r *Resource) UpdateOwned(ctx context.Context, obj, old map[string]any) (*Result, error) {
	return r.updateBody(ctx, obj, old, true, false)
}

// UpdateStatus runs an update of the status subresource: only the status
// of obj is taken, everything else is kept from old. The Result and the
// error are as Create's.
func (r *Resource) UpdateStatus(ctx context.Context, obj, old map[string]any) (*Result, error) {
	if !r.hasStatus {
		return refused(nil, refuseAs(StatusReasonNotFound, "the server could not find the requested resource: %s has no status subresource in version %s", r.resource, r.version))
	}
	return r.updateBody(ctx, obj, old, false, true)
}

// updateBody runs an update with the request body obj (decoded as
// decodeBody decodes it) against the stored object.
func (r *Resource) updateBody(ctx context.Context, obj, stored map[string]any, owned, status bool) (*Result, error) {
	if err := checkBodySize(obj); err != nil {
		return refused(nil, err)
	}
	o, unknown, err := r.decodeBody(obj, owned)
	if err != nil {
		return refused(nil, err)
	}
	res, err := r.updateDecoded(ctx, o, unknown, stored, status)
	if res == nil {
		return refused(unknown, err)
	}
	return res, err
}

// updateDecoded runs an update with the decoded body o against the stored
// object; a refusal before validation returns no Result.
func (r *Resource) updateDecoded(ctx context.Context, o map[string]any, unknown []string, stored map[string]any, status bool) (*Result, error) {
	old, err := r.ReadStored(stored)
	if err != nil {
		return nil, err
	}
	m, om := metaOf(o), metaOf(old)
	name, _ := m["name"].(string)
	if name == "" {
		name, _ = om["name"].(string)
	}
	ns := r.requestNamespace(m, om)
	if err := ensureNamespace(ns, m); err != nil {
		return nil, err
	}
	if n, _ := m["name"].(string); n != name {
		return nil, refuse("the name of the object (%s) does not match the name on the URL (%s)", n, name)
	}
	if rv, _ := om["resourceVersion"].(string); rv == "" {
		om["resourceVersion"] = "1"
	}
	oldRV, err := parseResourceVersion(om["resourceVersion"])
	if err != nil {
		return nil, refuse("%v", err)
	}
	newRV, err := parseResourceVersion(m["resourceVersion"])
	if err != nil {
		return nil, refuse("%v", err)
	}
	if newRV == 0 {
		e := crdschema.Invalid(crdschema.NewPath("metadata", "resourceVersion"), int64(0), "must be specified for an update")
		err := refuseAs(StatusReasonInvalid, "%s %q is invalid: %s", r.resource, name, e.Error())
		err.Errors = crdschema.ErrorList{e}
		return nil, err
	}
	if newRV != oldRV {
		return nil, refuseAs(StatusReasonConflict, "Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again", r.resource, name)
	}
	if err := ensureNamespace(r.scopeNamespace(ns), m); err != nil {
		return nil, err
	}
	if g, ok := om["generation"]; ok {
		m["generation"] = g
	} else {
		delete(m, "generation")
	}
	o["metadata"] = m
	if status {
		o = prepareStatusUpdate(o, old)
	} else {
		r.prepareUpdate(o, old)
	}
	m = metaOf(o)
	copyUpdateSystemFields(m, om)
	o["metadata"] = m
	if status {
		return r.store(r.result(o, unknown, r.validateStatusUpdate(ctx, o, old, r.scale), false, nil), oldRV)
	}
	return r.store(r.result(o, unknown, r.validateUpdate(ctx, o, old, r.scale), true, old), oldRV)
}

// ReadStored returns a copy of obj as the API server reads it back from
// storage: decoded with the storage version's schema (malformed metadata
// dropped, a missing generation set to 1), defaulted, converted to this
// version and decoded again.
func (r *Resource) ReadStored(obj map[string]any) (map[string]any, error) {
	return r.readStored(obj)
}

// decodeBody decodes a copy of a request body (obj itself when owned) as
// the API server does: kind must be set; the coercer (metadata, pruning,
// null dropping, embedded resources) and the defaulter run; the
// apiVersion must be this version's.
func (r *Resource) decodeBody(obj map[string]any, owned bool) (map[string]any, []string, error) {
	if obj == nil {
		return nil, nil, refuse("the object provided is unrecognized (must be of type %s): not an object", r.kind)
	}
	kind, _ := obj["kind"].(string)
	if kind == "" {
		return nil, nil, refuse("Object 'Kind' is missing in the request body")
	}
	av, _ := obj["apiVersion"].(string)
	var o map[string]any
	var unknown []string
	var err error
	if owned {
		o = obj
		unknown, err = r.decoder.Decode(o)
	} else {
		// the copy, pruned as it is made
		o, unknown, err = r.decoder.DecodeCopy(obj)
	}
	if err != nil {
		_, ver, _ := metavalidation.ParseGroupVersion(av)
		return nil, nil, refuse("%s in version %q cannot be handled as a %s: %v", kind, ver, r.kind, err)
	}
	r.defaultObject(o)
	if av != r.group+"/"+r.version {
		return nil, nil, refuse("the API version in the data (%s) does not match the expected API version (%s/%s)", av, r.group, r.version)
	}
	sort.Strings(unknown)
	return o, unknown, nil
}

// schemaOf returns the schema of obj's version when obj is of this CRD's
// group and kind.
func (r *core) schemaOf(obj map[string]any) *structural.Schema {
	if r.kind == "" {
		return r.schema // NewPipeline without WithKind: any object
	}
	kind, _ := obj["kind"].(string)
	av, _ := obj["apiVersion"].(string)
	g, v, err := metavalidation.ParseGroupVersion(av)
	if err != nil || g != r.group || kind != r.kind {
		return nil
	}
	return r.schemas[v]
}

func (r *Resource) requestNamespace(metas ...map[string]any) string {
	if !r.namespaced {
		return ""
	}
	for _, m := range metas {
		if ns, _ := m["namespace"].(string); ns != "" {
			return ns
		}
	}
	return "default"
}

func (r *Resource) scopeNamespace(ns string) string {
	if r.namespaced {
		return ns
	}
	return ""
}

// ensureNamespace sets or checks the namespace of an object against the
// namespace of the request's URL.
func ensureNamespace(requestNamespace string, m map[string]any) error {
	ns, _ := m["namespace"].(string)
	switch {
	case ns == requestNamespace:
	case ns == "":
		m["namespace"] = requestNamespace
	case requestNamespace == "":
		delete(m, "namespace")
	default:
		return refuse("the namespace of the provided object does not match the namespace sent on the request")
	}
	return nil
}

// prepareUpdate is the strategy's PrepareForUpdate: with a status
// subresource the status cannot be changed through the main resource; the
// generation grows when anything but metadata changed.
func (r *Resource) prepareUpdate(o, old map[string]any) {
	if r.hasStatus {
		if s, ok := old["status"]; ok {
			o["status"] = s
		} else {
			delete(o, "status")
		}
	}
	if !equalExceptMetadata(o, old) {
		g, _ := metaOf(old)["generation"].(int64)
		m := metaOf(o)
		m["generation"] = g + 1
		o["metadata"] = m
	}
}

// prepareStatusUpdate is the status strategy's PrepareForUpdate: the
// result is old with the request's status (and managedFields).
func prepareStatusUpdate(o, old map[string]any) map[string]any {
	out := jsonvalue.CopyMap(old)
	m := metaOf(out)
	if mf, ok := metaOf(o)["managedFields"]; ok {
		m["managedFields"] = mf
	} else {
		delete(m, "managedFields")
	}
	out["metadata"] = m
	if s, ok := o["status"]; ok {
		out["status"] = s
	} else {
		delete(out, "status")
	}
	return out
}

// copyUpdateSystemFields keeps the fields an update cannot change.
func copyUpdateSystemFields(m, old map[string]any) {
	if uid, _ := m["uid"].(string); uid == "" {
		if v, ok := old["uid"]; ok {
			m["uid"] = v
		}
	}
	for _, k := range [...]string{"creationTimestamp", "deletionTimestamp"} {
		if v := old[k]; v != nil {
			m[k] = v
		}
	}
	if v, ok := old["deletionGracePeriodSeconds"]; ok && v != nil {
		if _, set := m["deletionGracePeriodSeconds"]; !set {
			m["deletionGracePeriodSeconds"] = v
		}
	}
}

func equalExceptMetadata(a, b map[string]any) bool {
	n := 0
	for k, v := range a {
		if k == "metadata" {
			continue
		}
		n++
		w, ok := b[k]
		if !ok || !jsonvalue.SemanticEqual(v, w) {
			return false
		}
	}
	for k := range b {
		if k != "metadata" {
			n--
		}
	}
	return n == 0
}

// metaOf returns obj's metadata map, or a new empty one.
func metaOf(obj map[string]any) map[string]any {
	if m, ok := obj["metadata"].(map[string]any); ok {
		return m
	}
	return map[string]any{}
}

func parseResourceVersion(v any) (uint64, error) {
	s, _ := v.(string)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("resource version %q is not a valid unsigned integer: %v", s, err)
	}
	return n, nil
}

func randomUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var u [36]byte // 8-4-4-4-12 hexadecimal digits
	hex.Encode(u[0:8], b[0:4])
	u[8] = '-'
	hex.Encode(u[9:13], b[4:6])
	u[13] = '-'
	hex.Encode(u[14:18], b[6:8])
	u[18] = '-'
	hex.Encode(u[19:23], b[8:10])
	u[23] = '-'
	hex.Encode(u[24:36], b[10:16])
	return string(u[:])
}

// suffixAlphabet is the API server's: no vowels, no look-alike characters.
const suffixAlphabet = "bcdfghjklmnpqrstvwxz2456789"

func randomSuffix() string {
	var b [5]byte
	_, _ = rand.Read(b[:])
	for i := range b {
		b[i] = suffixAlphabet[int(b[i])%len(suffixAlphabet)]
	}
	return string(b[:])
}
