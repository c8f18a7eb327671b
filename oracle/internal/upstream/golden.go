package upstream

// The golden result: what the oracle writes to X.golden.json. The shape is
// specified in ../conformance/README.md. Maps are used for JSON objects so
// that encoding/json writes the keys sorted.

import (
	"bytes"
	"encoding/json"
	"regexp"
	"sort"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Golden is the whole result of one case.
type Golden struct {
	CRD      CRDResult        `json:"crd"`
	OpenAPI  *OpenAPIResult   `json:"openapi,omitempty"`
	Requests []*RequestResult `json:"requests,omitempty"`
}

// Struct fields are declared in alphabetical order of their JSON names, so
// that all keys of a golden come out sorted.

type CRDResult struct {
	CELCosts      []CELCost    `json:"celCosts"`
	Errors        []FieldError `json:"errors"`
	ErrorsOrdered bool         `json:"errorsOrdered,omitempty"`
	UnknownFields []string     `json:"unknownFields,omitempty"`
}

type CELCost struct {
	Cardinality uint64 `json:"cardinality"`
	Cost        uint64 `json:"cost"`
	Field       string `json:"field"`
	Rule        string `json:"rule"`
}

type OpenAPIResult struct {
	V2 json.RawMessage `json:"v2"`
	V3 json.RawMessage `json:"v3"`
}

type RequestResult struct {
	// RequestError is set when the server rejects the request before
	// validation (the body cannot be decoded, wrong namespace, ...). Then
	// nothing else is recorded.
	Errors        []FieldError           `json:"errors"`
	ErrorsOrdered bool                   `json:"errorsOrdered,omitempty"`
	Object        map[string]interface{} `json:"object,omitempty"`
	RequestError  string                 `json:"requestError,omitempty"`
	Table         *Table                 `json:"table,omitempty"`
	UnknownFields []string               `json:"unknownFields,omitempty"`
}

type FieldError struct {
	Detail  string `json:"detail"`
	Field   string `json:"field"`
	Message string `json:"message"`
	Type    string `json:"type"`
}

type Table struct {
	Cells   []interface{} `json:"cells"`
	Columns []Column      `json:"columns"`
}

type Column struct {
	Description string `json:"description"`
	Format      string `json:"format"`
	Name        string `json:"name"`
	Priority    int32  `json:"priority"`
	Type        string `json:"type"`
}

// selfTypeRE matches the CEL type name upstream generates for the type of
// `self` from the current time (compilation.go: generateUniqueSelfTypeName).
// It shows up in some compilation errors; it is replaced by a fixed marker so
// that goldens are stable.
var selfTypeRE = regexp.MustCompile(`selfType[0-9]+`)

// pointerRE matches a pointer as Go's %#v prints it, (*T)(0xc000123456).
// Releases before 1.34 print the whole invalid value of some errors that way
// (a CRD version list, a validation rule); the address changes from run to
// run, so it is replaced by a fixed marker.
var pointerRE = regexp.MustCompile(`\)\(0x[0-9a-f]+\)`)

func stabilize(s string) string {
	return pointerRE.ReplaceAllString(selfTypeRE.ReplaceAllString(s, "selfType<N>"), ")(0x<ptr>)")
}

// toFieldErrors converts upstream's field errors, in upstream's order.
func toFieldErrors(errs field.ErrorList) []FieldError {
	out := make([]FieldError, 0, len(errs))
	for _, e := range errs {
		out = append(out, FieldError{
			Type:    string(e.Type),
			Field:   stabilize(e.Field),
			Detail:  stabilize(e.Detail),
			Message: stabilize(e.Error()),
		})
	}
	return out
}

// SortFieldErrors puts errors in the goldens' canonical order: by field,
// type, detail and message. Upstream produces some errors by iterating Go
// maps (schema properties, object keys, labels), so their order can change
// from run to run; a list whose order is not the same in every run is
// written in this order and compared as a multiset (see
// conformance/testdata/README.md).
func SortFieldErrors(errs []FieldError) {
	sort.SliceStable(errs, func(i, j int) bool {
		a, b := errs[i], errs[j]
		if a.Field != b.Field {
			return a.Field < b.Field
		}
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		if a.Detail != b.Detail {
			return a.Detail < b.Detail
		}
		return a.Message < b.Message
	})
}

// ErrorLists returns the error lists of a golden, the CRD's first, then
// each request's, each with its ErrorsOrdered flag.
func ErrorLists(g *Golden) (lists []*[]FieldError, ordered []*bool) {
	lists = append(lists, &g.CRD.Errors)
	ordered = append(ordered, &g.CRD.ErrorsOrdered)
	for _, r := range g.Requests {
		lists = append(lists, &r.Errors)
		ordered = append(ordered, &r.ErrorsOrdered)
	}
	return lists, ordered
}

// MarshalGolden renders v as the golden file content: two-space indented
// JSON, keys of maps sorted, no HTML escaping, trailing newline.
func MarshalGolden(v interface{}) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// canonicalJSON re-encodes raw JSON so that object keys are sorted.
func canonicalJSON(raw []byte) (json.RawMessage, error) {
	var v interface{}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return json.RawMessage(bytes.TrimRight(buf.Bytes(), "\n")), nil
}
