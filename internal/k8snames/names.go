package k8snames

import (
	"fmt"
	"strconv"
	"strings"
)

// The Kubernetes name checks below return the list of problems with a
// value, worded exactly as the API server words them, or nil when the value
// is fine. Two families of length messages exist upstream: the older name
// checks (DNS labels and subdomains) say "characters", the label-key and
// label-value checks say "bytes"; both are kept.

const (
	dns1123LabelFmt     = "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
	dns1123SubdomainFmt = dns1123LabelFmt + "(\\." + dns1123LabelFmt + ")*"
	dns1035LabelFmt     = "[a-z]([-a-z0-9]*[a-z0-9])?"
	qualifiedNameFmt    = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
	labelValueFmt       = "(" + qualifiedNameFmt + ")?"

	dns1123LabelMsg     = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"
	dns1123SubdomainMsg = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"
	dns1035LabelMsg     = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"
	qualifiedNameMsg    = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
	labelValueMsg       = "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"
)

// Length limits of the Kubernetes name formats.
const (
	DNS1123LabelMaxLength     = 63
	DNS1123SubdomainMaxLength = 253
	DNS1035LabelMaxLength     = 63
	QualifiedNameMaxLength    = 63
	LabelValueMaxLength       = 63
)

// The formats above are matched by hand (names_test.go checks the
// functions below against the regular expressions): the checks run for
// every name, label and annotation of every request.

func isLowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

func isAlnum(c byte) bool { return isLowerAlnum(c) || 'A' <= c && c <= 'Z' }

// isDNS1123Label matches dns1123LabelFmt.
func isDNS1123Label(s string) bool {
	if s == "" || !isLowerAlnum(s[0]) || !isLowerAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isLowerAlnum(c) && c != '-' {
			return false
		}
	}
	return true
}

// isDNS1123Subdomain matches dns1123SubdomainFmt: labels joined by dots.
func isDNS1123Subdomain(s string) bool {
	for {
		i := strings.IndexByte(s, '.')
		if i < 0 {
			return isDNS1123Label(s)
		}
		if !isDNS1123Label(s[:i]) {
			return false
		}
		s = s[i+1:]
	}
}

// isDNS1035Label matches dns1035LabelFmt.
func isDNS1035Label(s string) bool {
	return s != "" && 'a' <= s[0] && s[0] <= 'z' && isDNS1123Label(s)
}

// isQualifiedName matches qualifiedNameFmt.
func isQualifiedName(s string) bool {
	if s == "" || !isAlnum(s[0]) || !isAlnum(s[len(s)-1]) {
		return false
	}
	for i := 1; i < len(s)-1; i++ {
		if c := s[i]; !isAlnum(c) && c != '-' && c != '_' && c != '.' {
			return false
		}
	}
	return true
}

// maxLenChars is the length message of the DNS name checks.
func maxLenChars(n int) string {
	return "must be no more than " + strconv.Itoa(n) + " characters"
}

// maxLenBytes is the length message of the label key and value checks.
func maxLenBytes(n int) string {
	return "must be no more than " + strconv.Itoa(n) + " bytes"
}

// regexMessage words a failed pattern match as Kubernetes does, examples
// included. The doubled space before "or" is upstream's.
func regexMessage(msg, re string, examples ...string) string {
	return msg + " (e.g. '" + strings.Join(examples, "',  or '") + "', regex used for validation is '" + re + "')"
}

// IsDNS1123Label checks that value is a DNS label as RFC 1123 defines it
// (lower case alphanumerics and '-', at most 63 characters).
func IsDNS1123Label(value string) []string {
	var errs []string
	if len(value) > DNS1123LabelMaxLength {
		errs = append(errs, maxLenChars(DNS1123LabelMaxLength))
	}
	if !isDNS1123Label(value) {
		if isDNS1123Subdomain(value) {
			// A subdomain that is not a label can only differ by its dots.
			errs = append(errs, "must not contain dots")
		} else {
			errs = append(errs, regexMessage(dns1123LabelMsg, dns1123LabelFmt, "my-name", "123-abc"))
		}
	}
	return errs
}

// IsDNS1123Subdomain checks that value is a DNS subdomain as RFC 1123
// defines it (dot-separated labels, at most 253 characters).
func IsDNS1123Subdomain(value string) []string {
	return dns1123Subdomain(value, maxLenChars)
}

// dns1123Subdomain is IsDNS1123Subdomain with the wording of its length
// message: maxLenChars, or maxLenBytes for the prefix of a label key.
func dns1123Subdomain(value string, maxLen func(int) string) []string {
	var errs []string
	if len(value) > DNS1123SubdomainMaxLength {
		errs = append(errs, maxLen(DNS1123SubdomainMaxLength))
	}
	if !isDNS1123Subdomain(value) {
		errs = append(errs, regexMessage(dns1123SubdomainMsg, dns1123SubdomainFmt, "example.com"))
	}
	return errs
}

// IsDNS1035Label checks that value is a DNS label as RFC 1035 defines it
// (it must start with a letter).
func IsDNS1035Label(value string) []string {
	var errs []string
	if len(value) > DNS1035LabelMaxLength {
		errs = append(errs, maxLenChars(DNS1035LabelMaxLength))
	}
	if !isDNS1035Label(value) {
		errs = append(errs, regexMessage(dns1035LabelMsg, dns1035LabelFmt, "my-name", "abc-123"))
	}
	return errs
}

// IsQualifiedName checks that value is a qualified name, the format of
// label keys, annotation keys and finalizers: an optional DNS subdomain
// prefix and '/', then a name of at most 63 alphanumerics, '-', '_' or '.'.
func IsQualifiedName(value string) []string {
	var errs []string
	var name string
	switch parts := strings.Split(value, "/"); len(parts) {
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
		return append(errs, "a valid label key "+
			regexMessage(qualifiedNameMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc")+
			" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')")
	}
	if name == "" {
		errs = append(errs, "name part must be non-empty")
	} else if len(name) > QualifiedNameMaxLength {
		errs = append(errs, "name part "+maxLenBytes(QualifiedNameMaxLength))
	}
	if !isQualifiedName(name) {
		errs = append(errs, "name part "+regexMessage(qualifiedNameMsg, qualifiedNameFmt, "MyName", "my.name", "123-abc"))
	}
	return errs
}

// IsValidLabelValue checks that value may be the value of a label: empty,
// or at most 63 alphanumerics, '-', '_' or '.' starting and ending with an
// alphanumeric.
func IsValidLabelValue(value string) []string {
	var errs []string
	if len(value) > LabelValueMaxLength {
		errs = append(errs, maxLenBytes(LabelValueMaxLength))
	}
	if value != "" && !isQualifiedName(value) {
		errs = append(errs, regexMessage(labelValueMsg, labelValueFmt, "MyValue", "my_value", "12345"))
	}
	return errs
}

// IsPathSegmentName checks that name can be one segment of a URL path:
// not "." or "..", and without '/' or '%'.
func IsPathSegmentName(name string) []string {
	if name == "." || name == ".." {
		return []string{fmt.Sprintf("may not be '%s'", name)}
	}
	return IsPathSegmentPrefix(name)
}

// IsPathSegmentPrefix checks that name can start a URL path segment: it
// contains neither '/' nor '%'.
func IsPathSegmentPrefix(name string) []string {
	var errs []string
	if strings.Contains(name, "/") {
		errs = append(errs, "may not contain '/'")
	}
	if strings.Contains(name, "%") {
		errs = append(errs, "may not contain '%'")
	}
	return errs
}

// MaskTrailingDash makes a generateName prefix checkable as a name: a
// trailing '-' (which the generated suffix will follow) may not end a name.
// Like upstream, it replaces the last two bytes by "a".
func MaskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}

// GeneratedName appends suffix to base as the API server's name generator
// does for metadata.generateName, shortening base so that the name fits
// into 63 characters.
func GeneratedName(base, suffix string) string {
	const maxNameLength = 63
	if max := maxNameLength - len(suffix); len(base) > max && max >= 0 {
		base = base[:max]
	}
	return base + suffix
}
