package crd

import (
	"reflect"
	"slices"
	"testing"

	"github.com/crdschema/crdschema"
)

// semanticEqual and deepEqual are the reference of equalSchema and
// equalSubresources: the API server's semantic equality, by reflection.

// semanticEqual compares a and b as the API server's semantic equality
// does for CRD fields: deeply, with a nil slice or map equal to an empty
// one. It walks Go structs (subresources, printer columns, selectable
// fields) by reflection; decoded JSON values go to jsonvalue.SemanticEqual,
// which agrees with it on them without reflection.
func semanticEqual(a, b any) bool {
	if a == nil || b == nil {
		return a == b
	}
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Type() != vb.Type() {
		return false
	}
	return deepEqual(va, vb, 0)
}

// maxEqualDepth bounds the recursion of deepEqual; values nested deeper
// compare unequal, which only makes a CRD use per-version paths.
const maxEqualDepth = 10000

func deepEqual(a, b reflect.Value, depth int) bool {
	if !a.IsValid() || !b.IsValid() {
		return a.IsValid() == b.IsValid()
	}
	if a.Type() != b.Type() {
		return false
	}
	if depth > maxEqualDepth {
		return false
	}
	switch a.Kind() {
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		if a.Len() == 0 || a.Pointer() == b.Pointer() {
			return true
		}
		fallthrough
	case reflect.Array:
		for i := 0; i < a.Len(); i++ {
			if !deepEqual(a.Index(i), b.Index(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		if a.Len() == 0 || a.UnsafePointer() == b.UnsafePointer() {
			return true
		}
		it := a.MapRange()
		for it.Next() {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !deepEqual(it.Value(), bv, depth+1) {
				return false
			}
		}
		return true
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Pointer() == b.Pointer() {
			return true
		}
		return deepEqual(a.Elem(), b.Elem(), depth+1)
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return deepEqual(a.Elem(), b.Elem(), depth+1)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !deepEqual(a.Field(i), b.Field(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.String:
		return a.String() == b.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex()
	}
	// func, chan, unsafe pointer: only identity compares equal
	return false
}

// TestEqualSubresourcesColumnsFields: the typed equalities of hoisting
// (equalSubresources, slices.Equal of printer columns and of selectable
// fields) agree with semanticEqual on every pair of the conformance
// cases' values and on hand-made edge cases.
func TestEqualSubresourcesColumnsFields(t *testing.T) {
	if n, m := reflect.TypeFor[crdschema.CustomResourceSubresources]().NumField(), reflect.TypeFor[crdschema.CustomResourceSubresourceScale]().NumField(); n != 2 || m != 3 {
		t.Fatalf("the subresources have %d fields and the scale %d: equalSubresources compares 2 and 3", n, m)
	}
	path, other := "a", "b"
	subs := []*crdschema.CustomResourceSubresources{nil, {}, {Status: &crdschema.CustomResourceSubresourceStatus{}},
		{Scale: &crdschema.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.r"}},
		{Scale: &crdschema.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.r", LabelSelectorPath: &path}},
		{Scale: &crdschema.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.r", LabelSelectorPath: &other}},
		{Scale: &crdschema.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.r", StatusReplicasPath: ".status.r"}}}
	cols := [][]crdschema.CustomResourceColumnDefinition{nil, {}, {{Name: "a"}}, {{Name: "a", Priority: 1}}}
	fields := [][]crdschema.SelectableField{nil, {}, {{JSONPath: ".a"}}, {{JSONPath: ".b"}}}
	for _, c := range readConformanceCases(t) {
		for _, v := range mustCRD(t, c.CRD).Spec.Versions {
			subs = append(subs, v.Subresources)
			cols = append(cols, v.AdditionalPrinterColumns)
			fields = append(fields, v.SelectableFields)
		}
	}
	for _, a := range subs {
		for _, b := range subs {
			if got, want := equalSubresources(a, b), semanticEqual(a, b); got != want {
				t.Fatalf("equalSubresources = %v, semanticEqual = %v for\n%+v\n%+v", got, want, a, b)
			}
		}
	}
	for _, a := range cols {
		for _, b := range cols {
			if got, want := slices.Equal(a, b), semanticEqual(a, b); got != want {
				t.Fatalf("slices.Equal = %v, semanticEqual = %v for\n%+v\n%+v", got, want, a, b)
			}
		}
	}
	for _, a := range fields {
		for _, b := range fields {
			if got, want := slices.Equal(a, b), semanticEqual(a, b); got != want {
				t.Fatalf("slices.Equal = %v, semanticEqual = %v for\n%+v\n%+v", got, want, a, b)
			}
		}
	}
}
