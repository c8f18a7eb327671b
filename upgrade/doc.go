// Package upgrade answers the question a platform team asks before it
// applies a new version of a CustomResourceDefinition: what happens to the
// objects already stored?
//
// Check runs the API server's own pipeline (package crd) rather than
// comparing schemas. It reports whether the API server accepts the new CRD
// as an update of the stored one (crd.ValidateUpdate), the stored-version
// hazards (a version in status.storedVersions removed, the storage version
// changed without conversion), the schema changes that affect stored data,
// and one Verdict per stored object:
//
//   - Valid: the object is valid under the new CRD and reads back unchanged.
//   - Ratcheted: it is invalid under the new CRD, but thanks to validation
//     ratcheting the updates that leave its offending fields alone still
//     pass: a no-op update, a metadata-only update (labels, finalizers) and
//     a status update.
//   - Blocked: one of those updates fails whatever the client does, because
//     the failing rule cannot ratchet (a transition rule, metadata
//     validation, ...): a controller cannot write its status, a finalizer
//     cannot be removed. The errors name the field and the rule.
//   - ChangedOnRead: the new schema prunes fields of the object, or
//     defaults new ones, when the API server reads it: data loss or drift.
//     The changes name the fields.
//   - Unreadable: the version the object is stored in is gone from the CRD,
//     or needs a conversion webhook.
//
// The verdicts are computed by reading the object as the new CRD's API
// server reads it from storage (crd.Resource.ReadStored), then validating
// it without ratcheting, then sending the three updates through
// crd.Resource.Update and UpdateStatus.
package upgrade
