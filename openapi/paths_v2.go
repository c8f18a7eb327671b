package openapi

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/go-openapi/spec"
)

// v2Paths builds the v2 path items of r.
func (r *resource) v2Paths() map[string]spec.PathItem {
	groups := groupRoutes(r.routes())
	paths := make(map[string]spec.PathItem, len(groups))
	for gi := range groups {
		g := &groups[gi]
		var item spec.PathItem
		for _, p := range g.common {
			item.Parameters = append(item.Parameters, v2Parameter(p))
		}
		for i := range g.routes {
			rt := &g.routes[i]
			*byMethod(rt.method, &item.Get, &item.Put, &item.Post, &item.Delete, &item.Patch) = r.v2Operation(g, rt)
		}
		paths[g.path] = item
	}
	return paths
}

func v2Parameter(p param) spec.Parameter {
	return spec.Parameter{
		ParamProps:        spec.ParamProps{Name: p.name, In: p.in, Description: p.description, Required: p.required},
		SimpleSchema:      spec.SimpleSchema{Type: p.typ},
		CommonValidations: spec.CommonValidations{UniqueItems: true},
	}
}

func (r *resource) v2Operation(g *pathGroup, rt *route) *spec.Operation {
	op := &spec.Operation{}
	op.Description = rt.description
	op.Consumes = append([]string(nil), rt.consumes...)
	op.Produces = append([]string(nil), jsonYAML...)
	op.Schemes = []string{"https"}
	op.ID, op.Tags = operationIDAndTags(rt.operation, rt.path)
	op.AddExtension("x-kubernetes-action", rt.action)
	op.AddExtension(extGroupVersionKind, map[string]any{"group": r.group, "version": r.version, "kind": r.kind})

	resp := func(text string) spec.Response {
		return spec.Response{ResponseProps: spec.ResponseProps{
			Description: text,
			Schema:      spec.RefSchema(v2RefPrefix + rt.response),
		}}
	}
	codes := map[int]spec.Response{200: resp("OK"), 401: {ResponseProps: spec.ResponseProps{Description: "Unauthorized"}}}
	for _, c := range responseCodes(rt.action) {
		code, _ := strconv.Atoi(c[0])
		codes[code] = resp(c[1])
	}
	op.Responses = &spec.Responses{ResponsesProps: spec.ResponsesProps{StatusCodeResponses: codes}}

	for _, p := range g.ownParams(rt) {
		op.Parameters = append(op.Parameters, v2Parameter(p))
	}
	if rt.body != "" {
		op.Parameters = append(op.Parameters, spec.Parameter{ParamProps: spec.ParamProps{
			Name: "body", In: "body", Required: rt.bodyRequired, Schema: spec.RefSchema(v2RefPrefix + rt.body)}})
	}
	slices.SortStableFunc(op.Parameters, func(a, b spec.Parameter) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.In, b.In))
	})
	return op
}
