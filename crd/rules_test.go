package crd

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/apiextensions"
)

func ptr[T any](v T) *T { return &v }

func TestDeprecationWarning(t *testing.T) {
	tests := []struct {
		deprecated bool
		warning    *string
		want       []string
	}{
		{false, nil, nil},
		{true, nil, nil},
		{true, ptr("use v2"), nil},
		{false, ptr("use v2"), []string{"can only be set for deprecated versions"}},
		{true, ptr(""), []string{"must not be an empty string"}},
		{true, ptr(strings.Repeat("x", 256)), nil},
		{true, ptr(strings.Repeat("x", 257)), []string{"must be <= 256 characters long"}},
		{true, ptr("a\tb"), []string{"must only contain printable UTF-8 characters; non-printable character found at index 1"}},
		{true, ptr("ab\u200b"), []string{"must only contain printable UTF-8 characters; non-printable character found at index 2"}},
		// an invalid byte decodes as U+FFFD, which is printable
		{true, ptr("ab\xff"), []string{"must only contain printable UTF-8 characters"}},
		{true, ptr("\x7f" + strings.Repeat("x", 300)), []string{"must be <= 256 characters long", "must only contain printable UTF-8 characters; non-printable character found at index 0"}},
	}
	for _, tt := range tests {
		got := deprecationWarningProblems(tt.deprecated, tt.warning)
		if !reflect.DeepEqual(got, tt.want) {
			w := "<nil>"
			if tt.warning != nil {
				w = *tt.warning
			}
			t.Errorf("deprecated=%v warning=%q: got %q, want %q", tt.deprecated, w, got, tt.want)
		}
	}
}

func TestWebhookURL(t *testing.T) {
	const form = "; desired format: https://host[/path]"
	tests := []struct {
		url  string
		want []string
	}{
		{"https://example.com/convert", nil},
		{"https://example.com:8443", nil},
		{"http://example.com", []string{"FieldValueInvalid u: 'https' is the only allowed URL scheme" + form}},
		{"https://", []string{"FieldValueInvalid u: host must be specified" + form}},
		{"foo/bar", []string{"FieldValueInvalid u: 'https' is the only allowed URL scheme" + form, "FieldValueInvalid u: host must be specified" + form}},
		{"https://user:pw@example.com/x?a=b#f", []string{"FieldValueInvalid u: fragments are not permitted in the URL", "FieldValueInvalid u: query parameters are not permitted in the URL", "FieldValueInvalid u: user information is not permitted in the URL"}},
		{"https://[::1", []string{`FieldValueRequired u: url must be a valid URL: parse "https://[::1": missing ']' in host` + form}},
	}
	for _, tt := range tests {
		if got := validateWebhookURL(crdschema.NewPath("u"), tt.url); !sameErrors(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.url, errorKeys(got), tt.want)
		}
	}
}

func TestWebhookService(t *testing.T) {
	const subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	tests := []struct {
		name, namespace string
		path            *string
		port            int32
		want            []string
	}{
		{"s", "n", nil, 443, nil},
		{"s", "n", ptr("/"), 1, nil},
		{"s", "n", ptr(""), 65535, nil},
		{"s", "n", ptr("/a/b.c/"), 443, nil},
		{"", "", nil, 0, []string{"FieldValueRequired s.name: ", "FieldValueRequired s.namespace: ", "FieldValueInvalid s.port: port is not valid: must be between 1 and 65535, inclusive"}},
		{"s", "n", ptr("//"), 443, []string{"FieldValueInvalid s.path: segment[0] may not be empty"}},
		{"s", "n", ptr("/a/B"), 443, []string{"FieldValueInvalid s.path: segment[1]: " + subdomain}},
		// without the leading slash, the first character is dropped all the same
		{"s", "n", ptr("a//b"), 443, []string{"FieldValueInvalid s.path: must start with a '/'", "FieldValueInvalid s.path: segment[0] may not be empty", "FieldValueInvalid s.path: segment[1] may not be empty"}},
		{"s", "n", ptr("/a//b"), 70000 - 65536, []string{"FieldValueInvalid s.path: segment[1] may not be empty"}},
	}
	for _, tt := range tests {
		got := validateWebhookService(crdschema.NewPath("s"), tt.namespace, tt.name, tt.path, tt.port)
		if !sameErrors(got, tt.want) {
			t.Errorf("%+v: got %q, want %q", tt, errorKeys(got), tt.want)
		}
	}
}

func testCertificate(t *testing.T) []byte {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "test-ca"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func TestCABundle(t *testing.T) {
	tests := []struct {
		name string
		ca   []byte
		want string // detail, "" for valid
	}{
		{"certificate", testCertificate(t), ""},
		{"not PEM", []byte("hello"), "unable to load root certificates: unable to parse bytes as PEM block"},
		{"no certificate", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1}}), "unable to load root certificates: no valid certificate authority data seen"},
		{"bad certificate", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: []byte{1, 2}}), "unable to load root certificates: failed to parse certificate: x509: malformed certificate"},
	}
	for _, tt := range tests {
		errs := validateCABundle(crdschema.NewPath("caBundle"), tt.ca)
		switch {
		case tt.want == "" && errs != nil:
			t.Errorf("%s: unexpected %v", tt.name, errs)
		case tt.want != "" && (len(errs) != 1 || errs[0].Detail != tt.want || errs[0].Type != crdschema.ErrorTypeInvalid):
			t.Errorf("%s: got %v, want detail %q", tt.name, errs, tt.want)
		}
	}
}

func TestSemanticEqual(t *testing.T) {
	tests := []struct {
		a, b any
		want bool
	}{
		{[]string(nil), []string{}, true},
		{map[string]int(nil), map[string]int{}, true},
		{[]string{"a"}, []string{"a"}, true},
		{[]string{"a"}, []string{"b"}, false},
		{int64(1), float64(1), false},
		{&crdschema.JSONSchemaProps{Type: "object", Required: []string{}}, &crdschema.JSONSchemaProps{Type: "object"}, true},
		{&crdschema.JSONSchemaProps{Default: &crdschema.JSON{Value: int64(1)}}, &crdschema.JSONSchemaProps{Default: &crdschema.JSON{Value: float64(1)}}, false},
		{&crdschema.JSONSchemaProps{Default: &crdschema.JSON{Value: map[string]any{}}}, &crdschema.JSONSchemaProps{Default: &crdschema.JSON{Value: map[string]any(nil)}}, true},
		{(*crdschema.CustomResourceSubresources)(nil), &crdschema.CustomResourceSubresources{}, false},
		{nil, nil, true},
		{nil, 1, false},
	}
	for i, tt := range tests {
		if got := semanticEqual(tt.a, tt.b); got != tt.want {
			t.Errorf("%d: semanticEqual(%#v, %#v) = %v", i, tt.a, tt.b, got)
		}
	}
}

// TestRootKeywordsCoverFields: the internal type's field names are those
// of JSONSchemaProps, in another order.
func TestRootKeywordsCoverFields(t *testing.T) {
	typ := reflect.TypeFor[crdschema.JSONSchemaProps]()
	if len(rootKeywords) != typ.NumField() {
		t.Errorf("%d root keywords, JSONSchemaProps has %d fields", len(rootKeywords), typ.NumField())
	}
	internal := reflect.TypeFor[apiextensions.JSONSchemaProps]()
	seen := map[int]bool{}
	for j, i := range rootKeywords {
		if name := internal.Field(j).Name; typ.Field(i).Name != name || seen[i] {
			t.Errorf("root keyword %d: field %d of JSONSchemaProps (%s), want %s once", j, i, typ.Field(i).Name, name)
		}
		seen[i] = true
	}
}

func TestDefaulted(t *testing.T) {
	def := &crdschema.CustomResourceDefinition{Spec: crdschema.CustomResourceDefinitionSpec{
		Names: crdschema.CustomResourceDefinitionNames{Plural: "foos", Kind: "FooBar"},
		Versions: []crdschema.CustomResourceDefinitionVersion{
			{Name: "v1"}, {Name: "v2", Storage: true}, {Name: "v3", Storage: true},
		},
		Conversion: &crdschema.CustomResourceConversion{Strategy: crdschema.WebhookConverter, Webhook: &crdschema.WebhookConversion{
			ClientConfig: &crdschema.WebhookClientConfig{Service: &crdschema.ServiceReference{Name: "s", Namespace: "n"}},
		}},
	}}
	d := Defaulted(def)
	if d.Spec.Names.Singular != "foobar" || d.Spec.Names.ListKind != "FooBarList" {
		t.Errorf("names: %+v", d.Spec.Names)
	}
	if p := d.Spec.Conversion.Webhook.ClientConfig.Service.Port; p == nil || *p != 443 {
		t.Errorf("port: %v", p)
	}
	if !reflect.DeepEqual(d.Status.StoredVersions, []string{"v2"}) {
		t.Errorf("storedVersions: %v", d.Status.StoredVersions)
	}
	if def.Spec.Names.Singular != "" || def.Spec.Conversion.Webhook.ClientConfig.Service.Port != nil || def.Status.StoredVersions != nil {
		t.Error("input modified")
	}
	d = Defaulted(&crdschema.CustomResourceDefinition{})
	if d.Spec.Conversion == nil || d.Spec.Conversion.Strategy != crdschema.NoneConverter || d.Spec.Names.ListKind != "" {
		t.Errorf("empty CRD: %+v", d.Spec)
	}
}

func schemaVersion(name string, s *crdschema.JSONSchemaProps) crdschema.CustomResourceDefinitionVersion {
	return crdschema.CustomResourceDefinitionVersion{Name: name, Served: true, Storage: name == "v1", Schema: &crdschema.CustomResourceValidation{OpenAPIV3Schema: s}}
}

func TestVersionSchema(t *testing.T) {
	obj := func() *crdschema.JSONSchemaProps {
		return &crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{
			"spec": {Type: "object", Default: &crdschema.JSON{}},
		}}
	}
	same := &crdschema.CustomResourceDefinition{Spec: crdschema.CustomResourceDefinitionSpec{
		Versions: []crdschema.CustomResourceDefinitionVersion{schemaVersion("v1", obj()), schemaVersion("v2", obj())},
	}}
	s, p := VersionSchema(same, "v2")
	if p.String() != "spec.validation.openAPIV3Schema" {
		t.Errorf("identical schemas: path %s", p)
	}
	if s.Properties["spec"].Default != nil {
		t.Error("explicit null default not dropped")
	}
	if same.Spec.Versions[1].Schema.OpenAPIV3Schema.Properties["spec"].Default == nil {
		t.Error("input modified")
	}

	other := obj()
	other.Description = "different"
	diff := &crdschema.CustomResourceDefinition{Spec: crdschema.CustomResourceDefinitionSpec{
		Versions: []crdschema.CustomResourceDefinitionVersion{schemaVersion("v1", obj()), schemaVersion("v2", other)},
	}}
	s, p = VersionSchema(diff, "v2")
	if p.String() != "spec.versions[1].schema.openAPIV3Schema" || s.Description != "different" {
		t.Errorf("different schemas: path %s, description %q", p, s.Description)
	}
	if s, p := VersionSchema(diff, "v3"); s != nil || p != nil {
		t.Error("unknown version found")
	}
}

func hookCRD(spec crdschema.JSONSchemaProps) *crdschema.CustomResourceDefinition {
	return &crdschema.CustomResourceDefinition{
		ObjectMeta: crdschema.ObjectMeta{Name: "foos.example.com"},
		Spec: crdschema.CustomResourceDefinitionSpec{
			Group: "example.com", Scope: crdschema.NamespaceScoped,
			Names: crdschema.CustomResourceDefinitionNames{Plural: "foos", Kind: "Foo"},
			Versions: []crdschema.CustomResourceDefinitionVersion{schemaVersion("v1", &crdschema.JSONSchemaProps{
				Type: "object", Properties: map[string]crdschema.JSONSchemaProps{"spec": spec},
			})},
		},
	}
}

// TestRuleOrchestration checks where default validation and CEL rules
// come in: only for schemas that pass the structural checks, defaults
// before rules, no rule compiled on a node with another error below it.
func TestRuleOrchestration(t *testing.T) {
	ctx := context.Background()
	bad := []crdschema.ValidationRule{{Rule: "self.nope == 1"}}

	// A rule that does not compile is reported.
	errs := Validate(ctx, hookCRD(crdschema.JSONSchemaProps{Type: "object", XValidations: bad}))
	if len(errs) != 1 || errs[0].Field != "spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule" {
		t.Errorf("compile error: got %q", errorKeys(errs))
	}

	// An invalid default stops the rules.
	errs = Validate(ctx, hookCRD(crdschema.JSONSchemaProps{Type: "object", XValidations: bad,
		Properties: map[string]crdschema.JSONSchemaProps{"n": {Type: "integer", Default: &crdschema.JSON{Value: "x"}}}}))
	want := []string{`FieldValueTypeInvalid spec.validation.openAPIV3Schema.properties[spec].properties[n].default:  in body must be of type integer: "string"`}
	if !sameErrors(errs, want) {
		t.Errorf("default errors: got %q, want %q", errorKeys(errs), want)
	}

	// A non-structural schema stops defaults and rules.
	errs = Validate(ctx, hookCRD(crdschema.JSONSchemaProps{XValidations: bad}))
	want = []string{"FieldValueRequired spec.validation.openAPIV3Schema.properties[spec].type: must not be empty for specified object fields"}
	if !sameErrors(errs, want) {
		t.Errorf("non-structural: got %q, want %q", errorKeys(errs), want)
	}

	// A rule defect below a node stops the node's rules, not its siblings'.
	errs = Validate(ctx, hookCRD(crdschema.JSONSchemaProps{Type: "object", XValidations: bad,
		Properties: map[string]crdschema.JSONSchemaProps{
			"a": {Type: "string", XValidations: []crdschema.ValidationRule{{Rule: "self.size() > 0", Message: " "}}},
			"b": {Type: "string", XValidations: bad},
		}}))
	want = []string{
		`FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].properties[a].x-kubernetes-validations[0].message: must be non-empty if specified`,
		`FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].properties[b].x-kubernetes-validations[0].rule: compilation failed: ERROR: <input>:1:5: type 'string' does not support field selection
 | self.nope == 1
 | ....^`,
	}
	if !sameErrors(errs, want) {
		t.Errorf("rule defects: got %q, want %q", errorKeys(errs), want)
	}
}

// TestUpdateUsesStoredStatus: an old CRD that carries a status is taken as
// it is: its stored versions and its Established condition count.
func TestUpdateUsesStoredStatus(t *testing.T) {
	old := hookCRD(crdschema.JSONSchemaProps{Type: "object"})
	old.Status.StoredVersions = []string{"v1alpha1", "v1"}
	old.Status.Conditions = []crdschema.CustomResourceDefinitionCondition{{Type: crdschema.Established, Status: crdschema.ConditionFalse}}
	def := hookCRD(crdschema.JSONSchemaProps{Type: "object"})
	def.Spec.Scope = crdschema.ClusterScoped
	errs := ValidateUpdate(context.Background(), def, old)
	want := []string{"FieldValueInvalid status.storedVersions[0]: missing from spec.versions; v1alpha1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1alpha1 and removes v1alpha1 from status.storedVersions"}
	if !sameErrors(errs, want) {
		t.Errorf("got %q, want %q", errorKeys(errs), want)
	}
	old.Status.Conditions = nil // established by default
	errs = ValidateUpdate(context.Background(), def, old)
	want = append(want, "FieldValueInvalid spec.scope: field is immutable")
	if !sameErrors(errs, want) {
		t.Errorf("got %q, want %q", errorKeys(errs), want)
	}
}

// TestRatchetedOptions checks the options an update derives from the stored
// CRD.
func TestRatchetedOptions(t *testing.T) {
	bad := hookCRD(crdschema.JSONSchemaProps{Type: "object", Properties: map[string]crdschema.JSONSchemaProps{
		"x": {Type: "foo"},
		"y": {},
		"l": {Type: "array", XListType: ptr("set"), Items: &crdschema.JSONSchemaPropsOrArray{Schema: &crdschema.JSONSchemaProps{Type: "object", Nullable: true}}},
	}})
	good := hookCRD(crdschema.JSONSchemaProps{Type: "object"})
	in := toInternal(prepareUpdate(bad, prepareStored(bad)), nil)
	o := updateOptions(in, toInternal(prepareStored(bad), nil))
	if o.requireValidPropertyType || o.requireAtomicSetType || o.requireMapListKeysMapSetValidation || o.requireStructuralSchema {
		t.Errorf("bad old: %+v", o)
	}
	if !o.unchangedSchemas["v1"] || !o.requireImmutableNames || !o.requireOpenAPISchema {
		t.Errorf("bad old: %+v", o)
	}
	unpruned := hookCRD(crdschema.JSONSchemaProps{Type: "object", Default: &crdschema.JSON{Value: map[string]any{"a": int64(1), "b": int64(2)}},
		Properties: map[string]crdschema.JSONSchemaProps{"a": {Type: "integer"}}})
	o = updateOptions(in, toInternal(prepareStored(unpruned), nil))
	if o.requirePrunedDefaults {
		t.Errorf("unpruned default in old: %+v", o)
	}
	o = updateOptions(in, toInternal(prepareStored(good), nil))
	if !o.requirePrunedDefaults {
		t.Errorf("no default in old: %+v", o)
	}
	if !o.requireValidPropertyType || !o.requireAtomicSetType || !o.requireMapListKeysMapSetValidation || !o.requireStructuralSchema || o.unchangedSchemas["v1"] {
		t.Errorf("good old: %+v", o)
	}
}

// TestEqualSchema checks the written-out schema comparison against the
// reflection-based one, and that it knows every field.
func TestEqualSchema(t *testing.T) {
	if n := reflect.TypeOf(crdschema.JSONSchemaProps{}).NumField(); n != schemaFieldCount {
		t.Fatalf("JSONSchemaProps has %d fields, equalSchema compares %d", n, schemaFieldCount)
	}
	var schemas []*crdschema.JSONSchemaProps
	for _, c := range readConformanceCases(t) {
		def := mustCRD(t, c.CRD)
		for _, v := range def.Spec.Versions {
			if v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
				schemas = append(schemas, v.Schema.OpenAPIV3Schema)
				schemaHas(v.Schema.OpenAPIV3Schema, func(s crdschema.JSONSchemaProps) bool {
					schemas = append(schemas, &s)
					return false
				})
			}
		}
	}
	schemas = append(schemas, nil, &crdschema.JSONSchemaProps{Required: []string{}}, &crdschema.JSONSchemaProps{Enum: []crdschema.JSON{{Value: []any{}}}}, &crdschema.JSONSchemaProps{Enum: []crdschema.JSON{{}}})
	if len(schemas) > 400 {
		schemas = schemas[:400]
	}
	for _, a := range schemas {
		for _, b := range schemas {
			if got, want := equalSchema(a, b), semanticEqual(a, b); got != want {
				t.Fatalf("equalSchema = %v, semanticEqual = %v for\n%+v\n%+v", got, want, a, b)
			}
		}
	}
}

// TestWithoutNulls: explicit null defaults and examples are dropped
// everywhere in a copy, and the input keeps them.
func TestWithoutNulls(t *testing.T) {
	null := func() *crdschema.JSONSchemaProps {
		return &crdschema.JSONSchemaProps{Type: "string", Default: &crdschema.JSON{}, Example: &crdschema.JSON{}}
	}
	s := &crdschema.JSONSchemaProps{
		Type:                 "object",
		Default:              &crdschema.JSON{},
		Items:                &crdschema.JSONSchemaPropsOrArray{Schema: null(), JSONSchemas: []crdschema.JSONSchemaProps{*null()}},
		AllOf:                []crdschema.JSONSchemaProps{*null()},
		AnyOf:                []crdschema.JSONSchemaProps{*null()},
		OneOf:                []crdschema.JSONSchemaProps{*null()},
		Not:                  null(),
		Properties:           map[string]crdschema.JSONSchemaProps{"p": *null()},
		AdditionalProperties: &crdschema.JSONSchemaPropsOrBool{Allows: true, Schema: null()},
		PatternProperties:    map[string]crdschema.JSONSchemaProps{"^p": *null()},
		AdditionalItems:      &crdschema.JSONSchemaPropsOrBool{Schema: null()},
		Definitions:          map[string]crdschema.JSONSchemaProps{"d": *null()},
		Dependencies:         map[string]crdschema.JSONSchemaPropsOrStringArray{"x": {Schema: null()}, "y": {Property: []string{"a"}}},
	}
	hasNull := func(s crdschema.JSONSchemaProps) bool {
		return isNull(s.Default) || isNull(s.Example)
	}
	count := 0
	schemaHas(s, func(n crdschema.JSONSchemaProps) bool {
		if hasNull(n) {
			count++
		}
		return false
	})
	if count != 13 {
		t.Fatalf("test schema has %d nodes with nulls, want 13", count)
	}
	v := &crdschema.CustomResourceValidation{OpenAPIV3Schema: s}
	c, defaults := withoutNulls(v)
	if c == v || schemaHas(c.OpenAPIV3Schema, hasNull) {
		t.Error("nulls not dropped")
	}
	if want := schemaHas(c.OpenAPIV3Schema, hasDefault); defaults != want {
		t.Errorf("withoutNulls reports defaults %v, want %v", defaults, want)
	}
	if !schemaHas(s, hasNull) || s.Items.Schema.Default == nil {
		t.Error("input modified")
	}
	if got := c.OpenAPIV3Schema.Dependencies["y"].Property; !reflect.DeepEqual(got, []string{"a"}) {
		t.Errorf("dependency properties: %v", got)
	}
	clean := &crdschema.CustomResourceValidation{OpenAPIV3Schema: &crdschema.JSONSchemaProps{Type: "object", Default: &crdschema.JSON{Value: map[string]any{}}}}
	if c, defaults := withoutNulls(clean); c != clean || !defaults {
		t.Errorf("schema without nulls: copied %v, defaults %v; want the same, true", c != clean, defaults)
	}
	onlyNull := &crdschema.CustomResourceValidation{OpenAPIV3Schema: &crdschema.JSONSchemaProps{Type: "object", Default: &crdschema.JSON{}}}
	if c, defaults := withoutNulls(onlyNull); c == onlyNull || defaults {
		t.Errorf("schema with a null default only: copied %v, defaults %v; want a copy, false", c != onlyNull, defaults)
	}
}

// TestDefaultRules checks that the rules of a node are evaluated on its
// default, with the default as old value too, and reported at the default.
func TestDefaultRules(t *testing.T) {
	props := map[string]crdschema.JSONSchemaProps{
		"a": {Type: "integer", Default: &crdschema.JSON{Value: int64(1)}, XValidations: []crdschema.ValidationRule{{Rule: "self > 5"}}},
		"b": {Type: "integer", Default: &crdschema.JSON{Value: int64(9)}, XValidations: []crdschema.ValidationRule{{Rule: "self > 5"}}},
		"c": {Type: "integer", Default: &crdschema.JSON{Value: int64(1)}, XValidations: []crdschema.ValidationRule{{Rule: "self == oldSelf + 1"}}},
	}
	errs := Validate(context.Background(), hookCRD(crdschema.JSONSchemaProps{Type: "object", Properties: props}))
	want := []string{
		"FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].properties[a].default: failed rule: self > 5",
		"FieldValueInvalid spec.validation.openAPIV3Schema.properties[spec].properties[c].default: failed rule: self == oldSelf + 1",
	}
	if !sameErrors(errs, want) {
		t.Errorf("got %q, want %q", errorKeys(errs), want)
	}
}
