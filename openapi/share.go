package openapi

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"hash/fnv"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/go-openapi/spec"
)

// shareParameters moves the parameters of doc's operations and paths into
// doc.Parameters and refers to them by $ref, as the API server does for
// OpenAPI v2. Each distinct parameter is shared once, under its name, a
// dash and a hash of its JSON. Parameters named "name", the fieldValidation
// and dryRun query parameters, and body parameters of the custom
// resource's own kinds stay where they are.
func shareParameters(doc *spec.Swagger) {
	byJSON := map[string]spec.Parameter{}
	visit := func(p *spec.Parameter) {
		if !shareable(p) {
			return
		}
		k := parameterJSON(p)
		if _, ok := byJSON[k]; !ok {
			byJSON[k] = *p
		}
	}
	for _, item := range doc.Paths.Paths {
		for _, op := range operations(&item) {
			for i := range op.Parameters {
				visit(&op.Parameters[i])
			}
		}
		for i := range item.Parameters {
			visit(&item.Parameters[i])
		}
	}
	if len(byJSON) == 0 {
		return
	}

	keys := slices.Sorted(maps.Keys(byJSON))
	doc.Parameters = make(map[string]spec.Parameter, len(keys))
	names := make(map[string]string, len(keys))
	for _, k := range keys {
		p := byJSON[k]
		name := cmp.Or(p.Name, "param") + "-" + contentHash(k)
		// On the (unlikely) clash of two hashes, the API server numbers
		// the later parameter, without the "param" fallback.
		for i := 1; ; i++ {
			if _, taken := doc.Parameters[name]; !taken {
				break
			}
			name = p.Name + "-" + strconv.Itoa(i)
		}
		doc.Parameters[name] = p
		names[k] = name
	}

	replace := func(ps []spec.Parameter) {
		for i := range ps {
			if !shareable(&ps[i]) {
				continue
			}
			if name, ok := names[parameterJSON(&ps[i])]; ok {
				ps[i] = spec.Parameter{Refable: spec.Refable{Ref: spec.MustCreateRef("#/parameters/" + name)}}
			}
		}
	}
	for path, item := range doc.Paths.Paths {
		for _, op := range operations(&item) {
			replace(op.Parameters)
		}
		replace(item.Parameters)
		doc.Paths.Paths[path] = item
	}
}

func operations(item *spec.PathItem) []*spec.Operation {
	return slices.DeleteFunc([]*spec.Operation{item.Get, item.Put, item.Post, item.Delete, item.Options, item.Head, item.Patch},
		func(op *spec.Operation) bool { return op == nil })
}

// shareable reports whether a parameter may be shared.
func shareable(p *spec.Parameter) bool {
	switch {
	case p.Ref.String() != "":
		return false
	case (p.In == "query" || p.In == "path") && p.Name == "name":
		return false
	case p.In == "query" && (p.Name == "fieldValidation" || p.Name == "dryRun"):
		return false
	case p.In == "body" && p.Name == "body" && p.Schema != nil &&
		!strings.HasPrefix(p.Schema.Ref.String(), v2RefPrefix+"io.k8s.apimachinery"):
		return false
	}
	return true
}

// contentHash is the first 6 bytes of the 64-bit FNV-1 hash of s, in
// URL-safe base64 (8 characters).
func contentHash(s string) string {
	h := fnv.New64()
	h.Write([]byte(s))
	return base64.URLEncoding.EncodeToString(h.Sum(nil)[:6])
}

// parameterJSON is the JSON the API server hashes for a parameter: its
// keywords in the order of the server's parameter type (validations, then
// the simple schema, then the parameter's own properties), without HTML
// escaping. It covers the keywords this package's parameters use.
func parameterJSON(p *spec.Parameter) string {
	type ref struct {
		Ref string `json:"$ref"`
	}
	v := struct {
		UniqueItems bool   `json:"uniqueItems,omitempty"`
		Type        string `json:"type,omitempty"`
		Format      string `json:"format,omitempty"`
		Description string `json:"description,omitempty"`
		Name        string `json:"name,omitempty"`
		In          string `json:"in,omitempty"`
		Required    bool   `json:"required,omitempty"`
		Schema      *ref   `json:"schema,omitempty"`
	}{p.UniqueItems, p.Type, p.Format, p.Description, p.Name, p.In, p.Required, nil}
	if p.Schema != nil {
		v.Schema = &ref{p.Schema.Ref.String()}
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n") // the newline Encode adds
}
