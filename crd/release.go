package crd

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	metav1 "github.com/crdschema/crdschema/internal/apis/meta/v1"
	"github.com/crdschema/crdschema/internal/crdoptions"
	"github.com/crdschema/crdschema/internal/jsonvalue"
	"github.com/crdschema/crdschema/internal/release"
)

// An Option configures New, NewPipeline, Validate, ValidateUpdate and
// RuleCosts, and the packages built on them (costs, upgrade). Each option
// says what it configures; the others ignore it.
type Option func(*settings)

// settings are what the options set (crdoptions', so that costs and
// upgrade read them too).
type settings = crdoptions.Settings

// WithKubernetesVersion makes CRD validation, rule costs and the serving of
// a version answer as the API server of the Kubernetes release v does: its
// CEL environment (the libraries new and stored expressions may use), its
// cost estimates, its format checks and its error texts. The default is
// 1.37.
func WithKubernetesVersion(v crdschema.KubernetesVersion) Option {
	return func(s *settings) { s.Version = v }
}

// WithCache makes CRD validation, New and NewPipeline share the compiled
// CEL rules through c: a schema node whose rules and type (declarations
// and size bounds) equal those of a node compiled before, for the same
// release, gets that node's results instead of compiling again. The
// results, errors and cost figures are those of a compilation without c.
// Without it, each call shares compilations only within itself (between
// the versions of a CRD, between the nodes of a schema).
//
// Validate and ValidateUpdate also keep their verdicts in c: a CRD (and,
// for an update, the stored one) validated again at the same release,
// decoded anew or not, gets copies of the errors of its first validation
// without any work but a digest of its values (verdicts.go).
//
// Give one Cache to the calls of one piece of work that see the same rules
// again: validating a CRD and serving its versions, checking a set of
// related CRDs, running test suites over variants of a CRD. A Cache keeps
// everything it is given, until it is dropped.
func WithCache(c *celrules.Cache) Option {
	return func(s *settings) { s.Cache = c }
}

func applyOptions(opts []Option) settings { return crdoptions.Apply(opts) }

// eventOwnerDetail is the detail of the error for an Event owner.
const eventOwnerDetail = "/v1, Kind=Event is disallowed from being an owner"

// ownerIndex matches the index ending the path of an owner reference.
var ownerIndex = regexp.MustCompile(`(ownerReferences)\[[0-9]+\]$`)

// releaseErrors rewrites errs as r's release words them (see
// legacyErrors). errs is modified in place.
func (r *core) releaseErrors(errs crdschema.ErrorList) crdschema.ErrorList {
	return legacyErrors(errs, r.release)
}

// legacyErrors rewrites errs as the release rel words them: before 1.37 an
// Event owner is reported at the ownerReferences list, not at the entry,
// and owner references and managedFields operations have their own
// wordings; see legacyDetails for the rest. errs is modified in place.
func legacyErrors(errs crdschema.ErrorList, rel release.Minor) crdschema.ErrorList {
	if rel >= 37 {
		return errs
	}
	for _, e := range errs {
		if e.Detail == eventOwnerDetail {
			e.Field = ownerIndex.ReplaceAllString(e.Field, "$1")
		}
		if m := ownerField.FindStringSubmatch(e.Field); m != nil {
			legacyOwnerError(e, m[1], m[3], rel)
		}
		if legacyOperationError(e) {
			if e.Type == crdschema.ErrorTypeRequired {
				e.BadValue = "" // the empty operation
			}
			e.Type, e.Detail = crdschema.ErrorTypeInvalid, "must be `Apply` or `Update`"
		}
	}
	return legacyDetails(errs, rel)
}

// managedOperation matches the path of the operation of a managedFields
// entry.
var managedOperation = regexp.MustCompile(`(^|\.)managedFields\[[0-9]+\]\.operation$`)

// legacyOperationError reports whether e is the error of an operation of a
// managedFields entry other than Apply and Update, which releases before
// 1.37 report as an invalid value ("must be `Apply` or `Update`", the
// empty operation too), which does not block the CEL rules, rather than
// as an unsupported value (or a required one).
func legacyOperationError(e *crdschema.Error) bool {
	return (e.Type == crdschema.ErrorTypeNotSupported || e.Type == crdschema.ErrorTypeRequired) && managedOperation.MatchString(e.Field)
}

// blocks reports whether the error e keeps the CEL rules from running.
// Before 1.37 the errors on the fields of an owner reference and on the
// operation of a managedFields entry are invalid values (see
// legacyOwnerError and legacyOperationError), which do not block.
func (r *core) blocks(e *crdschema.Error) bool {
	if r.release < 37 && (ownerField.MatchString(e.Field) || legacyOperationError(e)) {
		return false
	}
	return blockingTypes[e.Type]
}

// ownerField matches the path of a field of an owner reference.
var ownerField = regexp.MustCompile(`^(.*ownerReferences)(\[[0-9]+\])\.(apiVersion|kind|name|uid)$`)

// legacyOwnerError rewrites e, an error on the field name of an owner
// reference, as releases before 1.37 report it: at the list, not at the
// entry (field is the path without the index), as an invalid value, and
// in 1.33 with the field's name in the detail.
func legacyOwnerError(e *crdschema.Error, field, name string, rel release.Minor) {
	if e.Type != crdschema.ErrorTypeRequired && e.Type != crdschema.ErrorTypeInvalid {
		return
	}
	e.Field = field + "." + name
	e.Type = crdschema.ErrorTypeInvalid
	switch {
	case name == "apiVersion":
		e.Detail = "version must not be empty"
	case rel < 34:
		e.Detail = name + " must not be empty"
	default:
		e.Detail = "must not be empty"
	}
}

// finalizerField matches the path of metadata.finalizers or one of them.
var finalizerField = regexp.MustCompile(`(^|\.)finalizers(\[[0-9]+\])?$`)

// metaField matches the path of a field of metadata whose names are
// checked, or of one of its entries.
var metaField = regexp.MustCompile(`(^|\.)metadata\.(name|generateName|namespace|labels|annotations|finalizers)(\[[0-9]+\])?$`)

// lengthInBytes matches the words of a name check's length limit.
var lengthInBytes = regexp.MustCompile(`must be no more than ([0-9]+) bytes`)

// legacyDetails rewrites the details of errs as releases before 1.35
// word them: in the ObjectMeta checks a finalizer name is "a qualified
// name" (not "a valid label key"), and names, label keys and values and
// annotation keys too long are measured in characters (not bytes); 1.33 words more details its own way (see
// legacyDetail133). errs is modified in place.
func legacyDetails(errs crdschema.ErrorList, rel release.Minor) crdschema.ErrorList {
	if rel >= 35 {
		return errs
	}
	for _, e := range errs {
		if finalizerField.MatchString(e.Field) {
			e.Detail = strings.Replace(e.Detail, "a valid label key must consist", "a qualified name must consist", 1)
		}
		if metaField.MatchString(e.Field) {
			// The name checks measured lengths in characters before
			// 1.35 (label keys and values, annotation keys, names).
			e.Detail = lengthInBytes.ReplaceAllString(e.Detail, "must be no more than $1 characters")
		}
		if rel < 34 {
			e.Detail = legacyDetail133(e)
			e.BadValue = legacyValue133(e.BadValue)
		}
	}
	return errs
}

// legacyValue133 is the bad value v as Kubernetes 1.33 prints it: pointers
// followed, nil as the string "null", numbers, booleans and strings as
// they are, a Stringer by its String, anything else in Go syntax (%#v)
// where later releases print JSON.
func legacyValue133(v any) any {
	if _, ok := v.(jsonvalue.Omitted); ok {
		return v
	}
	rv := reflect.ValueOf(v)
	if v == nil || (rv.Kind() == reflect.Pointer && rv.IsNil()) {
		return "null"
	}
	if rv.Kind() == reflect.Pointer {
		v = rv.Elem().Interface()
	}
	v = metav1.GoSyntaxOf(v)
	switch t := v.(type) {
	case int64, int32, float64, float32, bool, string:
		return v
	case fmt.Stringer:
		return jsonvalue.Verbatim(t.String())
	}
	return jsonvalue.Verbatim(jsonvalue.GoSyntax(v))
}

// ruleFieldDetails are the details of the fieldPath and message of a
// validation rule that 1.33 starts with the field's name.
var ruleFieldDetails = map[string]bool{
	"must be a valid path":           true,
	"must be non-empty if specified": true,
	"must not contain line breaks":   true,
}

// legacyDetail133 is the detail of e as Kubernetes 1.33 words it.
func legacyDetail133(e *crdschema.Error) string {
	d, f := e.Detail, e.Field
	if e.Type == crdschema.ErrorTypeRequired && d == "" {
		switch {
		case strings.HasSuffix(f, ".schema.openAPIV3Schema"):
			return "schemas are required"
		case strings.HasSuffix(f, ".service.name"):
			return "service name is required"
		case strings.HasSuffix(f, ".service.namespace"):
			return "service namespace is required"
		case !strings.Contains(f, "names.") && (strings.HasSuffix(f, ".apiVersion") || strings.HasSuffix(f, ".kind")):
			return "must not be empty"
		}
		return d
	}
	last := f[strings.LastIndex(f, ".")+1:]
	switch {
	case (last == "fieldPath" || last == "message") && ruleFieldDetails[d]:
		return last + " " + d
	case e.Type == crdschema.ErrorTypeTooLong && strings.HasSuffix(d, " than 1 byte"):
		return d + "s"
	case strings.HasSuffix(f, "selectableFields") && d == "may only be set when `version.schema.openAPIV3Schema` is not included":
		return "selectableFields may only be set when version.schema.openAPIV3Schema is not included"
	case strings.HasSuffix(f, "selectableFields") && d == "may only be set when validations.schema is included":
		return "selectableFields " + d
	case e.Type == crdschema.ErrorTypeTooMany && d == "must have at most 1 item":
		return "must have at most 1 items"
	}
	return d
}

// releaseObject adjusts the object of a request's result as r's release
// writes it: before 1.34 metadata without creationTimestamp carries it as
// null (ObjectMeta's time was not omitted when zero). o is modified.
func (r *core) releaseObject(o map[string]any) {
	if r.release >= 34 || o == nil {
		return
	}
	if m, ok := o["metadata"].(map[string]any); ok {
		if _, has := m["creationTimestamp"]; !has {
			m["creationTimestamp"] = nil
		}
	}
}
