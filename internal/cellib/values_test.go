package cellib_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/cel-go/common/types"
)

// TestValueConversions checks the conversions of the library's values
// against the texts Kubernetes' values give.
func TestValueConversions(t *testing.T) {
	env := newEnv(t)
	for _, c := range []struct {
		expr, native, nativeIntErr, toString, typeName string
	}{
		{`quantity("1.5Gi")`, "1536Mi", "type conversion error from 'Quantity' to 'int'", "type conversion error from 'kubernetes.Quantity' to 'string'", "kubernetes.Quantity"},
		{`quantity("1").add(1)`, "2", "type conversion error from 'Quantity' to 'int'", "type conversion error from 'kubernetes.Quantity' to 'string'", "kubernetes.Quantity"},
		{`ip("::1")`, "::1", "type conversion error from 'IP' to 'int'", "::1", "net.IP"},
		{`cidr("10.0.0.0/8")`, "10.0.0.0/8", "type conversion error from 'CIDR' to 'int'", "10.0.0.0/8", "net.CIDR"},
		{`url("https://x/y")`, "https://x/y", "type conversion error from 'URL' to 'int'", "type conversion error from 'kubernetes.URL' to 'string'", "kubernetes.URL"},
		{`semver("1.2.3")`, "1.2.3", "type conversion error from 'Semver' to 'int'", "type conversion error from 'kubernetes.Semver' to 'string'", "kubernetes.Semver"},
	} {
		o := run(t, env, c.expr, nil)
		if o.err != "" {
			t.Fatalf("%s: %s", c.expr, o.err)
		}
		v := o.val
		if n, err := v.ConvertToNative(reflect.TypeOf("")); err != nil || n != c.native {
			t.Errorf("%s: native string %v, %v; want %q", c.expr, n, err, c.native)
		}
		if _, err := v.ConvertToNative(reflect.TypeOf(0)); err == nil || err.Error() != c.nativeIntErr {
			t.Errorf("%s: native int error %v, want %q", c.expr, err, c.nativeIntErr)
		}
		if s := v.ConvertToType(types.StringType); fmt.Sprint(s) != c.toString {
			t.Errorf("%s: to string %v, want %q", c.expr, s, c.toString)
		}
		if tv := v.ConvertToType(types.TypeType); tv.(*types.Type).TypeName() != c.typeName {
			t.Errorf("%s: type %v, want %s", c.expr, tv, c.typeName)
		}
		if v.ConvertToType(v.Type()).Equal(v) != types.True && c.expr != `quantity("1").add(1)` {
			t.Errorf("%s: conversion to its own type changed it", c.expr)
		}
	}
	o := run(t, env, `format.uuid()`, nil)
	if _, err := o.val.ConvertToNative(reflect.TypeOf("")); err == nil || err.Error() != "type conversion error from 'Format' to 'string'" {
		t.Errorf("format: native string error %v", err)
	}
	if tv := o.val.ConvertToType(types.TypeType); tv.(*types.Type).TypeName() != "kubernetes.NamedFormat" {
		t.Errorf("format: type %v", tv)
	}
}
