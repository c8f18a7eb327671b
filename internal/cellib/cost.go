package cellib

import (
	"math"
	"slices"
	"strings"

	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// CostEstimator prices the Kubernetes library functions, and the cel-go
// extension functions that Kubernetes prices itself, exactly as the API
// server does. It is both a static estimator (checker.CostEstimator, used
// when a rule is compiled) and a runtime one (interpreter.ActualCostEstimator,
// used while it is evaluated). Calls it does not know are left to cel-go's
// default costs (nil result).
//
// The zero value is ready to use; a CostEstimator is safe for concurrent
// use if its SizeEstimator is.
type CostEstimator struct {
	// SizeEstimator estimates the size of values whose size the checker
	// does not know, typically from the schema (maxLength, maxItems,
	// maxProperties). It may be nil.
	SizeEstimator checker.CostEstimator
	// FlatGlobalMatches prices the global form matches(s, re) as one call,
	// as cel-go did before v0.29 (Kubernetes 1.33 to 1.36), instead of by
	// the sizes of s and re. The receiver form s.matches(re) is priced by
	// the sizes either way.
	FlatGlobalMatches bool
}

// Parameters of the selector and authorization costs.
const (
	// The shortest repeatable selector requirement ("k,") is two
	// characters.
	selectorRequirementsPerChar = 0.5
	// A requirement costs a struct and a list of values.
	selectorRequirementCost = float64(common.ListCreateBaseCost + common.StructCreateBaseCost)
	// authzCheckCost allows two authorization checks per expression.
	authzCheckCost = 350000
)

func selectorCost(size checker.SizeEstimate) checker.CostEstimate {
	parse := size.MultiplyByCostFactor(common.StringTraversalCostFactor)
	requirements := size.MultiplyByCostFactor(selectorRequirementsPerChar)
	reqCost := requirements.MultiplyByCostFactor(selectorRequirementCost)
	return checker.FixedCostEstimate(common.ListCreateBaseCost).Add(parse).Add(reqCost)
}

func costPtr(c uint64) *uint64 { return &c }

// stringCost is ceil(size × factor).
func stringCost(size uint64, factor float64) uint64 {
	return uint64(math.Ceil(float64(size) * factor))
}

// regexCost is the price of matching a string of strSize against a
// regular expression of regexSize characters.
func regexCost(strSize, regexSize uint64) uint64 {
	str := uint64(math.Ceil((1.0 + float64(strSize)) * common.StringTraversalCostFactor))
	re := uint64(math.Ceil(float64(regexSize) * common.RegexStringLengthCostFactor))
	return str * re
}

// unitCost reports whether a call costs 1, estimated and at runtime: the
// authorization library's accessors, and the members of the IP, CIDR,
// format, quantity, semver and URL libraries that neither parse nor
// traverse anything.
func unitCost(function, overloadID string) bool {
	switch function {
	case "serviceAccount", "path", "group", "resource", "subresource", "namespace", "name", "allowed", "reason", "error", "errored",
		"masked", "prefixLength", "family", "isUnspecified", "isLoopback", "isLinkLocalMulticast", "isLinkLocalUnicast", "isGlobalUnicast",
		"format.named", "sign", "asInteger", "isInteger", "asApproximateFloat", "isGreaterThan", "isLessThan",
		"compareTo", "add", "sub", "major", "minor", "patch",
		"getScheme", "getHostname", "getHost", "getPort", "getEscapedPath", "getQuery":
		return true
	}
	return overloadID == "cidr_ip"
}

// CallCost returns the runtime cost of a call, or nil to let cel-go price it.
func (e *CostEstimator) CallCost(function, overloadID string, args []ref.Val, result ref.Val) *uint64 {
	if unitCost(function, overloadID) {
		return costPtr(1)
	}
	switch function {
	case "check":
		return costPtr(authzCheckCost)
	case "fieldSelector", "labelSelector":
		if len(args) >= 2 {
			n := actualSize(args[1])
			c := selectorCost(checker.SizeEstimate{Min: n, Max: n})
			return &c.Max
		}
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes":
		var c uint64
		if len(args) > 0 {
			c = traversalCost(args[0])
		}
		return &c
	case "url", "lowerAscii", "upperAscii", "substring", "trim", "jsonpatch.escapeKey",
		"cidr", "isIP", "isCIDR", "ip", "quantity", "isQuantity", "semver", "isSemver":
		if len(args) >= 1 {
			return costPtr(stringCost(actualSize(args[0]), common.StringTraversalCostFactor))
		}
	case "replace", "split", "ip.isCanonical":
		if len(args) >= 1 {
			return costPtr(stringCost(actualSize(args[0]), 2*common.StringTraversalCostFactor))
		}
	case "join":
		if len(args) >= 1 {
			return costPtr(stringCost(actualSize(result), 2*common.StringTraversalCostFactor))
		}
	case "find", "findAll":
		if len(args) >= 2 {
			return costPtr(regexCost(actualSize(args[0]), actualSize(args[1])))
		}
	case "containsIP", "containsCIDR":
		if len(args) >= 2 {
			cidrSize := actualSize(args[0])
			c := stringCost(cidrSize+cidrSize, common.StringTraversalCostFactor)
			if function == "containsCIDR" {
				c += stringCost(cidrSize, common.StringTraversalCostFactor) + 1
			}
			if strings.HasSuffix(overloadID, "_string") { // the argument is parsed first
				c += stringCost(actualSize(args[1]), common.StringTraversalCostFactor)
			}
			return &c
		}
	case "validate":
		if len(args) >= 2 {
			if f, ok := args[0].Value().(formatVal); ok {
				return costPtr(regexCost(actualSize(args[1]), uint64(f.regexSize)))
			}
		}
	case "_==_":
		if len(args) == 2 {
			switch args[0].(type) {
			case *quantityVal, ipVal, cidrVal, formatVal, urlVal, semverVal:
				return costPtr(1)
			}
		}
	}
	return nil
}

// EstimateCallCost returns the static cost estimate of a call, or nil to
// let cel-go estimate it.
func (e *CostEstimator) EstimateCallCost(function, overloadID string, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	fixed := func(c uint64) *checker.CallEstimate {
		return &checker.CallEstimate{CostEstimate: checker.FixedCostEstimate(c)}
	}
	traversal := func(n checker.AstNode, factor float64) *checker.CallEstimate {
		return &checker.CallEstimate{CostEstimate: e.sizeEstimate(n).MultiplyByCostFactor(factor)}
	}
	if e.FlatGlobalMatches && overloadID == "matches" && target == nil || unitCost(function, overloadID) {
		return fixed(1)
	}
	switch function {
	case "check":
		return fixed(authzCheckCost)
	case "fieldSelector", "labelSelector":
		if len(args) == 1 {
			return &checker.CallEstimate{CostEstimate: selectorCost(e.sizeEstimate(args[0]))}
		}
	case "isSorted", "sum", "max", "min", "indexOf", "lastIndexOf", "includes":
		if target != nil {
			elemCost := checker.FixedCostEstimate(1)
			if elem := e.listElementNode(*target); elem != nil {
				if k := elem.Type().Kind(); k == types.StringKind || k == types.BytesKind {
					elemCost = elemCost.Add(e.sizeEstimate(elem).MultiplyByCostFactor(common.StringTraversalCostFactor))
				}
				return &checker.CallEstimate{CostEstimate: e.sizeEstimate(*target).MultiplyByCost(elemCost)}
			}
			if function == "includes" {
				return &checker.CallEstimate{CostEstimate: e.sizeEstimate(*target).MultiplyByCost(elemCost)}
			}
			// A string receiver (indexOf and lastIndexOf of the strings extension).
			return traversal(*target, common.StringTraversalCostFactor)
		}
	case "url", "jsonpatch.escapeKey":
		if len(args) == 1 {
			sz := e.sizeEstimate(args[0])
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(common.StringTraversalCostFactor), ResultSize: &sz}
		}
	case "lowerAscii", "upperAscii", "substring", "trim":
		if target != nil {
			sz := e.sizeEstimate(*target)
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(common.StringTraversalCostFactor), ResultSize: &sz}
		}
	case "replace":
		if target != nil && len(args) >= 2 {
			return e.estimateReplace(*target, args[0], args[1])
		}
	case "split":
		if target != nil {
			sz := e.sizeEstimate(*target)
			// Worst case: an empty separator splits every character.
			limit := sz.Max
			if len(args) > 1 {
				if lit := args[1].Expr().AsLiteral(); lit != nil {
					if n, ok := lit.Value().(int64); ok {
						limit = uint64(n)
					}
				}
			}
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(2 * common.StringTraversalCostFactor),
				ResultSize: &checker.SizeEstimate{Min: 0, Max: limit}}
		}
	case "join":
		if target != nil {
			var sz checker.SizeEstimate
			listSize := e.sizeEstimate(*target)
			if elem := e.listElementNode(*target); elem != nil {
				sz = listSize.Multiply(e.sizeEstimate(elem))
			}
			if len(args) > 0 {
				sep := e.sizeEstimate(args[0])
				var seps checker.SizeEstimate
				if listSize.Min > 0 {
					seps.Min = listSize.Min - 1
				}
				if listSize.Max > 0 {
					seps.Max = listSize.Max - 1
				}
				sz = sz.Add(sep.Multiply(seps))
			}
			return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(common.StringTraversalCostFactor), ResultSize: &sz}
		}
	case "find", "findAll":
		if target != nil && len(args) >= 1 {
			sz := e.sizeEstimate(*target)
			strCost := sz.Add(checker.FixedSizeEstimate(1)).MultiplyByCostFactor(common.StringTraversalCostFactor)
			reCost := e.sizeEstimate(args[0]).MultiplyByCostFactor(common.RegexStringLengthCostFactor)
			return &checker.CallEstimate{CostEstimate: strCost.Multiply(reCost), ResultSize: &checker.SizeEstimate{Min: 0, Max: sz.Max}}
		}
	case "cidr", "isIP", "isCIDR", "ip", "quantity", "isQuantity", "semver", "isSemver":
		if len(args) >= 1 {
			return traversal(args[0], common.StringTraversalCostFactor)
		}
	case "ip.isCanonical":
		if len(args) >= 1 {
			return traversal(args[0], 2*common.StringTraversalCostFactor)
		}
	case "containsIP", "containsCIDR":
		if len(args) >= 1 {
			// Addresses are 4 or 16 bytes; both sides are compared.
			addr := checker.SizeEstimate{Min: 4, Max: 16}
			c := addr.Add(addr).MultiplyByCostFactor(common.StringTraversalCostFactor)
			if function == "containsCIDR" {
				// Masking the receiver traverses the address once more.
				c = c.Add(addr.MultiplyByCostFactor(common.StringTraversalCostFactor)).Add(checker.FixedCostEstimate(1))
			}
			if strings.HasSuffix(overloadID, "_string") { // the argument is parsed first
				c = c.Add(checker.CostEstimate(e.sizeEstimate(args[0])).MultiplyByCostFactor(common.StringTraversalCostFactor))
			}
			return &checker.CallEstimate{CostEstimate: c}
		}
	case "validate":
		if len(args) >= 1 {
			c := e.sizeEstimate(args[0]).MultiplyByCostFactor(common.StringTraversalCostFactor).
				MultiplyByCostFactor(maxFormatRegexSize * common.RegexStringLengthCostFactor)
			return &checker.CallEstimate{CostEstimate: c}
		}
	case "_==_":
		if len(args) == 2 {
			return estimateEquality(args[0], args[1])
		}
	}
	return nil
}

// estimateEquality prices == between two values of the same Kubernetes
// type; other equalities are left to cel-go.
func estimateEquality(lhs, rhs checker.AstNode) *checker.CallEstimate {
	t := lhs.Type()
	if t.Equal(rhs.Type()) != types.True {
		return nil
	}
	if t.Kind() == types.OpaqueKind {
		switch t.TypeName() {
		case IPType.TypeName(), CIDRType.TypeName():
			return &checker.CallEstimate{CostEstimate: checker.FixedCostEstimate(1)}
		}
	}
	if t.Kind() != types.StructKind {
		return nil
	}
	// The declared types are matched by identity, as Kubernetes does.
	switch t {
	case QuantityType, AuthorizerType, PathCheckType, GroupCheckType, ResourceCheckType, DecisionType, SemverType:
		return &checker.CallEstimate{CostEstimate: checker.FixedCostEstimate(1)}
	case FormatType:
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: maxFormatNameSize}.MultiplyByCostFactor(common.StringTraversalCostFactor)}
	case URLType:
		size := checker.FixedSizeEstimate(1)
		// Kubernetes reads the right-hand side's size twice (never the
		// left-hand side's); kept for identical estimates.
		if r := rhs.ComputedSize(); r != nil {
			size = r.Union(*r)
		}
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: size.Max}.MultiplyByCostFactor(common.StringTraversalCostFactor)}
	}
	return nil
}

// estimateReplace bounds the cost and result size of
// s.replace(old, new).
func (e *CostEstimator) estimateReplace(target, oldArg, newArg checker.AstNode) *checker.CallEstimate {
	sz := e.sizeEstimate(target)
	oldSz := e.sizeEstimate(oldArg)
	newSz := e.sizeEstimate(newArg)

	var count, kept checker.SizeEstimate
	// The longest result, then the shortest.
	count.Max, kept.Max = replaceBound(sz.Max, oldSz.Min, newSz.Max <= oldSz.Min)
	count.Min, kept.Min = replaceBound(sz.Min, oldSz.Max, oldSz.Max <= newSz.Min)
	size := count.Multiply(newSz).Add(kept)
	return &checker.CallEstimate{CostEstimate: sz.MultiplyByCostFactor(2 * common.StringTraversalCostFactor), ResultSize: &size}
}

// replaceBound returns one bound of the number of replacements in a
// string of n characters and of the characters kept: an empty old string
// (oldLen 0) is inserted around every character; when the result cannot
// grow (noGrowth) no replacement counts; otherwise every oldLen characters
// may be one.
func replaceBound(n, oldLen uint64, noGrowth bool) (count, kept uint64) {
	switch {
	case oldLen == 0:
		count = n
		if n < math.MaxUint64 {
			count = n + 1
		}
		return count, n
	case noGrowth:
		return 0, n
	}
	return uint64(math.Ceil(float64(n) / float64(oldLen))), 0
}

// EstimateSize delegates to the SizeEstimator.
func (e *CostEstimator) EstimateSize(n checker.AstNode) *checker.SizeEstimate {
	if e.SizeEstimator != nil {
		return e.SizeEstimator.EstimateSize(n)
	}
	return nil
}

// sizeEstimate is the computed size of a node, else the SizeEstimator's,
// else unbounded.
func (e *CostEstimator) sizeEstimate(n checker.AstNode) checker.SizeEstimate {
	if sz := n.ComputedSize(); sz != nil {
		return *sz
	}
	if sz := e.EstimateSize(n); sz != nil {
		return *sz
	}
	return checker.SizeEstimate{Min: 0, Max: math.MaxUint64}
}

// listElementNode returns a node standing for the elements of a list (or
// the first type parameter of another parameterized type), with the
// schema path "<list path>.@items" when the list has a path, so that the
// SizeEstimator can find maxLength.
func (e *CostEstimator) listElementNode(list checker.AstNode) checker.AstNode {
	params := list.Type().Parameters()
	if len(params) == 0 {
		return nil
	}
	n := &elementNode{t: params[0]}
	if p := list.Path(); p != nil {
		n.path = append(slices.Clip(p), "@items") // a copy: p is the list's
	}
	return n
}

// elementNode is a synthetic AST node for list elements.
type elementNode struct {
	path []string
	t    *types.Type
}

func (n *elementNode) Path() []string                      { return n.path }
func (n *elementNode) Type() *types.Type                   { return n.t }
func (n *elementNode) Expr() ast.Expr                      { return nil }
func (n *elementNode) ComputedSize() *checker.SizeEstimate { return nil }

// actualSize is the size of a runtime value, 1 for values without one.
func actualSize(v ref.Val) uint64 {
	if s, ok := v.(traits.Sizer); ok {
		if n, ok := s.Size().(types.Int); ok {
			return uint64(n)
		}
	}
	return 1
}

// traversalCost is the cost of visiting a value as a tree: a tenth per
// character of strings and bytes, 1 for other scalars.
func traversalCost(v ref.Val) uint64 {
	switch v := v.(type) {
	case types.String:
		return uint64(float64(len(v)) * common.StringTraversalCostFactor)
	case types.Bytes:
		return uint64(float64(len(v)) * common.StringTraversalCostFactor)
	case traits.Lister:
		var c uint64
		for it := v.Iterator(); it.HasNext() == types.True; {
			c += traversalCost(it.Next())
		}
		return c
	case traits.Mapper:
		var c uint64
		for it := v.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			c += traversalCost(k) + traversalCost(v.Get(k))
		}
		return c
	}
	return 1
}
