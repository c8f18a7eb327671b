// Package v1 mirrors the JSON shape of Kubernetes' object metadata
// (meta/v1 ObjectMeta and the types inside it) under the package and type
// names Kubernetes uses. Decoding metadata into these types with
// sigs.k8s.io/json reproduces the API server's decoding: the same fields
// are kept, the same unknown fields are found and the same error texts
// ("json: cannot unmarshal number into Go struct field ObjectMeta.name of
// type string") are produced. It serves the slow, exact path of package
// prune's metadata coercion, and the values Kubernetes 1.33 printed in Go
// syntax (`[]v1.OwnerReference{...}`).
package v1

import (
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/apis/types"
)

// ObjectMeta has the fields and JSON names of Kubernetes' ObjectMeta.
type ObjectMeta struct {
	Name                       string               `json:"name,omitempty"`
	GenerateName               string               `json:"generateName,omitempty"`
	Namespace                  string               `json:"namespace,omitempty"`
	SelfLink                   string               `json:"selfLink,omitempty"`
	UID                        types.UID            `json:"uid,omitempty"`
	ResourceVersion            string               `json:"resourceVersion,omitempty"`
	Generation                 int64                `json:"generation,omitempty"`
	CreationTimestamp          Time                 `json:"creationTimestamp,omitempty"`
	DeletionTimestamp          *Time                `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64               `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string    `json:"labels,omitempty"`
	Annotations                map[string]string    `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference     `json:"ownerReferences,omitempty"`
	Finalizers                 []string             `json:"finalizers,omitempty"`
	ManagedFields              []ManagedFieldsEntry `json:"managedFields,omitempty"`
}

// OwnerReference has the fields and JSON names of Kubernetes'
// OwnerReference.
type OwnerReference struct {
	APIVersion         string    `json:"apiVersion"`
	Kind               string    `json:"kind"`
	Name               string    `json:"name"`
	UID                types.UID `json:"uid"`
	Controller         *bool     `json:"controller,omitempty"`
	BlockOwnerDeletion *bool     `json:"blockOwnerDeletion,omitempty"`
}

// ManagedFieldsOperationType is the operation of a managed-fields entry.
type ManagedFieldsOperationType string

// ManagedFieldsEntry has the fields and JSON names of Kubernetes'
// ManagedFieldsEntry.
type ManagedFieldsEntry struct {
	Manager     string                     `json:"manager,omitempty"`
	Operation   ManagedFieldsOperationType `json:"operation,omitempty"`
	APIVersion  string                     `json:"apiVersion,omitempty"`
	Time        *Time                      `json:"time,omitempty"`
	FieldsType  string                     `json:"fieldsType,omitempty"`
	FieldsV1    *FieldsV1                  `json:"fieldsV1,omitempty"`
	Subresource string                     `json:"subresource,omitempty"`
}

// FieldsV1 keeps the raw JSON of a managed-fields set.
type FieldsV1 struct {
	Raw []byte
}

// UnmarshalJSON keeps b unless it is null.
func (f *FieldsV1) UnmarshalJSON(b []byte) error {
	if string(b) != "null" {
		f.Raw = append(f.Raw[:0], b...)
	}
	return nil
}

// Time is a timestamp decoded as Kubernetes decodes one: null is the zero
// time, anything else must be a JSON string in RFC 3339 form, with the
// standard library's error texts, as Kubernetes' (crdschema.Time's
// decoding).
type Time struct {
	time.Time
}

// UnmarshalJSON decodes an RFC 3339 string or null.
func (t *Time) UnmarshalJSON(b []byte) error {
	return (*crdschema.Time)(t).UnmarshalJSON(b)
}
