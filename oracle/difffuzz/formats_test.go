package difffuzz

import (
	"encoding/json"
	"fmt"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/util/version"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/structural"
	"github.com/crdschema/crdschema/validation"
)

// formatNames are the string formats the API server knows at some release,
// spelled as CRDs spell them, and some it does not know (cleared from the
// schema, so never checked).
var formatNames = []string{
	"bsonobjectid", "uri", "email", "hostname", "ipv4", "ipv6", "cidr", "mac",
	"uuid", "uuid3", "uuid4", "uuid5", "isbn", "isbn10", "isbn13", "creditcard",
	"ssn", "hexcolor", "rgbcolor", "byte", "password", "date", "duration",
	"date-time", "datetime", "k8s-short-name", "k8s-long-name",
	"int32", "url", "ip", "",
}

// FuzzFormats compares validation's string formats with the API server's
// schema validator (kube-openapi's strfmt registry, with the formats a
// release does not support cleared, as apiextensions-apiserver does) on
// arbitrary strings, at 1.33 (without the k8s-* names) and 1.37: the same
// errors, in the same words. The lenient IP parser (validation/ipsloppy.go,
// k8s.io/utils/net's ParseIPSloppy as Go's parser after dropping leading
// zeros) is reached through ipv4, ipv6 and cidr.
func FuzzFormats(f *testing.F) {
	for _, s := range []string{
		"", "1.2.3.4", "01.002.3.4", "1.2.3.4/24", "::1", "::ffff:1.2.3.4", "fe80::1%eth0", "1.2.3.4/033",
		"0x1.2.3.4", "2001:db8::/32", "::/0", "1:2:3:4:5:6:7:8", "1::2::3", "aa:bb:cc:dd:ee:ff", "0123.0.0.1",
		"a@b.c", "Name <a@b.c>", "example.com", "ex_ample.com", "http://a/b?c", "/a/b", "%zz",
		"507f1f77bcf86cd799439011", "550e8400-e29b-41d4-a716-446655440000", "978-0-306-40615-7", "0306406152",
		"4111111111111111", "123-45-6789", "#fff", "rgb(1, 2, 255)", "aGVsbG8=", "2026-11-27",
		"2026-11-27T12:00:00Z", "2026-11-27T12:00:00.5+01:00", "1h2m3s", "3 days", "a-b", "a.b-c", "A",
	} {
		f.Add(s)
	}
	type side struct {
		minor    uint
		ours     map[string]*validation.Validator
		upstream map[string]apiservervalidation.SchemaValidator
	}
	var sides []side
	for _, minor := range []uint{33, 37} {
		kv, err := crdschema.ParseKubernetesVersion(fmt.Sprintf("1.%d", minor))
		if err != nil {
			f.Fatal(err)
		}
		s := side{minor, map[string]*validation.Validator{}, map[string]apiservervalidation.SchemaValidator{}}
		for _, name := range formatNames {
			ss, err := structural.New(&crdschema.JSONSchemaProps{Type: "string", Format: name})
			if err != nil {
				f.Fatalf("format %q: %v", name, err)
			}
			if s.ours[name], err = validation.New(ss, validation.WithKubernetesVersion(kv)); err != nil {
				f.Fatalf("format %q: %v", name, err)
			}
			if s.upstream[name], _, err = apiservervalidation.NewSchemaValidatorForVersion(
				&apiextensions.JSONSchemaProps{Type: "string", Format: name}, version.MajorMinor(1, minor)); err != nil {
				f.Fatalf("format %q: %v", name, err)
			}
		}
		sides = append(sides, s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		for _, s := range sides {
			for _, name := range formatNames {
				got := errorTexts(s.ours[name].Validate(crdschema.NewPath("x"), value))
				want := errorTexts(apiservervalidation.ValidateCustomResource(field.NewPath("x"), value, s.upstream[name]))
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("1.%d, format %q, value %q:\n got %q\nwant %q", s.minor, name, value, got, want)
				}
			}
		}
	})
}

// TestJSONNumbers compares how validation and the API server's validator
// treat json.Number values (those of a decoder with UseNumber) under
// integer, number, string and untyped schemas: converted, refused with a
// conversion error, or kept as a string.
func TestJSONNumbers(t *testing.T) {
	schemas := []string{"integer", "number", "string", ""}
	numbers := []json.Number{"1", "-7", "1.5", "1e3", "9223372036854775807", "9223372036854775808", "1e400", "x", ""}
	for _, typ := range schemas {
		for _, max := range []*float64{nil, ptr(2.0)} {
			props := crdschema.JSONSchemaProps{Type: typ, Maximum: max}
			uprops := apiextensions.JSONSchemaProps{Type: typ, Maximum: max}
			if typ == "string" && max != nil {
				// string keywords instead (not a format: upstream's format validator panics on a json.Number)
				props = crdschema.JSONSchemaProps{Type: typ, Pattern: "^a", MaxLength: ptr(int64(1))}
				uprops = apiextensions.JSONSchemaProps{Type: typ, Pattern: "^a", MaxLength: ptr(int64(1))}
			}
			ss, err := structural.New(&props)
			if err != nil {
				t.Fatalf("type %q: %v", typ, err)
			}
			ours, err := validation.New(ss)
			if err != nil {
				t.Fatalf("type %q: %v", typ, err)
			}
			upstream, _, err := apiservervalidation.NewSchemaValidator(&uprops)
			if err != nil {
				t.Fatalf("type %q: %v", typ, err)
			}
			for _, num := range numbers {
				got := errorTexts(ours.Validate(crdschema.NewPath("x"), num))
				want := errorTexts(apiservervalidation.ValidateCustomResource(field.NewPath("x"), num, upstream))
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("type %q, maximum %v, json.Number %q:\n got %q\nwant %q", typ, max != nil, num, got, want)
				}
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }
