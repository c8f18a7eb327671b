package cellib

import "github.com/google/cel-go/cel"

// Lists returns the Kubernetes list library at the given version. Version 0
// declares isSorted, sum, min, max, indexOf and lastIndexOf; version 1 adds
// includes.
func Lists(version uint32) cel.EnvOption {
	return cel.Lib(&lib{"kubernetes.lists", func() []cel.EnvOption { return listsOptions(version) }, nil})
}

// Regex returns the Kubernetes regular expression library: find and findAll.
func Regex() cel.EnvOption {
	return cel.Lib(&lib{"kubernetes.regex", regexOptions, regexProgramOptions()})
}

// URLs returns the Kubernetes URL library: url, isURL, getScheme, getHost,
// getHostname, getPort, getEscapedPath and getQuery.
func URLs() cel.EnvOption { return cel.Lib(&lib{"kubernetes.urls", urlsOptions, nil}) }

// Quantity returns the Kubernetes resource quantity library: quantity,
// isQuantity, the global sign, and the members isGreaterThan, isLessThan,
// compareTo, asApproximateFloat, asInteger, isInteger, add and sub.
func Quantity() cel.EnvOption { return cel.Lib(&lib{"kubernetes.quantity", quantityOptions, nil}) }

// IP returns the Kubernetes IP address library: ip, isIP, ip.isCanonical,
// string(IP) and the members family, isUnspecified, isLoopback,
// isLinkLocalMulticast, isLinkLocalUnicast and isGlobalUnicast.
func IP() cel.EnvOption { return cel.Lib(&lib{"kubernetes.net.ip", ipOptions, nil}) }

// CIDR returns the Kubernetes CIDR library: cidr, isCIDR, string(CIDR) and
// the members containsIP, containsCIDR, ip, prefixLength and masked.
func CIDR() cel.EnvOption { return cel.Lib(&lib{"kubernetes.net.cidr", cidrOptions, nil}) }

// Format returns the Kubernetes named format library: the constants
// format.dns1123Label() ... format.datetime(), format.named(string) and the
// member validate(string).
func Format() cel.EnvOption { return cel.Lib(&lib{"kubernetes.format", formatOptions, nil}) }

// Semver returns the Kubernetes semantic version library at the given
// version. Version 0 declares semver(string), isSemver(string) and the
// members isGreaterThan, isLessThan, compareTo, major, minor and patch;
// version 1 adds the normalizing overloads semver(string, bool) and
// isSemver(string, bool).
func Semver(version uint32) cel.EnvOption {
	return cel.Lib(&lib{"kubernetes.Semver", func() []cel.EnvOption { return semverOptions(version) }, nil})
}

// Authz returns the declarations of the Kubernetes authorization library
// (types kubernetes.authorization.*, members path, group, serviceAccount,
// resource, subresource, namespace, name, check, allowed, reason, error and
// errored). CRD validation rules have no authorizer variable, so these
// functions can never be reached at runtime; they exist because they change
// the type checker's overload-resolution errors.
func Authz() cel.EnvOption { return cel.Lib(&lib{"kubernetes.authz", authzOptions, nil}) }

// AuthzSelectors returns the declarations of the fieldSelector and
// labelSelector members of kubernetes.authorization.ResourceCheck.
func AuthzSelectors() cel.EnvOption {
	return cel.Lib(&lib{"kubernetes.authzSelectors", authzSelectorsOptions, nil})
}

// lib is one of the Kubernetes libraries: its name, the function that
// declares it and its program options.
type lib struct {
	name    string
	compile func() []cel.EnvOption
	program []cel.ProgramOption
}

func (l *lib) LibraryName() string                 { return l.name }
func (l *lib) CompileOptions() []cel.EnvOption     { return l.compile() }
func (l *lib) ProgramOptions() []cel.ProgramOption { return l.program }
