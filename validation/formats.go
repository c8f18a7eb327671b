package validation

import (
	"encoding/hex"
	"net"
	"net/mail"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"github.com/crdschema/crdschema/internal/dates"
	"github.com/crdschema/crdschema/internal/k8snames"
	"github.com/crdschema/crdschema/internal/pattern"
)

// Formats are looked up by name with every "-" removed ("date-time" is
// "datetime"), as the API server's validator does.
//
// formatsAt returns the string formats that the API server validates at
// the given Kubernetes compatibility version (major 1). Formats it does not
// support are cleared from schemas and not checked at all.
// maxCompatibilityMinor is a compatibility version that has every format.
const maxCompatibilityMinor = 1 << 30

func formatsAt(minor int) map[string]func(string) bool {
	if minor >= 34 {
		return formats134
	}
	return formats133
}

// The format sets, built once: k8s-short-name and k8s-long-name came
// with 1.34. They are read only.
var (
	formats133 = newFormats(33)
	formats134 = newFormats(34)
)

func newFormats(minor int) map[string]func(string) bool {
	m := map[string]func(string) bool{
		"bsonobjectid": isBSONObjectID,
		"uri":          isRequestURI,
		"email":        isEmail,
		"hostname":     isHostname,
		"ipv4":         isIPv4,
		"ipv6":         isIPv6,
		"cidr":         parseCIDRSloppy,
		"mac":          isMAC,
		"uuid":         rxUUID.MatchString,
		"uuid3":        rxUUID3.MatchString,
		"uuid4":        rxUUID4.MatchString,
		"uuid5":        rxUUID5.MatchString,
		"isbn":         func(s string) bool { return isISBN10(s) || isISBN13(s) },
		"isbn10":       isISBN10,
		"isbn13":       isISBN13,
		"creditcard":   isCreditCard,
		"ssn":          isSSN,
		"hexcolor":     rxHexColor.MatchString,
		"rgbcolor":     rxRGBColor.MatchString,
		"byte":         rxBase64.MatchString,
		"password":     func(string) bool { return true },
		"date":         dates.Date,
		"duration":     isDuration,
		"datetime":     dates.DateTime,
	}
	if minor >= 34 {
		m["k8sshortname"] = func(s string) bool { return k8snames.IsDNS1123Label(s) == nil }
		m["k8slongname"] = func(s string) bool { return k8snames.IsDNS1123Subdomain(s) == nil }
	}
	return m
}

var (
	rxHostname  = pattern.MustCompile(`^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$`)
	rxUUID      = pattern.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	rxUUID3     = pattern.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$`)
	rxUUID4     = pattern.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxUUID5     = pattern.MustCompile(`(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$`)
	rxCredit    = pattern.MustCompile(`^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$`)
	rxISBN10    = pattern.MustCompile(`^(?:[0-9]{9}X|[0-9]{10})$`)
	rxISBN13    = pattern.MustCompile(`^(?:[0-9]{13})$`)
	rxHexColor  = pattern.MustCompile(`^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$`)
	rxRGBColor  = pattern.MustCompile(`^rgb\(\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*,\s*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])\s*\)$`)
	rxBase64    = pattern.MustCompile(`^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$`)
	rxSSN       = pattern.MustCompile(`^\d{3}[- ]?\d{2}[- ]?\d{4}$`)
	rxNonDigits = regexp.MustCompile(`[^0-9]+`)
	rxSpaceDash = regexp.MustCompile(`[\s-]+`)
)

// isBSONObjectID accepts 24 hexadecimal digits.
func isBSONObjectID(s string) bool {
	b, err := hex.DecodeString(s)
	return err == nil && len(b) == 12
}

func isRequestURI(s string) bool {
	_, err := url.ParseRequestURI(s)
	return err == nil
}

func isEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	return err == nil && a.Address != ""
}

// isHostname accepts RFC 1034 host names of at most 255 bytes whose labels
// have at most 63 bytes; letters and symbols of any script are allowed.
func isHostname(s string) bool {
	return rxHostname.MatchString(s) && len(s) <= 255 &&
		!slices.ContainsFunc(strings.Split(s, "."), func(label string) bool { return len(label) > 63 })
}

// isIPv4 accepts an address that parses leniently (leading zeros allowed)
// and contains a dot, so IPv4 and IPv4-in-IPv6 forms.
func isIPv4(s string) bool {
	_, ok := parseIPSloppy(s)
	return ok && strings.Contains(s, ".")
}

func isIPv6(s string) bool {
	return net.ParseIP(s) != nil && strings.Contains(s, ":")
}

func isMAC(s string) bool {
	_, err := net.ParseMAC(s)
	return err == nil
}

func isSSN(s string) bool {
	return len(s) == 11 && rxSSN.MatchString(s)
}

// isCreditCard strips non-digits, then checks the card-number pattern and
// the Luhn checksum.
func isCreditCard(s string) bool {
	d := rxNonDigits.ReplaceAllString(s, "")
	if !rxCredit.MatchString(d) {
		return false
	}
	sum := 0
	double := false
	for i := len(d) - 1; i >= 0; i-- {
		n := int(d[i] - '0')
		if double {
			n *= 2
			if n >= 10 {
				n = n%10 + 1
			}
		}
		sum += n
		double = !double
	}
	return sum%10 == 0
}

func isISBN10(s string) bool {
	d := rxSpaceDash.ReplaceAllString(s, "")
	if !rxISBN10.MatchString(d) {
		return false
	}
	sum := 0
	for i := 0; i < 9; i++ {
		sum += (i + 1) * int(d[i]-'0')
	}
	if d[9] == 'X' {
		sum += 100
	} else {
		sum += 10 * int(d[9]-'0')
	}
	return sum%11 == 0
}

func isISBN13(s string) bool {
	d := rxSpaceDash.ReplaceAllString(s, "")
	if !rxISBN13.MatchString(d) {
		return false
	}
	sum := 0
	for i := 0; i < 12; i++ {
		f := 1
		if i%2 == 1 {
			f = 3
		}
		sum += f * int(d[i]-'0')
	}
	return int(d[12]-'0')-(10-sum%10)%10 == 0
}

// isDuration accepts Go durations ("1h30m") and Scala-style ones ("3
// days", "1 hour 5 min").
func isDuration(s string) bool {
	_, err := dates.ParseDuration(s)
	return err == nil
}
