package cellib

import (
	"testing"
)

func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"", "0", "12Mi", "1.5", "100m", "-1.5k", "+.5e-3", "9Ei", "1e4096", "1e4097",
		"0.000000000001Ki", "123456789012345678901234567890", "1e-2000000000", "+.E5302", "1.2.3", "10Mm", "e5"} {
		f.Add(s)
	}
	one, _ := parseQuantity("1")
	zero, _ := parseQuantity("0")
	f.Fuzz(func(t *testing.T, s string) {
		q, err := parseQuantity(s)
		if err != nil {
			return
		}
		_ = q.String()
		_, _ = q.asInt64()
		_ = q.approxFloat64()
		if c := q.cmp(&q); c != 0 {
			t.Fatalf("%q compares %d to itself", s, c)
		}
		if sign, c := q.sign(), q.cmp(&zero); sign != c {
			t.Fatalf("%q: sign %d but compares %d to zero", s, sign, c)
		}
		sum := q.plus(&one, false)
		if c := sum.cmp(&q); c != 1 {
			t.Fatalf("%q: q+1 compares %d to q", s, c)
		}
		diff := sum.plus(&one, true)
		if c := diff.cmp(&q); c != 0 {
			t.Fatalf("%q: q+1-1 compares %d to q", s, c)
		}
	})
}

func FuzzParseIPAndCIDR(f *testing.F) {
	for _, s := range []string{"", "127.0.0.1", "::1", "2001:DB8::0:0:0:ABCD", "::ffff:1.2.3.4", "fe80::1%eth0",
		"01.2.3.4", "192.168.0.0/24", "2001:db8::/32", "::ffff:1.2.3.4/120", "1.2.3.4/33", "1.2.3.4/", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if a, err := parseIP(s); err == nil {
			b, err := parseIP(a.String())
			if err != nil || b != a {
				t.Fatalf("%q: canonical form %q does not parse back (%v)", s, a.String(), err)
			}
			if a.Zone() != "" || a.Is4In6() {
				t.Fatalf("%q: accepted a zone or an IPv4-mapped address", s)
			}
		}
		if p, err := parseCIDR(s); err == nil {
			if !p.Masked().Contains(p.Addr()) {
				t.Fatalf("%q: prefix does not contain its own address", s)
			}
			q, err := parseCIDR(p.String())
			if err != nil || q != p {
				t.Fatalf("%q: canonical form %q does not parse back (%v)", s, p.String(), err)
			}
		}
	})
}
