package validation

import (
	"strings"
	"testing"
)

// Accept and reject examples, mostly from kube-openapi's strfmt tests and
// from the conformance goldens (upstream's verdicts).
func TestFormats(t *testing.T) {
	long64 := strings.Repeat("a", 64)
	tests := map[string]struct{ good, bad []string }{
		"bsonobjectid": {[]string{"507f1f77bcf86cd799439011"}, []string{"507f1f77bcf86cd79943901", "507f1f77bcf86cd79943901z", ""}},
		"uri":          {[]string{"http://somewhere.com", "/abs", "http://example.com/a?b=c"}, []string{"somewhere.com", "relative/path", ""}},
		"email": {[]string{"blah@gmail.com", `" "@example.com`, `"Fred Bloggs"@example.com`, "root@localhost", "Name <a@b.c>",
			"postmaster@☁→❄→☃→☀→☺→☂→☹→✝.ws", "!#$%&'*+-/=?^_`{}|~@example.com"}, []string{"somebody@somewhere@com", "nope", ""}},
		"hostname": {[]string{"somewhere.com", "888.com", "xn--bcher-kva.example.com", "☁→❄→☃→☀→☺→☂→☹→✝.ws", "ôlà.ôlà", "ex$ample",
			"localhost", "x", "<foo>", "www.詹姆斯.london", "a"},
			[]string{"somewhere.com!", "user@email.domain", "1.1.1.1", strings.Repeat("a", 256), "x.y." + long64, "www.example-.org",
				"-www", "www.ex ample.org", "_www.example.org", "www.詹姆斯.x", "a.b.c.d", "x.", "-bad-.com"}},
		"ipv4":   {[]string{"127.0.0.1", "192.168.1.01", "010.1.2.3", "::ffff:1.2.3.4"}, []string{"198.168.254.2.2", "1.2.3", "256.1.1.1", "::1"}},
		"ipv6":   {[]string{"::1", "2001:db8::68", "::ffff:1.2.3.4"}, []string{"1.2.3.4", "fe80::1%eth0", "::g"}},
		"cidr":   {[]string{"192.0.2.1/24", "192.0.02.1/24", "2001:db8:a0b:12f0::1/32", "::ffff:01.2.3.4/100"}, []string{"198.168.254.2", "2001:db8:a0b:12f0::1", "10.0.0.0/33", "10.0.0.0/"}},
		"mac":    {[]string{"01:23:45:67:89:ab", "0123.4567.89ab", "01-23-45-67-89-AB"}, []string{"01:23:45", "x"}},
		"uuid":   {[]string{"A987FBC9-4BED-3078-CF07-9141BA07C9F3", "a987fbc94bed3078cf079141ba07c9f3"}, []string{"x", "A987FBC94BED3078CF079141BA07C9F3X"}},
		"uuid3":  {[]string{"a987fbc94bed3078cf079141ba07c9f3"}, []string{"57b73598-8764-4ad0-a76a-679bb6640eb1"}},
		"uuid4":  {[]string{"57b73598-8764-4ad0-a76a-679bb6640eb1"}, []string{"a987fbc94bed3078cf079141ba07c9f3"}},
		"uuid5":  {[]string{"987fbc97-4bed-5078-af07-9141ba07c9f3"}, []string{"57b73598-8764-4ad0-a76a-679bb6640eb1"}},
		"isbn":   {[]string{"978-0321751041", "0321751043"}, []string{"123"}},
		"isbn10": {[]string{"0321751043", "0-321-75104-3", "080442957X"}, []string{"0321751044"}},
		"isbn13": {[]string{"9780321751041", "978-0321751041"}, []string{"9780321751042"}},
		"creditcard": {[]string{"4111 1111 1111 1111", "378282246310005", "4111-1111-1111-1111"},
			[]string{"4111 1111 1111 1112", "1234"}},
		"ssn":          {[]string{"111-11-1111", "111 11 1111"}, []string{"111111111", "111-11-11111"}},
		"hexcolor":     {[]string{"#fff", "#FFFFFF", "abc"}, []string{"#ffff", "#ggg"}},
		"rgbcolor":     {[]string{"rgb(255,255,255)", "rgb( 0 , 10 , 255 )"}, []string{"rgb(256,0,0)", "rgb(1,2)"}},
		"byte":         {[]string{"aGVsbG8=", "YWJj"}, []string{"abc", "", "a=b="}},
		"password":     {[]string{"", "anything"}, nil},
		"date":         {[]string{"2020-02-29", "2019-12-31"}, []string{"2020-02-30", "2020-1-1", ""}},
		"datetime":     {[]string{"2020-01-01T10:00:00.123+01:00", "2020-01-01t23:59:59z", "2020-01-01T00:00:00Z"}, []string{"2020-01-01", "2020-01-01T24:00:00Z", "2020-01-01T10:00:00", "2020-01-01T10:60:00Z"}},
		"duration":     {[]string{"1h30m", "3 days", "1 hour 5 min", "5ns", "2 weeks", "10 hours"}, []string{"forever", "", "1x"}},
		"k8sshortname": {[]string{"abc-1", "x"}, []string{"Abc", "-x", long64}},
		"k8slongname":  {[]string{"a.b-c.d", "example.com"}, []string{"a..b", "A.b", strings.Repeat("a.", 127)}},
	}
	formats := formatsAt(36)
	if len(formats) != len(tests) {
		t.Errorf("%d formats, %d tested", len(formats), len(tests))
	}
	for name, tt := range tests {
		f := formats[name]
		if f == nil {
			t.Errorf("format %s missing", name)
			continue
		}
		for _, s := range tt.good {
			if !f(s) {
				t.Errorf("%s: %q rejected", name, s)
			}
		}
		for _, s := range tt.bad {
			if f(s) {
				t.Errorf("%s: %q accepted", name, s)
			}
		}
	}
	if old := formatsAt(33); old["k8sshortname"] != nil || old["k8slongname"] != nil || old["email"] == nil {
		t.Error("k8s-short-name and k8s-long-name must be new in 1.34")
	}
}

func TestFormatSupported(t *testing.T) {
	tests := []struct {
		typ, format string
		minor       int
		want        bool
	}{
		{"string", "date-time", 36, true},
		{"", "datetime", 36, true},
		{"string", "k8s-short-name", 36, true},
		{"string", "k8s-short-name", 33, false},
		{"string", "int32", 36, false},
		{"string", "Email", 36, false},
		{"integer", "int32", 36, true},
		{"integer", "uint32", 36, false},
		{"number", "double", 36, true},
		{"number", "int64", 36, false},
		{"boolean", "byte", 36, false},
		{"object", "", 36, false},
	}
	for _, tt := range tests {
		if got := formatSupported(tt.typ, tt.format, tt.minor); got != tt.want {
			t.Errorf("formatSupported(%q, %q, %d) = %v", tt.typ, tt.format, tt.minor, got)
		}
	}
}

// formatSupported reports whether the API server at compatibility version
// 1.minor validates format on a schema of the given type ("" for a schema
// without a type or with x-kubernetes-int-or-string): integer allows int32
// and int64, number float and double, string (and no type) the string
// formats of this package, looked up with "-" removed. Formats that are
// not supported are ignored by validation; the API server warns about them
// ("unrecognized format") when a CRD is written.
func formatSupported(schemaType, format string, minor int) bool {
	switch schemaType {
	case "", "string":
		return formatsAt(minor)[strings.ReplaceAll(format, "-", "")] != nil
	case "integer":
		return format == "int32" || format == "int64"
	case "number":
		return format == "float" || format == "double"
	}
	return false
}
