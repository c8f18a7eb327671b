package openapi

import "github.com/go-openapi/spec"

// v3Paths builds the v3 path items of r.
func (r *resource) v3Paths() map[string]*PathItem {
	groups := groupRoutes(r.routes())
	paths := make(map[string]*PathItem, len(groups))
	for gi := range groups {
		g := &groups[gi]
		item := &PathItem{}
		for _, p := range g.common {
			item.Parameters = append(item.Parameters, v3Parameter(p))
		}
		for i := range g.routes {
			rt := &g.routes[i]
			*byMethod(rt.method, &item.Get, &item.Put, &item.Post, &item.Delete, &item.Patch) = r.v3Operation(g, rt)
		}
		paths[g.path] = item
	}
	return paths
}

// byMethod returns the one of an item's operation fields get, put, post,
// del and patch that holds the operation of method.
func byMethod[O any](method string, get, put, post, del, patch *O) *O {
	switch method {
	case "GET":
		return get
	case "PUT":
		return put
	case "POST":
		return post
	case "DELETE":
		return del
	}
	return patch
}

func v3Parameter(p param) *Parameter {
	return &Parameter{
		Name:        p.name,
		In:          p.in,
		Description: p.description,
		Required:    p.required,
		Schema: &spec.Schema{SchemaProps: spec.SchemaProps{
			Type:        spec.StringOrArray{p.typ},
			UniqueItems: true,
		}},
	}
}

// content is a body of the definition name in each media type.
func (r *resource) content(name string, mediaTypes []string) map[string]*MediaType {
	out := make(map[string]*MediaType, len(mediaTypes))
	for _, m := range mediaTypes {
		out[m] = &MediaType{Schema: &spec.Schema{SchemaProps: spec.SchemaProps{Ref: r.v3Ref(name)}}}
	}
	return out
}

// v3Ref is the reference to the definition name. Parsing a reference is
// costly, and the operations of a document refer to a few definitions many
// times: each is parsed once per document (the references are values; the
// copies share only the parsed URL, which nothing modifies).
func (r *resource) v3Ref(name string) spec.Ref {
	ref, ok := r.refs[name]
	if !ok {
		ref = spec.MustCreateRef(v3RefPrefix + name)
		if r.refs == nil {
			r.refs = make(map[string]spec.Ref)
		}
		r.refs[name] = ref
	}
	return ref
}

func (r *resource) v3Operation(g *pathGroup, rt *route) *Operation {
	op := &Operation{
		Description:      rt.description,
		Action:           rt.action,
		GroupVersionKind: &GroupVersionKind{Group: r.group, Version: r.version, Kind: r.kind},
		Responses: map[string]*Response{
			"200": {Description: "OK", Content: r.content(rt.response, jsonYAML)},
			"401": {Description: "Unauthorized"},
		},
	}
	op.OperationID, op.Tags = operationIDAndTags(rt.operation, rt.path)
	for _, c := range responseCodes(rt.action) {
		op.Responses[c[0]] = &Response{Description: c[1], Content: r.content(rt.response, jsonYAML)}
	}
	for _, p := range g.ownParams(rt) {
		op.Parameters = append(op.Parameters, v3Parameter(p))
	}
	if rt.body != "" {
		op.RequestBody = &RequestBody{Content: r.content(rt.body, rt.consumes), Required: rt.bodyRequired}
	}
	return op
}
