// Package types mirrors the Kubernetes identifier types that appear in
// object metadata, under the package name Kubernetes uses, so that JSON
// decoding errors name them as the API server does ("of type types.UID").
package types

// UID is an object's unique identifier.
type UID string
