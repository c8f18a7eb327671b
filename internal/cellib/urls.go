package cellib

import (
	"net/url"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// URLType is the CEL type of the values returned by url().
var URLType = cel.ObjectType("kubernetes.URL")

// urlRuntimeType is the runtime type reported by URL values: without the
// traits of an object, as quantityRuntimeType.
var urlRuntimeType = URLType.WithTraits(0)

// urlVal is a parsed URL as a CEL value; URLs are equal by their string
// forms.
type urlVal = opaque[*url.URL]

var urlKind = &opaqueKind[*url.URL]{typ: urlRuntimeType, name: "URL",
	equal: func(a, b *url.URL) bool { return a.String() == b.String() }}

// urlsOptions declares the functions of the kubernetes.urls library.
func urlsOptions() []cel.EnvOption {
	accessor := func(fn, id string, get func(*url.URL) string) funcDecl {
		return funcDecl{fn, []cel.FunctionOpt{cel.MemberOverload(id, []*cel.Type{URLType}, cel.StringType,
			cel.UnaryBinding(unary(func(u *url.URL) ref.Val { return types.String(get(u)) })))}}
	}
	return envOptions([]funcDecl{
		{"url", []cel.FunctionOpt{cel.Overload("string_to_url", []*cel.Type{cel.StringType}, URLType, cel.UnaryBinding(unary(stringToURL)))}},
		accessor("getScheme", "url_get_scheme", func(u *url.URL) string { return u.Scheme }),
		accessor("getHost", "url_get_host", func(u *url.URL) string { return u.Host }),
		accessor("getHostname", "url_get_hostname", (*url.URL).Hostname),
		accessor("getPort", "url_get_port", (*url.URL).Port),
		accessor("getEscapedPath", "url_get_escaped_path", (*url.URL).EscapedPath),
		{"getQuery", []cel.FunctionOpt{cel.MemberOverload("url_get_query", []*cel.Type{URLType},
			cel.MapType(cel.StringType, cel.ListType(cel.StringType)), cel.UnaryBinding(unary(urlQuery)))}},
		{"isURL", []cel.FunctionOpt{cel.Overload("is_url_string", []*cel.Type{cel.StringType}, cel.BoolType, cel.UnaryBinding(valid(url.ParseRequestURI)))}},
	})
}

// stringToURL accepts what url.ParseRequestURI accepts (an absolute URI or
// an absolute path) and keeps the url.Parse result, which handles
// fragments correctly.
func stringToURL(s string) ref.Val {
	if _, err := url.ParseRequestURI(s); err != nil {
		return types.NewErr("URL parse error during conversion from string: %v", err)
	}
	u, err := url.Parse(s)
	if err != nil {
		return types.NewErr("URL parse error during conversion from string: %v", err)
	}
	return urlVal{u, urlKind}
}

func urlQuery(u *url.URL) ref.Val {
	q := u.Query()
	m := make(map[ref.Val]ref.Val, len(q))
	for k, vs := range q {
		m[types.String(k)] = types.NewStringList(types.DefaultTypeAdapter, vs)
	}
	return types.NewRefValMap(types.DefaultTypeAdapter, m)
}
