package testserver

// The calls into the crdschema library are kept in this file, so that changes
// of its API touch one place.

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/defaulting"
	"github.com/crdschema/crdschema/internal/kubeapi"
	"github.com/crdschema/crdschema/internal/prune"
	"github.com/crdschema/crdschema/manifest"
	"github.com/crdschema/crdschema/structural"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// validateCRD reports what the API server of the Kubernetes release
// version ("" for the default) would refuse in def, as it creates it.
func validateCRD(ctx context.Context, def *crdschema.CustomResourceDefinition, version crdschema.KubernetesVersion, cache *celrules.Cache) crdschema.ErrorList {
	return crd.Validate(ctx, def, crd.WithKubernetesVersion(version), crd.WithCache(cache))
}

// validateCRDUpdate reports what the API server would refuse in def as it
// replaces old.
func validateCRDUpdate(ctx context.Context, def, old *crdschema.CustomResourceDefinition, version crdschema.KubernetesVersion, cache *celrules.Cache) crdschema.ErrorList {
	return crd.ValidateUpdate(ctx, def, old, crd.WithKubernetesVersion(version), crd.WithCache(cache))
}

// newResource compiles one served version of def; its CEL rules compile on
// first use.
// The CRD was validated when it was created (or at start), so it is served
// as given.
func newResource(def *crdschema.CustomResourceDefinition, version string, kubernetesVersion crdschema.KubernetesVersion, cache *celrules.Cache) (*crd.Resource, error) {
	return crd.New(def, version, crd.WithLazyCompile(), crd.WithoutValidation(), crd.WithKubernetesVersion(kubernetesVersion), crd.WithCache(cache))
}

// unmarshalCRD decodes one CRD from JSON.
func unmarshalCRD(data []byte) (*crdschema.CustomResourceDefinition, error) {
	def, _, err := manifest.UnmarshalCRD(data)
	return def, err
}

// readCRDs decodes every CustomResourceDefinition of a YAML or JSON stream.
func readCRDs(data []byte) ([]*crdschema.CustomResourceDefinition, error) {
	var defs []*crdschema.CustomResourceDefinition
	dec := manifest.NewDecoder(bytes.NewReader(data))
	for {
		doc, err := dec.Decode()
		switch {
		case doc == nil && err == io.EOF:
			return defs, nil
		case err != nil:
			return nil, err
		case doc.Object["kind"] != "CustomResourceDefinition":
			continue
		}
		def, _, err := manifest.UnmarshalCRD(doc.JSON)
		if err != nil {
			return nil, fmt.Errorf("document %d (line %d): %w", doc.Index, doc.Line, err)
		}
		defs = append(defs, def)
	}
}

// decodeObject decodes JSON with Kubernetes' number model.
func decodeObject(data []byte) (map[string]any, error) {
	return manifest.UnmarshalObject(data)
}

// outcome is a request that went through crdschema's pipeline: the object to
// store and the warnings to return, or the API server's refusal.
type outcome struct {
	object   map[string]any
	warnings []string
}

// runRequest runs one of the pipeline's writes and maps a refusal to the API
// server's status error: a *crd.RequestError before validation, the 422
// Invalid of the validation errors, the 400 of unknown fields under
// fieldValidation=Strict. Under fieldValidation=Ignore the unknown fields
// are not warned about.
func runRequest(gr schema.GroupResource, gk schema.GroupKind, name, fieldValidation string, run func() (*crd.Result, error)) (*outcome, error) {
	r, err := run()
	if err := kubeapi.ResultError(r, err, gr, gk, name, fieldValidation); err != nil {
		return nil, err
	}
	out := &outcome{object: r.Object}
	for _, w := range r.Warnings {
		if fieldValidation == metav1.FieldValidationIgnore && strings.HasPrefix(w, "unknown field ") {
			continue
		}
		out.warnings = append(out.warnings, w)
	}
	return out, nil
}

// createObject runs the create pipeline of res on obj, for a POST or (not
// post) a create through an apply or an update. The store gives the
// object its resourceVersion, so the one the pipeline gives (what a
// library user chains into an update) is taken off; a dry run keeps obj's,
// as the API server's dry-run storage returns it.
func createObject(ctx context.Context, res *crd.Resource, obj map[string]any, post, dryRun bool) func() (*crd.Result, error) {
	return func() (*crd.Result, error) {
		r, err := kubeapi.Create(ctx, res, obj, post && !dryRun)
		if !dryRun {
			setResourceVersion(r, "")
		}
		return r, err
	}
}

// updateObject runs the update pipeline of res on obj over old; status
// selects the status subresource's. The object keeps the request's
// resourceVersion, the store's precondition, rather than the next one
// the pipeline gives it.
func updateObject(ctx context.Context, res *crd.Resource, obj, old map[string]any, status bool) func() (*crd.Result, error) {
	return func() (*crd.Result, error) {
		var r *crd.Result
		var err error
		if status {
			r, err = res.UpdateStatus(ctx, obj, old)
		} else {
			r, err = res.Update(ctx, obj, old)
		}
		rv, _ := nestedString(obj, "metadata", "resourceVersion")
		setResourceVersion(r, rv)
		return r, err
	}
}

// setResourceVersion sets the resourceVersion of r's object, or removes
// it when rv is "".
func setResourceVersion(r *crd.Result, rv string) {
	if r == nil || r.Object == nil {
		return
	}
	md, ok := r.Object["metadata"].(map[string]any)
	if !ok {
		return
	}
	if rv == "" {
		delete(md, "resourceVersion")
	} else {
		md["resourceVersion"] = rv
	}
}

// nestedString returns the string at the path of keys in obj.
func nestedString(obj map[string]any, keys ...string) (string, bool) {
	var v any = obj
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		v = m[k]
	}
	s, ok := v.(string)
	return s, ok
}

// newRequestDecoder returns the schema-dependent part of the API server's
// decoding of def's objects (metadata, pruning, nulls, embedded resources),
// which the API server runs in its request decoder, before the field
// manager sees the object. crd.Resource builds the same decoder inside and
// does not expose it; this builds it again from the versions' schemas
// (structural, defaults pruned).
func newRequestDecoder(def *crdschema.CustomResourceDefinition) (*prune.Decoder, error) {
	schemas := map[string]*structural.Schema{}
	for _, v := range def.Spec.Versions {
		props, _ := crd.VersionSchema(def, v.Name)
		if props == nil {
			continue
		}
		s, err := structural.New(props)
		if err != nil {
			return nil, fmt.Errorf("version %s: %w", v.Name, err)
		}
		if !def.Spec.PreserveUnknownFields {
			if pruned, err := defaulting.PruneDefaults(s); err == nil {
				s = pruned
			}
		}
		schemas[v.Name] = s
	}
	return prune.NewDecoder(prune.DecoderOptions{
		Group:                 def.Spec.Group,
		Kind:                  def.Spec.Names.Kind,
		Schemas:               schemas,
		PreserveUnknownFields: def.Spec.PreserveUnknownFields,
	}), nil
}

// getScale reads the autoscaling/v1 Scale of a stored object.
func getScale(res *crd.Resource, obj map[string]any) (*crd.Scale, error) {
	return res.GetScale(obj)
}

// updateScale runs an update of the scale subresource over stored.
func updateScale(ctx context.Context, res *crd.Resource, sc *crd.Scale, stored map[string]any) func() (*crd.Result, error) {
	return func() (*crd.Result, error) {
		r, err := res.UpdateScale(ctx, sc, stored)
		rv, _ := nestedString(stored, "metadata", "resourceVersion")
		setResourceVersion(r, rv) // the store's precondition, as for updates
		return r, err
	}
}
