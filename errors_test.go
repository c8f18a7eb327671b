package crdschema

import (
	"errors"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

func TestPathString(t *testing.T) {
	var nilPath *Path
	tests := []struct {
		p    *Path
		want string
	}{
		{nilPath, "<nil>"},
		{NewPath("spec"), "spec"},
		{NewPath("spec", "versions").Index(0).Child("schema"), "spec.versions[0].schema"},
		{NewPath("metadata").Child("labels").Key("app.kubernetes.io/name"), "metadata.labels[app.kubernetes.io/name]"},
		{NewPath("a").Child("b", "c", "d"), "a.b.c.d"},
		{nilPath.Child("spec"), "spec"},
		{nilPath.Index(3), "[3]"},
		{NewPath("x").Key("").Index(-1), "x[][-1]"},
		{NewPath("spec").Child("validation", "openAPIV3Schema").Child("properties").Key("spec"), "spec.validation.openAPIV3Schema.properties[spec]"},
	}
	for _, tt := range tests {
		if got := tt.p.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
	if r := NewPath("a", "b").Child("c").Root().String(); r != "a" {
		t.Errorf("Root() = %q, want a", r)
	}
}

func TestPathSharing(t *testing.T) {
	base := NewPath("spec")
	a := base.Child("a")
	b := base.Child("b")
	if a.String() != "spec.a" || b.String() != "spec.b" || base.String() != "spec" {
		t.Fatalf("children changed each other or their parent: %s %s %s", a, b, base)
	}
}

func TestErrorTexts(t *testing.T) {
	p := NewPath("spec", "f")
	tests := []struct {
		err  *Error
		typ  ErrorType
		want string
	}{
		{Invalid(p, "x", "bad"), ErrorTypeInvalid, `spec.f: Invalid value: "x": bad`},
		{Invalid(p, int64(3), ""), ErrorTypeInvalid, `spec.f: Invalid value: 3`},
		{Invalid(p, 3, "d"), ErrorTypeInvalid, `spec.f: Invalid value: 3: d`},
		{Invalid(p, 1.5, "d"), ErrorTypeInvalid, `spec.f: Invalid value: 1.5: d`},
		{Invalid(p, float64(1e21), "d"), ErrorTypeInvalid, `spec.f: Invalid value: 1e+21: d`},
		{Invalid(p, true, "d"), ErrorTypeInvalid, `spec.f: Invalid value: true: d`},
		{Invalid(p, nil, "d"), ErrorTypeInvalid, `spec.f: Invalid value: null: d`},
		{Invalid(p, map[string]any{"z": int64(1), "a": "q"}, "d"), ErrorTypeInvalid, `spec.f: Invalid value: {"a":"q","z":1}: d`},
		{Invalid(p, []any{"a", int64(1)}, "d"), ErrorTypeInvalid, `spec.f: Invalid value: ["a",1]: d`},
		{Invalid(p, jsonvalue.Omitted{}, "a must be negative"), ErrorTypeInvalid, `spec.f: Invalid value: a must be negative`},
		{Invalid(nil, "", `"spec.any" must validate at least one schema (anyOf)`), ErrorTypeInvalid, `<nil>: Invalid value: "": "spec.any" must validate at least one schema (anyOf)`},
		{TypeInvalid(p, "string", `spec.f in body must be of type boolean: "string"`), ErrorTypeTypeInvalid, `spec.f: Invalid value: "string": spec.f in body must be of type boolean: "string"`},
		{Required(p, ""), ErrorTypeRequired, `spec.f: Required value`},
		{Required(p, "must be specified"), ErrorTypeRequired, `spec.f: Required value: must be specified`},
		{Forbidden(p, "may not be set"), ErrorTypeForbidden, `spec.f: Forbidden: may not be set`},
		{NotSupported(p, "c", []string{"a", "b"}), ErrorTypeNotSupported, `spec.f: Unsupported value: "c": supported values: "a", "b"`},
		{NotSupported(p, int64(3), []string{"1", "2"}), ErrorTypeNotSupported, `spec.f: Unsupported value: 3: supported values: "1", "2"`},
		{NotSupported[string](p, "c", nil), ErrorTypeNotSupported, `spec.f: Unsupported value: "c"`},
		{NotSupported(p, "x", []ResourceScope{ClusterScoped, NamespaceScoped}), ErrorTypeNotSupported, `spec.f: Unsupported value: "x": supported values: "Cluster", "Namespaced"`},
		{Duplicate(p, "a"), ErrorTypeDuplicate, `spec.f: Duplicate value: "a"`},
		{Duplicate(p, map[string]any{"name": "a"}), ErrorTypeDuplicate, `spec.f: Duplicate value: {"name":"a"}`},
		{&Error{Type: ErrorTypeNotFound, Field: "spec.f", BadValue: "a"}, ErrorTypeNotFound, `spec.f: Not found: "a"`},
		{TooLong(p, "abcd", 3), ErrorTypeTooLong, `spec.f: Too long: may not be more than 3 bytes`},
		{TooLong(p, "abcd", 1), ErrorTypeTooLong, `spec.f: Too long: may not be more than 1 byte`},
		{TooLong(p, "abcd", -1), ErrorTypeTooLong, `spec.f: Too long: value is too long`},
		{TooMany(p, 2, 1), ErrorTypeTooMany, `spec.f: Too many: 2: must have at most 1 item`},
		{TooMany(p, 12, 8), ErrorTypeTooMany, `spec.f: Too many: 12: must have at most 8 items`},
		{TooMany(p, -1, 8), ErrorTypeTooMany, `spec.f: Too many: must have at most 8 items`},
		{TooMany(p, 3, -1), ErrorTypeTooMany, `spec.f: Too many: 3: has too many items`},
		{InternalError(p, errors.New("boom")), ErrorTypeInternal, `spec.f: Internal error: boom`},
		{&Error{Type: "Weird", Field: "x"}, "Weird", `x: Internal error: unhandled error code: <unknown error "Weird">: please report this`},
	}
	for _, tt := range tests {
		if tt.err.Type != tt.typ {
			t.Errorf("%s: type %s, want %s", tt.want, tt.err.Type, tt.typ)
		}
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q\n           want %q", got, tt.want)
		}
	}
}

func TestRequiredAndForbiddenBadValue(t *testing.T) {
	// Kubernetes sets BadValue to "" for these; API status causes show it.
	if v := Required(nil, "").BadValue; v != "" {
		t.Errorf("Required BadValue = %#v", v)
	}
	if v := Forbidden(nil, "").BadValue; v != "" {
		t.Errorf("Forbidden BadValue = %#v", v)
	}
	if v := TooLong(nil, "abc", 1).BadValue; v != "<value omitted>" {
		t.Errorf("TooLong BadValue = %#v", v)
	}
}

func TestErrorListToAggregate(t *testing.T) {
	a := Required(NewPath("a"), "")
	b := Forbidden(NewPath("b"), "no")
	if err := ErrorList(nil).ToAggregate(); err != nil {
		t.Errorf("ToAggregate of nil list = %v, want nil", err)
	}
	if err := (ErrorList{}).ToAggregate(); err != nil {
		t.Errorf("ToAggregate of empty list = %v, want nil", err)
	}
	tests := []struct {
		l    ErrorList
		want string
	}{
		{ErrorList{a}, "a: Required value"},
		{ErrorList{a, a}, "a: Required value"},
		{ErrorList{a, b, a}, "[a: Required value, b: Forbidden: no]"},
		{ErrorList{b, Forbidden(NewPath("b"), "no")}, "b: Forbidden: no"},
	}
	for _, tt := range tests {
		err := tt.l.ToAggregate()
		if err == nil {
			t.Fatalf("ToAggregate(%d errors) = nil", len(tt.l))
		}
		if got := err.Error(); got != tt.want {
			t.Errorf("ToAggregate().Error() = %q, want %q", got, tt.want)
		}
		var fe *Error
		if !errors.As(err, &fe) || fe != tt.l[0] {
			t.Errorf("errors.As found %v, want the first error %v", fe, tt.l[0])
		}
		if err == tt.l.ToAggregate() {
			t.Error("two aggregates compare equal")
		}
	}
}
