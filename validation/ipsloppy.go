package validation

import (
	"net/netip"
	"strconv"
	"strings"
)

// The ipv4 and cidr formats use the lenient IP parser of Go before 1.17,
// which Kubernetes keeps (k8s.io/utils/net's ParseIPSloppy and
// ParseCIDRSloppy): it reads what Go's parser reads, and leading zeros in
// every number besides (010.1.1.1 is 10.1.1.1, an IPv6 group may have
// more than four digits), which Go's parser refuses. IPv6 addresses may
// not carry a zone in either.

// parseIPSloppy parses s with the lenient parser; ok is false when it
// is no address.
func parseIPSloppy(s string) (a netip.Addr, ok bool) {
	a, err := netip.ParseAddr(dropLeadingZeros(s))
	return a, err == nil && a.Zone() == ""
}

// parseCIDRSloppy reports whether s is an address, '/', and a prefix
// length (decimal digits) that fits the address family, to the lenient
// parser.
func parseCIDRSloppy(s string) bool {
	addr, mask, found := strings.Cut(s, "/")
	a, ok := parseIPSloppy(addr)
	n, err := strconv.Atoi(mask)
	return found && ok && err == nil && mask[0] >= '0' && mask[0] <= '9' && n <= a.BitLen()
}

// dropLeadingZeros drops the leading zeros of every number in s (the
// digits at its start or after a dot or a colon), keeping one of a number
// that is all zeros: what is left, Go's parser reads as the lenient one
// reads s.
func dropLeadingZeros(s string) string {
	var b []byte
	start := true // at the start of a number
	for i := 0; i < len(s); i++ {
		c := s[i]
		if start && c == '0' && i+1 < len(s) && isHexDigit(s[i+1]) {
			if b == nil {
				b = []byte(s[:i])
			}
			continue
		}
		start = c == '.' || c == ':'
		if b != nil {
			b = append(b, c)
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
