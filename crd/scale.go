package crd

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// Scale is the autoscaling/v1 Scale of a custom resource, as the API
// server serves it at the scale subresource; it encodes to the same JSON.
type Scale struct {
	crdschema.TypeMeta `json:",inline"`
	Metadata           crdschema.ObjectMeta `json:"metadata"`
	Spec               ScaleSpec            `json:"spec"`
	Status             ScaleStatus          `json:"status"`
}

// ScaleSpec is the desired number of replicas.
type ScaleSpec struct {
	Replicas int32 `json:"replicas,omitempty"`
}

// ScaleStatus is the observed number of replicas and the label selector of
// the pods.
type ScaleStatus struct {
	Replicas int32  `json:"replicas"`
	Selector string `json:"selector,omitempty"`
}

// GetScale reads the Scale of obj (an object as stored) through the
// version's specReplicasPath, statusReplicasPath and labelSelectorPath, as
// the API server's scale subresource does: missing status replicas are 0,
// a missing selector is empty, and missing spec replicas are an error.
func (r *Resource) GetScale(obj map[string]any) (*Scale, error) {
	if r.scale == nil {
		return nil, refuseAs(StatusReasonNotFound, "the server could not find the requested resource: %s has no scale subresource in version %s", r.resource, r.version)
	}
	s, found, err := r.scaleOf(obj)
	if err != nil {
		return nil, refuse("%v", err)
	}
	if !found {
		return nil, refuseAs(StatusReasonInternalError, "Internal error occurred: the spec replicas field %q does not exist", r.scale.SpecReplicasPath)
	}
	return s, nil
}

// UpdateScale runs an update of the scale subresource: the stored object
// with its spec replicas set to scale.Spec.Replicas goes through the update
// pipeline of the main resource (preparation and validation). A non-empty
// scale.Metadata.ResourceVersion must match the stored object's. The
// Result and the error are as Create's.
func (r *Resource) UpdateScale(ctx context.Context, scale *Scale, stored map[string]any) (*Result, error) {
	res, err := r.updateScale(ctx, scale, stored)
	if res == nil {
		return refused(nil, err)
	}
	return res, err
}

func (r *Resource) updateScale(ctx context.Context, scale *Scale, stored map[string]any) (*Result, error) {
	if r.scale == nil {
		return nil, refuseAs(StatusReasonNotFound, "the server could not find the requested resource: %s has no scale subresource in version %s", r.resource, r.version)
	}
	if scale == nil {
		return nil, refuse("nil update passed to Scale")
	}
	old, err := r.ReadStored(stored)
	if err != nil {
		return nil, err
	}
	if _, _, err := r.scaleOf(old); err != nil {
		return nil, refuse("%v", err)
	}
	// The API server marks spec replicas that the stored object lacks with
	// the smallest int32; a Scale that still carries it sets nothing.
	if scale.Spec.Replicas == math.MinInt32 {
		return nil, refuse("the spec replicas field %q cannot be empty", r.scale.SpecReplicasPath)
	}
	o := jsonvalue.CopyMap(old)
	if m := metaOf(o); m["resourceVersion"] == nil || m["resourceVersion"] == "" {
		m["resourceVersion"] = "1" // as the stored object is read
		o["metadata"] = m
	}
	if err := setNestedInt64(o, splitPath(r.scale.SpecReplicasPath), int64(scale.Spec.Replicas)); err != nil {
		return nil, refuse("%v", err)
	}
	if rv := scale.Metadata.ResourceVersion; rv != "" {
		m := metaOf(o)
		m["resourceVersion"] = rv
		o["metadata"] = m
	}
	return r.updateDecoded(ctx, o, nil, stored, false)
}

// scaleOf builds the Scale of obj and reports whether the spec replicas
// were set.
func (r *Resource) scaleOf(obj map[string]any) (*Scale, bool, error) {
	spec, foundSpec, err := nestedValue[int64](obj, splitPath(r.scale.SpecReplicasPath))
	if err != nil {
		return nil, false, err
	}
	status, _, err := nestedValue[int64](obj, splitPath(r.scale.StatusReplicasPath))
	if err != nil {
		return nil, false, err
	}
	var selector string
	if p := r.scale.LabelSelectorPath; p != nil && *p != "" {
		if selector, _, err = nestedValue[string](obj, splitPath(*p)); err != nil {
			return nil, false, err
		}
	}
	m := metaOf(obj)
	str := func(k string) string { s, _ := m[k].(string); return s }
	var created crdschema.Time
	if t, err := time.Parse(time.RFC3339, str("creationTimestamp")); err == nil {
		created.Time = t
	}
	return &Scale{
		TypeMeta: crdschema.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"},
		// the part of the object's metadata a Scale carries
		Metadata: crdschema.ObjectMeta{
			Name: str("name"), Namespace: str("namespace"), UID: str("uid"),
			ResourceVersion: str("resourceVersion"), CreationTimestamp: created,
		},
		Spec:   ScaleSpec{Replicas: int32(spec)},
		Status: ScaleStatus{Replicas: int32(status), Selector: selector},
	}, foundSpec, nil
}

// setNestedInt64 sets obj[fields...] = v, creating maps on the way, as the
// API server's SetNestedField does.
func setNestedInt64(obj map[string]any, fields []string, v int64) error {
	m := obj
	for i, f := range fields[:len(fields)-1] {
		if next, ok := m[f]; ok && next != nil {
			nm, ok := next.(map[string]any)
			if !ok {
				return fmt.Errorf("value cannot be set because %v is not a map[string]interface{}", jsonPathOf(fields[:i+1]))
			}
			m = nm
			continue
		}
		nm := map[string]any{}
		m[f] = nm
		m = nm
	}
	m[fields[len(fields)-1]] = v
	return nil
}
