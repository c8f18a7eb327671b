package v1

import (
	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/apis/types"
)

// GoSyntaxOf returns, for an owner reference or a list of them, the value
// Kubernetes 1.33 printed in Go syntax as the bad value of a field error
// (`[]v1.OwnerReference{v1.OwnerReference{APIVersion:"v1", ...}}`), and v
// itself for any other value.
func GoSyntaxOf(v any) any {
	switch t := v.(type) {
	case crdschema.OwnerReference:
		return owner(t)
	case []crdschema.OwnerReference:
		if t == nil {
			return []OwnerReference(nil)
		}
		out := make([]OwnerReference, len(t))
		for i, r := range t {
			out[i] = owner(r)
		}
		return out
	}
	return v
}

func owner(r crdschema.OwnerReference) OwnerReference {
	return OwnerReference{
		APIVersion:         r.APIVersion,
		Kind:               r.Kind,
		Name:               r.Name,
		UID:                types.UID(r.UID),
		Controller:         r.Controller,
		BlockOwnerDeletion: r.BlockOwnerDeletion,
	}
}
