package k8snames

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

const (
	msgSubdomain  = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	msgLabel1123  = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
	msgLabel1035  = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
	msgNamePart   = "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	msgLabelValue = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
)

func TestNameChecks(t *testing.T) {
	tests := []struct {
		name string
		fn   func(string) []string
		in   string
		want []string
	}{
		{"label ok", IsDNS1123Label, "my-name", nil},
		{"label digits", IsDNS1123Label, "123-abc", nil},
		{"label dots", IsDNS1123Label, "a.b", []string{"must not contain dots"}},
		{"label upper", IsDNS1123Label, "A", []string{msgLabel1123}},
		{"label empty", IsDNS1123Label, "", []string{msgLabel1123}},
		{"label long", IsDNS1123Label, strings.Repeat("a", 64), []string{"must be no more than 63 characters"}},
		{"label long dotted", IsDNS1123Label, strings.Repeat("a.", 32) + "a", []string{"must be no more than 63 characters", "must not contain dots"}},
		{"subdomain ok", IsDNS1123Subdomain, "example.com", nil},
		{"subdomain max", IsDNS1123Subdomain, strings.Repeat("a", 253), nil},
		{"subdomain long", IsDNS1123Subdomain, strings.Repeat("a", 254), []string{"must be no more than 253 characters"}},
		{"subdomain bad", IsDNS1123Subdomain, "Not_Valid", []string{msgSubdomain}},
		{"subdomain trailing dot", IsDNS1123Subdomain, "a.", []string{msgSubdomain}},
		{"1035 ok", IsDNS1035Label, "abc-123", nil},
		{"1035 digit first", IsDNS1035Label, "1abc", []string{msgLabel1035}},
		{"1035 long", IsDNS1035Label, "a" + strings.Repeat("b", 63), []string{"must be no more than 63 characters"}},
		{"qualified ok", IsQualifiedName, "example.com/Uppercase_Is_OK_123", nil},
		{"qualified max", IsQualifiedName, strings.Repeat("a", 253) + "/" + strings.Repeat("b", 63), nil},
		{"qualified empty prefix", IsQualifiedName, "/bad", []string{"prefix part must be non-empty"}},
		{"qualified bad name", IsQualifiedName, "bad key!", []string{msgNamePart}},
		{"qualified empty name", IsQualifiedName, "example.com/", []string{"name part must be non-empty", msgNamePart}},
		{"qualified long name", IsQualifiedName, strings.Repeat("a", 64), []string{"name part must be no more than 63 bytes"}},
		{"qualified bad prefix", IsQualifiedName, "Example.com/abc", []string{"prefix part " + msgSubdomain}},
		{"qualified long prefix", IsQualifiedName, strings.Repeat("a", 254) + "/abc", []string{"prefix part must be no more than 253 bytes"}},
		{"qualified two slashes", IsQualifiedName, "only/one/slash", []string{"a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}},
		{"label value empty", IsValidLabelValue, "", nil},
		{"label value ok", IsValidLabelValue, "my_value", nil},
		{"label value bad", IsValidLabelValue, "bad value!", []string{msgLabelValue}},
		{"label value long", IsValidLabelValue, strings.Repeat("a", 64), []string{"must be no more than 63 bytes"}},
		{"segment ok", IsPathSegmentName, "Not_Valid", nil},
		{"segment dot", IsPathSegmentName, ".", []string{"may not be '.'"}},
		{"segment dotdot", IsPathSegmentName, "..", []string{"may not be '..'"}},
		{"segment slash percent", IsPathSegmentName, "a/%b", []string{"may not contain '/'", "may not contain '%'"}},
		{"segment prefix dot", IsPathSegmentPrefix, ".", nil},
		{"segment prefix slash", IsPathSegmentPrefix, "a/b", []string{"may not contain '/'"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.fn(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("%q:\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzNames checks the name checks on arbitrary input: no panics, and the
// relations between them hold (a label is a subdomain, a 1035 label is a
// 1123 label, a subdomain is a qualified-name prefix).
func FuzzNames(f *testing.F) {
	for _, s := range []string{"", "a", "a.b", "A/b", "example.com/Name", "/x", "x/", "a/b/c", "..", "%", "é", strings.Repeat("a", 70)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		label, sub, l1035 := IsDNS1123Label(s), IsDNS1123Subdomain(s), IsDNS1035Label(s)
		if len(label) == 0 && len(sub) != 0 {
			t.Errorf("%q: label but not subdomain: %q", s, sub)
		}
		if len(l1035) == 0 && len(label) != 0 {
			t.Errorf("%q: 1035 label but not 1123 label: %q", s, label)
		}
		if len(sub) == 0 && len(s) <= 63 && len(IsQualifiedName(s+"/x")) != 0 {
			t.Errorf("%q: subdomain is not a valid prefix: %q", s, IsQualifiedName(s+"/x"))
		}
		IsValidLabelValue(s)
		IsPathSegmentName(s)
	})
}

func TestMaskTrailingDash(t *testing.T) {
	// Like upstream, the last two bytes become "a", not only the dash.
	for in, want := range map[string]string{"": "", "-": "-", "a-": "a", "ab-": "aa", "abc": "abc", "foo-": "foa"} {
		if got := MaskTrailingDash(in); got != want {
			t.Errorf("MaskTrailingDash(%q) = %q, want %q", in, got, want)
		}
	}
}

// The regular expressions of the formats, which the hand-written matchers
// must agree with.
var formatRegexps = []struct {
	name  string
	re    *regexp.Regexp
	match func(string) bool
}{
	{"DNS-1123 label", regexp.MustCompile("^" + dns1123LabelFmt + "$"), isDNS1123Label},
	{"DNS-1123 subdomain", regexp.MustCompile("^" + dns1123SubdomainFmt + "$"), isDNS1123Subdomain},
	{"DNS-1035 label", regexp.MustCompile("^" + dns1035LabelFmt + "$"), isDNS1035Label},
	{"qualified name", regexp.MustCompile("^" + qualifiedNameFmt + "$"), isQualifiedName},
	{"label value", regexp.MustCompile("^" + labelValueFmt + "$"), func(s string) bool { return s == "" || isQualifiedName(s) }},
}

var formatSeeds = []string{"", "a", "A", "0", "-", ".", "_", "a-", "-a", "a.b", "a..b", ".a", "a.", "a_b", "A_b.c-D", "a-b-c", "ab-1.cd", "é", "a\xffb", "a\n", "my-name.example.com", "1abc", "abc1", "a--b", "x.-y", "x-.y"}

func TestMatchersAgreeWithRegexps(t *testing.T) {
	for _, f := range formatRegexps {
		for _, s := range formatSeeds {
			if got, want := f.match(s), f.re.MatchString(s); got != want {
				t.Errorf("%s %q: matcher says %v, regular expression %v", f.name, s, got, want)
			}
		}
	}
}

func FuzzMatchersAgreeWithRegexps(f *testing.F) {
	for _, s := range formatSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, f := range formatRegexps {
			if got, want := f.match(s), f.re.MatchString(s); got != want {
				t.Errorf("%s %q: matcher says %v, regular expression %v", f.name, s, got, want)
			}
		}
	})
}
