package cellib

import (
	"fmt"
	"net/url"
	"reflect"
	"regexp"

	"github.com/crdschema/crdschema/internal/dates"
	"github.com/crdschema/crdschema/internal/k8snames"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// FormatType is the CEL type of the named formats.
var FormatType = cel.ObjectType("kubernetes.NamedFormat")

// Cost constants of the format library.
const (
	// maxFormatNameSize bounds the size of a format value; equality of two
	// formats is priced from it.
	maxFormatNameSize = 64
	// maxFormatRegexSize is the regular-expression size that the static
	// cost of validate assumes for every format.
	maxFormatRegexSize = 128
)

// formatVal is a named string format as a CEL value.
type formatVal struct {
	name     string
	validate func(string) []string
	// regexSize is the size of the regular expression (or an estimate of
	// an equivalent one) that prices a validation at runtime.
	regexSize int
}

func (v formatVal) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion error from 'Format' to '%v'", t)
}

func (v formatVal) ConvertToType(t ref.Type) ref.Val { return convertOpaque(v, FormatType, t) }

// Equal compares formats by name.
func (v formatVal) Equal(other ref.Val) ref.Val {
	o, ok := other.(formatVal)
	if !ok {
		return types.MaybeNoSuchOverloadErr(other)
	}
	return types.Bool(v.name == o.name)
}

func (v formatVal) Type() ref.Type { return FormatType }
func (v formatVal) Value() any     { return v }

// Sizes of the regular expressions the formats stand for.
const (
	uuidPattern     = `(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$`
	base64Pattern   = `^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$`
	base64RegexSize = 84   // the regex size Kubernetes assumes for base64
	urlRegexSize    = 1103 // the regex size Kubernetes assumes for URLs
)

var (
	uuidRegexp   = regexp.MustCompile(uuidPattern)
	base64Regexp = regexp.MustCompile(base64Pattern)
)

// namedFormats are the formats, by the name format.named() takes.
var namedFormats = map[string]formatVal{
	"dns1123Label":           {"DNS1123Label", k8snames.IsDNS1123Label, 30},
	"dns1123Subdomain":       {"DNS1123Subdomain", k8snames.IsDNS1123Subdomain, 60},
	"dns1035Label":           {"DNS1035Label", k8snames.IsDNS1035Label, 30},
	"qualifiedName":          {"QualifiedName", k8snames.IsQualifiedName, 60},
	"dns1123LabelPrefix":     {"DNS1123LabelPrefix", func(s string) []string { return k8snames.IsDNS1123Label(k8snames.MaskTrailingDash(s)) }, 30},
	"dns1123SubdomainPrefix": {"DNS1123SubdomainPrefix", func(s string) []string { return k8snames.IsDNS1123Subdomain(k8snames.MaskTrailingDash(s)) }, 60},
	"dns1035LabelPrefix":     {"DNS1035LabelPrefix", func(s string) []string { return k8snames.IsDNS1035Label(k8snames.MaskTrailingDash(s)) }, 30},
	"labelValue":             {"LabelValue", k8snames.IsValidLabelValue, 40},
	"uri": {"URI", func(s string) []string {
		if _, err := url.ParseRequestURI(s); err != nil {
			return []string{err.Error()}
		}
		return nil
	}, urlRegexSize},
	"uuid":     {"uuid", failing(uuidRegexp.MatchString, "does not match the UUID format"), len(uuidPattern)},
	"byte":     {"byte", failing(base64Regexp.MatchString, "invalid base64"), base64RegexSize},
	"date":     {"date", failing(dates.Date, "invalid date"), len(dates.TimePattern)},
	"datetime": {"datetime", failing(dates.DateTime, "invalid datetime"), len(dates.TimePattern)},
}

// failing is the validation that gives msg for the strings ok rejects.
func failing(ok func(string) bool, msg string) func(string) []string {
	return func(s string) []string {
		if !ok(s) {
			return []string{msg}
		}
		return nil
	}
}

// namedFormatOrder fixes the order in which the constants are declared.
var namedFormatOrder = []string{
	"dns1123Label", "dns1123Subdomain", "dns1035Label", "qualifiedName",
	"dns1123LabelPrefix", "dns1123SubdomainPrefix", "dns1035LabelPrefix", "labelValue",
	"uri", "uuid", "byte", "date", "datetime",
}

// formatOptions declares the functions of the kubernetes.format library.
func formatOptions() []cel.EnvOption {
	decls := []funcDecl{
		{"validate", []cel.FunctionOpt{cel.MemberOverload("format-validate", []*cel.Type{FormatType, cel.StringType},
			cel.OptionalType(cel.ListType(cel.StringType)), cel.BinaryBinding(formatValidate))}},
		{"format.named", []cel.FunctionOpt{cel.Overload("format-named", []*cel.Type{cel.StringType},
			cel.OptionalType(FormatType), cel.UnaryBinding(unary(formatNamed)))}},
	}
	for _, name := range namedFormatOrder {
		f := namedFormats[name]
		fn := "format." + name
		decls = append(decls, funcDecl{fn, []cel.FunctionOpt{cel.Overload(fn, nil, FormatType,
			cel.FunctionBinding(func(...ref.Val) ref.Val { return f }))}})
	}
	return envOptions(decls)
}

func formatNamed(name string) ref.Val {
	f, ok := namedFormats[name]
	if !ok {
		return types.OptionalNone
	}
	return types.OptionalOf(f)
}

// formatValidate returns none when s has the format, else the reasons it
// has not.
func formatValidate(a, b ref.Val) ref.Val {
	f, ok := a.(formatVal)
	if !ok {
		return types.MaybeNoSuchOverloadErr(a)
	}
	s, ok := b.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(b)
	}
	errs := f.validate(s)
	if len(errs) == 0 {
		return types.OptionalNone
	}
	return types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, errs))
}
