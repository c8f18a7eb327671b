package openapi

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
)

// route is one operation the API server serves for a custom resource, in a
// form that both document versions are built from.
type route struct {
	path   string
	method string // GET, POST, PUT, PATCH or DELETE
	// action is the x-kubernetes-action: get, list, post, put, patch,
	// delete or deletecollection.
	action      string
	operation   string // the operation name the ID is derived from
	description string
	response    string // definition name of the 200 response
	// body is the definition name of the request body; "" for none.
	body         string
	bodyRequired bool
	params       []param // every parameter but the body
	consumes     []string
}

// param is a path or query parameter of a route.
type param struct {
	name, in, description, typ string
	required                   bool
}

// queryParameter is one query parameter of an options type.
type queryParameter struct {
	name, typ, description string
}

// The media types operations read and write; never modified.
var (
	jsonYAML   = []string{"application/json", "application/yaml"}
	patchTypes = []string{"application/json-patch+json", "application/merge-patch+json", "application/apply-patch+yaml"}
)

// routes lists the operations served for r, as the API server registers
// them.
func (r *resource) routes() []route {
	kindName := modelName(r.group, r.version, r.kind)
	listName := modelName(r.group, r.version, r.listKind)
	var out []route
	root := "/apis/" + r.group + "/" + r.version + "/" + r.plural
	if r.namespaced {
		all := r.route(root, "", "GET", "list", "list", listName, "")
		all.operation = "list" + r.kind + "ForAllNamespaces"
		out = append(out, all)
		root = "/apis/" + r.group + "/" + r.version + "/namespaces/{namespace}/" + r.plural
	}
	out = append(out,
		r.route(root, "", "GET", "list", "list", listName, ""),
		r.route(root, "", "POST", "post", "create", kindName, kindName),
		r.route(root, "", "DELETE", "deletecollection", "deletecollection", statusName, ""),
		r.route(root, "/{name}", "GET", "get", "read", kindName, ""),
		r.route(root, "/{name}", "PUT", "put", "replace", kindName, kindName),
		r.route(root, "/{name}", "DELETE", "delete", "delete", statusName, deleteOptionsName),
		r.route(root, "/{name}", "PATCH", "patch", "patch", kindName, patchName),
	)
	if r.status {
		out = append(out,
			r.route(root, "/{name}/status", "GET", "get", "read", kindName, ""),
			r.route(root, "/{name}/status", "PUT", "put", "replace", kindName, kindName),
			r.route(root, "/{name}/status", "PATCH", "patch", "patch", kindName, patchName),
		)
	}
	if r.scale {
		out = append(out,
			r.route(root, "/{name}/scale", "GET", "get", "read", scaleName, ""),
			r.route(root, "/{name}/scale", "PUT", "put", "replace", scaleName, scaleName),
			r.route(root, "/{name}/scale", "PATCH", "patch", "patch", scaleName, patchName),
		)
	}
	return out
}

// route builds one route; sub is "", "/{name}" or "/{name}/<subresource>".
func (r *resource) route(root, sub, method, action, verb, response, body string) route {
	subresource := ""
	if parts := strings.Split(sub, "/"); len(parts) == 3 {
		subresource = parts[2]
	}
	namespaced := ""
	if r.namespaced {
		namespaced = "Namespaced"
	}
	rt := route{
		path:         root + sub,
		method:       method,
		action:       action,
		operation:    verb + namespaced + r.kind + titleCase(subresource),
		description:  r.describe(subresource, verb),
		response:     response,
		body:         body,
		bodyRequired: body != "" && action != "delete",
		consumes:     jsonYAML,
	}
	if method == "PATCH" {
		rt.consumes = patchTypes
	}
	rt.params = append(rt.params, param{name: "pretty", in: "query", description: prettyDescription, typ: "string"})
	if strings.Contains(rt.path, "{namespace}") {
		rt.params = append(rt.params, param{name: "namespace", in: "path", description: namespaceDescription, typ: "string", required: true})
	}
	if strings.Contains(rt.path, "{name}") {
		rt.params = append(rt.params, param{name: "name", in: "path", description: "name of the " + r.kind, typ: "string", required: true})
	}
	for _, q := range r.builtins().parameters(optionsOf(action)) {
		rt.params = append(rt.params, param{name: q.name, in: "query", description: q.description, typ: q.typ})
	}
	return rt
}

// optionsOf is the options type whose fields are the query parameters of
// an action.
func optionsOf(action string) string {
	switch action {
	case "list", "deletecollection":
		return "list"
	case "post":
		return "create"
	case "put":
		return "update"
	}
	return action // get, patch, delete
}

// responseCodes are the status codes an action answers with beside 200
// and their texts.
func responseCodes(action string) [][2]string {
	switch action {
	case "post":
		return [][2]string{{"201", "Created"}, {"202", "Accepted"}}
	case "delete":
		return [][2]string{{"202", "Accepted"}}
	case "put":
		return [][2]string{{"201", "Created"}}
	}
	return nil
}

// describe is the description of an operation.
func (r *resource) describe(subresource, verb string) string {
	sub := ""
	if subresource != "" {
		sub = " " + subresource + " of"
	}
	switch verb {
	case "list":
		return verb + sub + " objects of kind " + r.kind
	case "read", "replace":
		return verb + sub + " the specified " + r.kind
	case "patch":
		return "partially update" + sub + " the specified " + r.kind
	case "create", "delete":
		return verb + sub + article(r.kind) + r.kind
	case "deletecollection":
		if sub != "" {
			sub += " a"
		}
		return "delete collection of" + sub + " " + r.kind
	}
	return verb + sub + r.kind
}

// article is " a " or " an " before a noun, or " " before a plural.
func article(noun string) string {
	if strings.HasSuffix(noun, "s") && !strings.HasSuffix(noun, "ss") {
		return " "
	}
	if noun != "" && strings.ContainsRune("aeiou", unicode.ToLower(rune(noun[0]))) {
		return " an "
	}
	return " a "
}

// titleCase upper-cases the first letter of a subresource name and
// lower-cases the rest.
func titleCase(s string) string {
	if s == "" {
		return ""
	}
	r := []rune(strings.ToLower(s))
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// operationVerbs are the verbs an operation name may start with.
var operationVerbs = [...]string{"get", "log", "read", "replace", "patch", "delete", "deletecollection", "watch", "connect", "proxy", "list", "create"}

// operationIDAndTags derives an operation's ID and tags from its name and
// its path, /apis/<group>/<version>/..., as the API server does: the
// shortest verb the name starts with, then the group (without .k8s.io)
// and version in camel case, then the rest of the name; the tag is
// group_version. (The API server's function also takes the core group's
// /api paths and names without a verb, which no route here has.)
func operationIDAndTags(operation, path string) (string, []string) {
	verb := ""
	for _, v := range operationVerbs {
		if strings.HasPrefix(operation, v) && (verb == "" || len(v) < len(verb)) {
			verb = v
		}
	}
	group, rest, _ := strings.Cut(strings.TrimPrefix(path, "/apis/"), "/")
	group = strings.TrimSuffix(group, ".k8s.io")
	version, _, _ := strings.Cut(rest, "/")
	id := verb + validOperationID(group, true) + validOperationID(version, true) + validOperationID(operation[len(verb):], true)
	return id, []string{validOperationID(group, false) + "_" + validOperationID(version, false)}
}

// validOperationID keeps the letters, underscores and (not first) digits of
// s, upper-casing the letter after each character dropped, and the first
// one when capitalize is set.
func validOperationID(s string, capitalize bool) string {
	var b strings.Builder
	up := capitalize
	for i, r := range s {
		if unicode.IsLetter(r) || r == '_' || (i != 0 && unicode.IsDigit(r)) {
			if up {
				r = unicode.ToUpper(r)
				up = false
			}
			b.WriteRune(r)
		} else {
			up = true
		}
	}
	return b.String()
}

// pathGroup is the routes of one path, with the parameters all of them
// take (which are published once for the path).
type pathGroup struct {
	path   string
	routes []route
	common []param
}

// groupRoutes groups routes by path, in the order of first appearance, and
// finds each path's common parameters, sorted by name and location.
func groupRoutes(routes []route) []pathGroup {
	var groups []pathGroup
	index := map[string]int{}
	for _, rt := range routes {
		i, ok := index[rt.path]
		if !ok {
			i = len(groups)
			index[rt.path] = i
			groups = append(groups, pathGroup{path: rt.path})
		}
		groups[i].routes = append(groups[i].routes, rt)
	}
	for gi := range groups {
		g := &groups[gi]
		type key struct{ name, in string }
		count := map[key]int{}
		last := map[key]param{}
		for _, rt := range g.routes {
			for _, p := range rt.params {
				k := key{p.name, p.in}
				count[k]++
				last[k] = p
			}
		}
		for k, n := range count {
			if n == len(g.routes) {
				g.common = append(g.common, last[k])
			}
		}
		sortParams(g.common)
	}
	return groups
}

func sortParams(ps []param) {
	slices.SortFunc(ps, func(a, b param) int { return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.in, b.in)) })
}

// ownParams are the parameters of rt, body aside, that are not common to
// its path, sorted by name and location.
func (g *pathGroup) ownParams(rt *route) []param {
	var out []param
	for _, p := range rt.params {
		if !slices.ContainsFunc(g.common, func(c param) bool { return c.name == p.name && c.in == p.in }) {
			out = append(out, p)
		}
	}
	sortParams(out)
	return out
}
