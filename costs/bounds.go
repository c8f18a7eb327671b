package costs

import (
	"strings"

	"github.com/crdschema/crdschema"
)

// minUsable is the smallest bound suggested: a list, map or string
// bounded at 0 can hold nothing, which fixes a cost by removing the field.
const minUsable = 1

// usual returns the bound people give a string of this kind, from its
// format or its field's name (the last name of fieldPath, "[*]" and a
// plural "s" taken off for the items of a list): 63 for a DNS label
// (namespaces), 253 for a DNS subdomain (names, hosts), 254 for an e-mail
// address, 2048 for a URL, and the lengths of IP addresses and CIDRs; 0
// when there is none.
func usual(s *crdschema.JSONSchemaProps, fieldPath, keyword string) int64 {
	if keyword != "maxLength" || s == nil {
		return 0
	}
	switch s.Format {
	case "hostname":
		return 253
	case "email":
		return 254
	case "uri", "url":
		return 2048
	case "ipv4":
		return len64("255.255.255.255")
	case "ipv6":
		return len64("ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255")
	case "cidr":
		return len64("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128")
	}
	name := fieldPath
	list := strings.HasSuffix(name, "[*]")
	name = strings.TrimSuffix(name, "[*]")
	if i := strings.LastIndexAny(name, ".]"); i >= 0 {
		name = name[i+1:]
	}
	name = strings.ToLower(name)
	if list {
		name = strings.TrimSuffix(name, "s")
	}
	switch {
	case name == "namespace" || strings.HasSuffix(name, "label"):
		return 63
	case strings.Contains(name, "email") || strings.Contains(name, "mail"):
		return 254
	case strings.HasSuffix(name, "url") || strings.HasSuffix(name, "uri") || strings.HasSuffix(name, "endpoint"):
		return 2048
	case strings.HasSuffix(name, "name") || strings.HasSuffix(name, "host") || strings.HasSuffix(name, "hostname") || strings.HasSuffix(name, "domain"):
		return 253
	}
	return 0
}

func len64(s string) int64 { return int64(len(s)) }

// suggest returns the value to suggest for a bound whose largest working
// value is largest: the usual bound of its kind when that fits, otherwise
// a round number (see round).
func suggest(largest, usualBound int64) int64 {
	if usualBound > 0 && usualBound <= largest {
		return usualBound
	}
	return round(largest)
}

// round returns the largest power of two or 1, 2 or 5 times a power of ten
// that is at most n (n for n < 1): a number between n/2 and n.
func round(n int64) int64 {
	if n < 1 {
		return n
	}
	p2 := int64(1)
	for p2*2 <= n {
		p2 *= 2
	}
	best := p2
	for p := int64(1); p <= n; p *= 10 {
		for _, m := range []int64{1, 2, 5} {
			if v := m * p; v <= n && v > best {
				best = v
			}
		}
	}
	return best
}
