package cellib

import (
	"fmt"
	"net/netip"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// CIDRType is the CEL type of the values returned by cidr().
var CIDRType = cel.OpaqueType("net.CIDR")

// cidrVal is an IP prefix (address and prefix length) as a CEL value; its
// size is the prefix length in whole bytes.
type cidrVal = opaque[netip.Prefix]

var cidrKind = &opaqueKind[netip.Prefix]{typ: CIDRType, name: "CIDR", toString: true,
	equal: func(a, b netip.Prefix) bool { return a == b },
	size:  func(p netip.Prefix) int { return (p.Bits() + 7) / 8 }}

// cidrOptions declares the functions of the kubernetes.net.cidr library.
func cidrOptions() []cel.EnvOption {
	member := func(fn, id string, result *cel.Type, f func(netip.Prefix) ref.Val) funcDecl {
		return funcDecl{fn, []cel.FunctionOpt{cel.MemberOverload(id, []*cel.Type{CIDRType}, result, cel.UnaryBinding(unary(f)))}}
	}
	return envOptions([]funcDecl{
		{"cidr", []cel.FunctionOpt{cel.Overload("string_to_cidr", []*cel.Type{cel.StringType}, CIDRType, cel.UnaryBinding(stringToCIDR))}},
		{"containsIP", []cel.FunctionOpt{
			cel.MemberOverload("cidr_contains_ip_string", []*cel.Type{CIDRType, cel.StringType}, cel.BoolType,
				cel.BinaryBinding(func(c, s ref.Val) ref.Val { return cidrContainsIP(c, stringToIP(s)) })),
			cel.MemberOverload("cidr_contains_ip_ip", []*cel.Type{CIDRType, IPType}, cel.BoolType, cel.BinaryBinding(cidrContainsIP)),
		}},
		{"containsCIDR", []cel.FunctionOpt{
			cel.MemberOverload("cidr_contains_cidr_string", []*cel.Type{CIDRType, cel.StringType}, cel.BoolType,
				cel.BinaryBinding(func(c, s ref.Val) ref.Val { return cidrContainsCIDR(c, stringToCIDR(s)) })),
			cel.MemberOverload("cidr_contains_cidr", []*cel.Type{CIDRType, CIDRType}, cel.BoolType, cel.BinaryBinding(cidrContainsCIDR)),
		}},
		member("ip", "cidr_ip", IPType, func(p netip.Prefix) ref.Val { return ipVal{p.Addr(), ipKind} }),
		member("prefixLength", "cidr_prefix_length", cel.IntType, func(p netip.Prefix) ref.Val { return types.Int(p.Bits()) }),
		member("masked", "cidr_masked", CIDRType, func(p netip.Prefix) ref.Val { return cidrVal{p.Masked(), cidrKind} }),
		{"isCIDR", []cel.FunctionOpt{cel.Overload("is_cidr", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(valid(parseCIDR)))}},
		{"string", []cel.FunctionOpt{cel.Overload("cidr_to_string", []*cel.Type{CIDRType}, cel.StringType,
			cel.UnaryBinding(unary(func(p netip.Prefix) ref.Val { return types.String(p.String()) })))}},
	}, cel.Types(CIDRType))
}

// parseCIDR parses an address/prefix-length pair, rejecting IPv4-mapped
// IPv6 addresses. The address need not be the masked network address.
func parseCIDR(s string) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, fmt.Errorf("network address parse error during conversion from string: %v", err)
	}
	if p.Addr().Is4In6() {
		return netip.Prefix{}, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", s)
	}
	return p, nil
}

var stringToCIDR = unary(func(s string) ref.Val {
	p, err := parseCIDR(s)
	if err != nil {
		// Kubernetes prefixes the already prefixed parse error once more.
		return types.NewErr("network address parse error during conversion from string: %v", err)
	}
	return cidrVal{p, cidrKind}
})

// cidrContainsIP reports whether the prefix contains the address. As in
// Kubernetes, an address argument that failed to parse yields "no such
// overload" rather than the parse error.
func cidrContainsIP(c, i ref.Val) ref.Val {
	cv, ok := c.(cidrVal)
	if !ok {
		return types.MaybeNoSuchOverloadErr(i)
	}
	iv, ok := i.(ipVal)
	if !ok {
		return types.MaybeNoSuchOverloadErr(c)
	}
	return types.Bool(cv.x.Contains(iv.x))
}

// cidrContainsCIDR reports whether the first prefix contains the whole of
// the second.
func cidrContainsCIDR(c, o ref.Val) ref.Val {
	cv, ok := c.(cidrVal)
	if !ok {
		return types.MaybeNoSuchOverloadErr(c)
	}
	ov, ok := o.(cidrVal)
	if !ok {
		return types.MaybeNoSuchOverloadErr(o)
	}
	return types.Bool(cv.x.Overlaps(ov.x) && cv.x.Bits() <= ov.x.Bits())
}
