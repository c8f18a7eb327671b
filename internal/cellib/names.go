package cellib

import (
	"fmt"
	"regexp"
	"strings"
)

// This file holds the Kubernetes name and label checks behind the named
// formats, with their exact messages. Two generations of Kubernetes code
// are involved: the DNS label/subdomain checks report lengths in
// "characters", the label key/value checks (and the DNS subdomain check
// of a label key's prefix) in "bytes".

const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123LabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1035LabelFmt     = "[a-z]([-a-z0-9]*[a-z0-9])?"
	dns1035LabelMsg     = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
	labelKeyFmt         = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelKeyMsg         = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueFmt       = "(" + labelKeyFmt + ")?"
	labelValueMsg       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
)

var (
	dns1123LabelRegexp     = regexp.MustCompile("^" + dns1123LabelFmt + "$")
	dns1123SubdomainRegexp = regexp.MustCompile("^" + dns1123SubdomainFmt + "$")
	dns1035LabelRegexp     = regexp.MustCompile("^" + dns1035LabelFmt + "$")
	labelKeyRegexp         = regexp.MustCompile("^" + labelKeyFmt + "$")
	labelValueRegexp       = regexp.MustCompile("^" + labelValueFmt + "$")
)

// maxLenMessage renders a maximum length in one of the two wordings.
type maxLenMessage func(int) string

func maxLenChars(n int) string { return fmt.Sprintf("must be no more than %d characters", n) }
func maxLenBytes(n int) string { return fmt.Sprintf("must be no more than %d bytes", n) }

// regexMessage explains a failed regular expression with examples.
func regexMessage(msg, re string, examples ...string) string {
	var b strings.Builder
	b.WriteString(msg)
	if len(examples) == 0 {
		b.WriteString(" (regex used for validation is '" + re + "')")
		return b.String()
	}
	b.WriteString(" (e.g. ")
	for i, e := range examples {
		if i > 0 {
			b.WriteString(" or ")
		}
		b.WriteString("'" + e + "', ")
	}
	b.WriteString("regex used for validation is '" + re + "')")
	return b.String()
}

// maskTrailingDash prepares a generateName prefix for a name check. It
// reproduces Kubernetes exactly, which replaces the last two characters
// (not only the dash) with "a".
func maskTrailingDash(s string) string {
	if len(s) > 1 && strings.HasSuffix(s, "-") {
		return s[:len(s)-2] + "a"
	}
	return s
}

func dns1123Label(s string) []string {
	var errs []string
	if len(s) > 63 {
		errs = append(errs, maxLenChars(63))
	}
	if !dns1123LabelRegexp.MatchString(s) {
		if dns1123SubdomainRegexp.MatchString(s) {
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, regexMessage(dns1123LabelMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

func dns1123Subdomain(s string, maxLen maxLenMessage) []string {
	var errs []string
	if len(s) > 253 {
		errs = append(errs, maxLen(253))
	}
	if !dns1123SubdomainRegexp.MatchString(s) {
		errs = append(errs, regexMessage(dns1123SubdomainMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

func dns1035Label(s string) []string {
	var errs []string
	if len(s) > 63 {
		errs = append(errs, maxLenChars(63))
	}
	if !dns1035LabelRegexp.MatchString(s) {
		errs = append(errs, regexMessage(dns1035LabelMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

// qualifiedName checks a label key: an optional DNS subdomain prefix and
// "/", then a name of at most 63 characters.
func qualifiedName(s string) []string {
	var errs []string
	parts := strings.Split(s, "/")
	var name string
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		prefix := parts[0]
		name = parts[1]
		if prefix == "" {
			errs = append(errs, "prefix part must be non-empty")
		} else {
			for _, m := range dns1123Subdomain(prefix, maxLenBytes) {
				errs = append(errs, "prefix part "+m)
			}
		}
	default:
		return []string{"a valid label key " + regexMessage(labelKeyMsg, labelKeyFmt, "MyName", "my.name", "123-abc") +
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > 63 {
		errs = append(errs, "name part "+maxLenBytes(63))
	}
	if !labelKeyRegexp.MatchString(name) {
		errs = append(errs, "name part "+regexMessage(labelKeyMsg, labelKeyFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

func labelValue(s string) []string {
	var errs []string
	if len(s) > 63 {
		errs = append(errs, maxLenBytes(63))
	}
	if !labelValueRegexp.MatchString(s) {
		errs = append(errs, regexMessage(labelValueMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}
