package cellib

import (
	"errors"
	"strings"

	"github.com/blang/semver/v4"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// SemverType is the CEL type of the values returned by semver().
var SemverType = cel.ObjectType("kubernetes.Semver")

// semverVal is a semantic version as a CEL value; versions are equal by
// precedence (build metadata is ignored).
type semverVal = opaque[semver.Version]

var semverKind = &opaqueKind[semver.Version]{typ: SemverType, name: "Semver", equal: semver.Version.EQ}

// semverOptions declares the functions of the kubernetes.Semver library at version.
func semverOptions(version uint32) []cel.EnvOption {
	s := SemverType
	member := func(fn, id string, f func(semver.Version) uint64) funcDecl {
		return funcDecl{fn, []cel.FunctionOpt{cel.MemberOverload(id, []*cel.Type{s}, cel.IntType, cel.UnaryBinding(unary(func(v semver.Version) ref.Val { return types.Int(f(v)) })))}}
	}
	compare := func(fn, id string, result *cel.Type, f func(int) ref.Val) funcDecl {
		return funcDecl{fn, []cel.FunctionOpt{cel.MemberOverload(id, []*cel.Type{s, s}, result, cel.BinaryBinding(func(a, b ref.Val) ref.Val {
			x, ok := a.Value().(semver.Version)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			y, ok := b.Value().(semver.Version)
			if !ok {
				return types.MaybeNoSuchOverloadErr(a)
			}
			return f(x.Compare(y))
		}))}}
	}
	toSemver := []cel.FunctionOpt{cel.Overload("string_to_semver", []*cel.Type{cel.StringType}, s,
		cel.UnaryBinding(func(a ref.Val) ref.Val { return stringToSemver(a, types.False) }))}
	isSemverO := []cel.FunctionOpt{cel.Overload("is_semver_string", []*cel.Type{cel.StringType}, cel.BoolType,
		cel.UnaryBinding(func(a ref.Val) ref.Val { return isSemver(a, types.False) }))}
	if version >= 1 {
		toSemver = append(toSemver, cel.Overload("string_bool_to_semver", []*cel.Type{cel.StringType, cel.BoolType}, s, cel.BinaryBinding(stringToSemver)))
		isSemverO = append(isSemverO, cel.Overload("is_semver_string_bool", []*cel.Type{cel.StringType, cel.BoolType}, cel.BoolType, cel.BinaryBinding(isSemver)))
	}
	return envOptions([]funcDecl{
		{"semver", toSemver},
		{"isSemver", isSemverO},
		compare("isGreaterThan", "semver_is_greater_than", cel.BoolType, func(c int) ref.Val { return types.Bool(c == 1) }),
		compare("isLessThan", "semver_is_less_than", cel.BoolType, func(c int) ref.Val { return types.Bool(c == -1) }),
		compare("compareTo", "semver_compare_to", cel.IntType, func(c int) ref.Val { return types.Int(c) }),
		member("major", "semver_major", func(v semver.Version) uint64 { return v.Major }),
		member("minor", "semver_minor", func(v semver.Version) uint64 { return v.Minor }),
		member("patch", "semver_patch", func(v semver.Version) uint64 { return v.Patch }),
	})
}

// parseSemver parses a strict semantic version, or with normalize a
// version that may have a "v" prefix, leading zeros and missing minor or
// patch numbers.
func parseSemver(s string, normalize bool) (semver.Version, error) {
	if !normalize {
		return semver.Parse(s)
	}
	s = strings.TrimPrefix(s, "v")
	parts := strings.SplitN(s, ".", 3)
	for i, p := range parts {
		if len(p) <= 1 {
			continue
		}
		p = strings.TrimLeft(p, "0")
		if p == "" || !isDigit(p[0]) {
			p = "0" + p
		}
		parts[i] = p
	}
	if len(parts) < 3 {
		if strings.ContainsAny(parts[len(parts)-1], "+-") {
			return semver.Version{}, errors.New("short version cannot contain PreRelease/Build meta data")
		}
		for len(parts) < 3 {
			parts = append(parts, "0")
		}
	}
	return semver.Parse(strings.Join(parts, "."))
}

func semverArgs(a, n ref.Val) (string, bool, ref.Val) {
	s, ok := a.Value().(string)
	if !ok {
		return "", false, types.MaybeNoSuchOverloadErr(a)
	}
	normalize, ok := n.Value().(bool)
	if !ok {
		return "", false, types.MaybeNoSuchOverloadErr(a)
	}
	return s, normalize, nil
}

func stringToSemver(a, n ref.Val) ref.Val {
	s, normalize, errv := semverArgs(a, n)
	if errv != nil {
		return errv
	}
	v, err := parseSemver(s, normalize)
	if err != nil {
		return types.WrapErr(err)
	}
	return semverVal{v, semverKind}
}

func isSemver(a, n ref.Val) ref.Val {
	s, normalize, errv := semverArgs(a, n)
	if errv != nil {
		return errv
	}
	_, err := parseSemver(s, normalize)
	return types.Bool(err == nil)
}
