package validation

// The ipv4 and cidr formats use the lenient IP parser of Go before 1.17,
// which Kubernetes keeps: IPv4 parts may have leading zeros ("010.1.1.1"),
// and IPv6 addresses may not carry a zone.

const ipParseBig = 0xFFFFFF

// decimalPrefix reads a decimal number at the start of s; ok is false when
// there is none or it reaches 0xFFFFFF.
func decimalPrefix(s string) (n, i int, ok bool) {
	for i = 0; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		n = n*10 + int(s[i]-'0')
		if n >= ipParseBig {
			return ipParseBig, i, false
		}
	}
	return n, i, i > 0
}

// hexPrefix reads a hexadecimal number at the start of s.
func hexPrefix(s string) (n, i int, ok bool) {
	for i = 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			n = n*16 + int(c-'0')
		case 'a' <= c && c <= 'f':
			n = n*16 + int(c-'a') + 10
		case 'A' <= c && c <= 'F':
			n = n*16 + int(c-'A') + 10
		default:
			return n, i, i > 0
		}
		if n >= ipParseBig {
			return 0, i, false
		}
	}
	return n, i, i > 0
}

func parseIPv4Sloppy(s string) []byte {
	var p [4]byte
	for i := 0; i < 4; i++ {
		if len(s) == 0 {
			return nil
		}
		if i > 0 {
			if s[0] != '.' {
				return nil
			}
			s = s[1:]
		}
		n, c, ok := decimalPrefix(s)
		if !ok || n > 0xFF {
			return nil
		}
		s = s[c:]
		p[i] = byte(n)
	}
	if len(s) != 0 {
		return nil
	}
	return p[:]
}

func parseIPv6Sloppy(s string) []byte {
	ip := make([]byte, 16)
	ellipsis := -1
	if len(s) >= 2 && s[0] == ':' && s[1] == ':' {
		ellipsis = 0
		s = s[2:]
		if len(s) == 0 {
			return ip
		}
	}
	i := 0
	for i < 16 {
		n, c, ok := hexPrefix(s)
		if !ok || n > 0xFFFF {
			return nil
		}
		if c < len(s) && s[c] == '.' {
			// An embedded IPv4 address ends the IPv6 one.
			if ellipsis < 0 && i != 12 {
				return nil
			}
			if i+4 > 16 {
				return nil
			}
			v4 := parseIPv4Sloppy(s)
			if v4 == nil {
				return nil
			}
			copy(ip[i:], v4)
			s = ""
			i += 4
			break
		}
		ip[i] = byte(n >> 8)
		ip[i+1] = byte(n)
		i += 2
		s = s[c:]
		if len(s) == 0 {
			break
		}
		if s[0] != ':' || len(s) == 1 {
			return nil
		}
		s = s[1:]
		if s[0] == ':' {
			if ellipsis >= 0 {
				return nil
			}
			ellipsis = i
			s = s[1:]
			if len(s) == 0 {
				break
			}
		}
	}
	if len(s) != 0 {
		return nil
	}
	if i < 16 {
		if ellipsis < 0 {
			return nil
		}
		n := 16 - i
		for j := i - 1; j >= ellipsis; j-- {
			ip[j+n] = ip[j]
		}
		for j := ellipsis + n - 1; j >= ellipsis; j-- {
			ip[j] = 0
		}
	} else if ellipsis >= 0 {
		return nil
	}
	return ip
}

// parseIPSloppy parses an IPv4 or IPv6 address, deciding by the first '.'
// or ':' it finds.
func parseIPSloppy(s string) []byte {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '.':
			return parseIPv4Sloppy(s)
		case ':':
			return parseIPv6Sloppy(s)
		}
	}
	return nil
}

// parseCIDRSloppy reports whether s is an address, '/', and a prefix
// length that fits the address family.
func parseCIDRSloppy(s string) bool {
	slash := -1
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			slash = i
			break
		}
	}
	if slash < 0 {
		return false
	}
	addr, mask := s[:slash], s[slash+1:]
	bits := 32
	ip := parseIPv4Sloppy(addr)
	if ip == nil {
		bits = 128
		ip = parseIPv6Sloppy(addr)
	}
	n, i, ok := decimalPrefix(mask)
	return ip != nil && ok && i == len(mask) && n >= 0 && n <= bits
}
