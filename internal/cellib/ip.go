package cellib

import (
	"fmt"
	"net/netip"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// IPType is the CEL type of the values returned by ip().
var IPType = cel.OpaqueType("net.IP")

// ipVal is an IPv4 or IPv6 address without zone as a CEL value; its size
// is the length of the address in bytes (4 or 16).
type ipVal = opaque[netip.Addr]

var ipKind = &opaqueKind[netip.Addr]{typ: IPType, name: "IP", toString: true,
	equal: func(a, b netip.Addr) bool { return a == b },
	size:  func(a netip.Addr) int { return (a.BitLen() + 7) / 8 }}

// ipOptions declares the functions of the kubernetes.net.ip library.
func ipOptions() []cel.EnvOption {
	pred := func(fn, id string, f func(netip.Addr) bool) funcDecl {
		return funcDecl{fn, []cel.FunctionOpt{cel.MemberOverload(id, []*cel.Type{IPType}, cel.BoolType,
			cel.UnaryBinding(unary(func(a netip.Addr) ref.Val { return types.Bool(f(a)) })))}}
	}
	return envOptions([]funcDecl{
		{"ip", []cel.FunctionOpt{cel.Overload("string_to_ip", []*cel.Type{cel.StringType}, IPType, cel.UnaryBinding(stringToIP))}},
		{"family", []cel.FunctionOpt{cel.MemberOverload("ip_family", []*cel.Type{IPType}, cel.IntType, cel.UnaryBinding(unary(ipFamily)))}},
		{"ip.isCanonical", []cel.FunctionOpt{cel.Overload("ip_is_canonical", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(unary(ipIsCanonical)))}},
		pred("isUnspecified", "ip_is_unspecified", netip.Addr.IsUnspecified),
		pred("isLoopback", "ip_is_loopback", netip.Addr.IsLoopback),
		pred("isLinkLocalMulticast", "ip_is_link_local_multicast", netip.Addr.IsLinkLocalMulticast),
		pred("isLinkLocalUnicast", "ip_is_link_local_unicast", netip.Addr.IsLinkLocalUnicast),
		pred("isGlobalUnicast", "ip_is_global_unicast", netip.Addr.IsGlobalUnicast),
		{"isIP", []cel.FunctionOpt{cel.Overload("is_ip", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(valid(parseIP)))}},
		{"string", []cel.FunctionOpt{cel.Overload("ip_to_string", []*cel.Type{IPType}, cel.StringType, cel.UnaryBinding(unary(func(a netip.Addr) ref.Val { return types.String(a.String()) })))}},
	}, cel.Types(IPType))
}

// parseIP parses an IPv4 or IPv6 address, rejecting zones and IPv4-mapped
// IPv6 addresses (and, as net/netip does, IPv4 octets with leading zeros).
func parseIP(s string) (netip.Addr, error) {
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Addr{}, fmt.Errorf("IP Address %q parse error during conversion from string: %v", s, err)
	}
	if a.Zone() != "" {
		return netip.Addr{}, fmt.Errorf("IP address %q with zone value is not allowed", s)
	}
	if a.Is4In6() {
		return netip.Addr{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", s)
	}
	return a, nil
}

var stringToIP = unary(func(s string) ref.Val {
	addr, err := parseIP(s)
	if err != nil {
		return types.NewErr("%v", err)
	}
	return ipVal{addr, ipKind}
})

func ipFamily(a netip.Addr) ref.Val {
	switch {
	case a.Is4():
		return types.Int(4)
	case a.Is6():
		return types.Int(6)
	}
	return types.NewErr("IP address %q is not an IPv4 or IPv6 address", a.String())
}

// ipIsCanonical reports whether s is written exactly as the canonical form
// of the address it denotes.
func ipIsCanonical(s string) ref.Val {
	addr, err := parseIP(s)
	if err != nil {
		return types.NewErr("%v", err)
	}
	return types.Bool(addr.String() == s)
}
