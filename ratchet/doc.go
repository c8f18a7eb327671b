// Package ratchet correlates the new and the old object of an update, for
// validation ratcheting as the Kubernetes API server does it (always, from
// 1.33 on): an error in a part of the object that the update left unchanged
// does not fail the update. CRD authors can thus tighten a schema (add a
// maxLength, an enum value less, a CEL rule) and objects stored before keep
// updating, as long as their invalid parts stay as they are.
//
// # Correlation
//
// Correlate pairs the values of the new object with those of the old
// object: object properties and additionalProperties entries by key, and
// the items of x-kubernetes-list-type map lists by their key values. Items
// of atomic and set lists have no counterpart. A correlated value is
// unchanged when it deep-equals its old value, with the API server's notion
// of equality (see Correlation.Unchanged). A *Correlation is what both
// package validation (Validator.ValidateUpdate) and package celrules
// (celrules.WithRatcheting) take; Correlation.Status gives the one of a
// status update.
//
// # What ratchets
//
//   - Schema validation errors ratchet with the nearest correlated value: when
//     that value is unchanged, its errors and those of everything below it that
//     does not correlate become warnings. So errors inside allOf, anyOf, oneOf and
//     not, required properties, and errors in list items that do not correlate,
//     ratchet only when the whole enclosing correlated value is unchanged.
//     The root's kind and apiVersion never ratchet on their own.
//   - CEL rules that do not use oldSelf ratchet the same way. Transition rules
//     (oldSelf) never ratchet; they run where the value correlates, and rules with
//     optionalOldSelf also run where it does not, with oldSelf empty.
//   - x-kubernetes-list-type set and map errors are all or nothing: those of the
//     new object are reported only when the old object has none.
//   - Embedded resources' apiVersion, kind and metadata, and the root's metadata,
//     never ratchet.
//
// Package crd composes all of this inside the full request pipeline
// (Resource.Update and Resource.UpdateStatus).
package ratchet
