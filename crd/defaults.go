package crd

import (
	"cmp"
	"strings"

	"github.com/crdschema/crdschema"
)

// defaultServicePort is the port of a conversion webhook service when the
// CRD leaves it out.
const defaultServicePort int32 = 443

// Defaulted returns def with the defaults the API server applies when it
// decodes a CustomResourceDefinition: spec.names.singular (the lower-case
// kind), spec.names.listKind (kind + "List"), spec.conversion (strategy
// None), the conversion webhook's service port (443) and
// status.storedVersions (the storage version, when empty).
//
// def is not modified. The result shares with def everything the defaults
// do not touch (schemas in particular), so treat it as read-only.
func Defaulted(def *crdschema.CustomResourceDefinition) *crdschema.CustomResourceDefinition {
	if def == nil {
		return nil
	}
	out := *def
	s := &out.Spec
	s.Names.Singular = cmp.Or(s.Names.Singular, strings.ToLower(s.Names.Kind))
	if s.Names.ListKind == "" && s.Names.Kind != "" {
		s.Names.ListKind = s.Names.Kind + "List"
	}
	if s.Conversion == nil {
		s.Conversion = &crdschema.CustomResourceConversion{Strategy: crdschema.NoneConverter}
	} else if w := s.Conversion.Webhook; w != nil && w.ClientConfig != nil && w.ClientConfig.Service != nil && w.ClientConfig.Service.Port == nil {
		conv := *s.Conversion
		webhook := *w
		cc := *w.ClientConfig
		svc := *cc.Service
		port := defaultServicePort
		svc.Port = &port
		cc.Service = &svc
		webhook.ClientConfig = &cc
		conv.Webhook = &webhook
		s.Conversion = &conv
	}
	if sv, ok := firstStorageVersion(&out); ok && len(out.Status.StoredVersions) == 0 {
		out.Status.StoredVersions = []string{sv}
	}
	return &out
}
