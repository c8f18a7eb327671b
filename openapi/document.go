package openapi

import "github.com/go-openapi/spec"

// Document is an OpenAPI v3.0 document, with the parts that the API server
// fills for a custom resource. Its schemas are go-openapi schemas; marshal
// it with encoding/json.
type Document struct {
	OpenAPI    string               `json:"openapi"`
	Info       *spec.Info           `json:"info"`
	Paths      map[string]*PathItem `json:"paths"`
	Components Components           `json:"components"`
}

// Components holds the schemas that a Document defines, by name.
type Components struct {
	Schemas map[string]*spec.Schema `json:"schemas"`
}

// PathItem is the set of operations on one path, with the parameters they
// all share.
type PathItem struct {
	Get        *Operation   `json:"get,omitempty"`
	Put        *Operation   `json:"put,omitempty"`
	Post       *Operation   `json:"post,omitempty"`
	Delete     *Operation   `json:"delete,omitempty"`
	Patch      *Operation   `json:"patch,omitempty"`
	Parameters []*Parameter `json:"parameters,omitempty"`
}

// Operation is one HTTP method on a path.
type Operation struct {
	Tags        []string             `json:"tags,omitempty"`
	Description string               `json:"description,omitempty"`
	OperationID string               `json:"operationId,omitempty"`
	Parameters  []*Parameter         `json:"parameters,omitempty"`
	RequestBody *RequestBody         `json:"requestBody,omitempty"`
	Responses   map[string]*Response `json:"responses"`
	// Action is the Kubernetes verb of the operation (x-kubernetes-action):
	// get, list, post, put, patch, delete or deletecollection.
	Action string `json:"x-kubernetes-action,omitempty"`
	// GroupVersionKind is the resource the operation is about
	// (x-kubernetes-group-version-kind).
	GroupVersionKind *GroupVersionKind `json:"x-kubernetes-group-version-kind,omitempty"`
}

// GroupVersionKind names a kind of a version of an API group.
type GroupVersionKind struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// Parameter is a path or query parameter of an operation.
type Parameter struct {
	Name        string       `json:"name"`
	In          string       `json:"in"`
	Description string       `json:"description,omitempty"`
	Required    bool         `json:"required,omitempty"`
	Schema      *spec.Schema `json:"schema,omitempty"`
}

// RequestBody is the body an operation reads, by media type.
type RequestBody struct {
	Description string                `json:"description,omitempty"`
	Content     map[string]*MediaType `json:"content,omitempty"`
	Required    bool                  `json:"required,omitempty"`
}

// Response is one response of an operation, by media type.
type Response struct {
	Description string                `json:"description"`
	Content     map[string]*MediaType `json:"content,omitempty"`
}

// MediaType is the schema of a body in one media type.
type MediaType struct {
	Schema *spec.Schema `json:"schema,omitempty"`
}
