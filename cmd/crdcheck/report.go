package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/yamljson"
)

// report is the result of a run in the shape of the JSON output (see the
// package documentation); the other outputs are rendered from it.
type report struct {
	CRDs    []crdReport    `json:"crds"`
	Objects []objectReport `json:"objects"`
	Summary summary        `json:"summary"`

	failUnchecked bool
	verbose       bool // the text output lists what was accepted or not checked too
}

type crdReport struct {
	File          string       `json:"file"`
	Line          int          `json:"line"`
	Document      int          `json:"document"`
	Item          int          `json:"item,omitempty"`
	Source        string       `json:"source"` // crds | manifests
	Name          string       `json:"name"`
	Status        string       `json:"status"`
	Errors        []fieldError `json:"errors"`
	UnknownFields []string     `json:"unknownFields"`
	Error         string       `json:"error,omitempty"`
	Message       string       `json:"message,omitempty"`

	where string
}

type objectReport struct {
	File          string         `json:"file"`
	Line          int            `json:"line"`
	Document      int            `json:"document"`
	Item          int            `json:"item,omitempty"`
	APIVersion    string         `json:"apiVersion"`
	Kind          string         `json:"kind"`
	Namespace     string         `json:"namespace"`
	Name          string         `json:"name"`
	Operation     string         `json:"operation"`
	Status        string         `json:"status"`
	Errors        []fieldError   `json:"errors"`
	UnknownFields []string       `json:"unknownFields"`
	Warnings      []string       `json:"warnings"` // the API server's warnings: unknown fields, finalizer names
	Error         string         `json:"error,omitempty"`
	Message       string         `json:"message,omitempty"`
	Object        map[string]any `json:"object,omitempty"`
	CheckedBy     []string       `json:"checkedBy,omitempty"` // built-in kinds: the layers of checks that ran

	where string // location for the text output
}

// fieldError is an error as an API status cause carries it, plus its
// whole text.
type fieldError struct {
	Type    string `json:"type"`
	Field   string `json:"field"`
	Detail  string `json:"detail"`
	Message string `json:"message"`
	Line    int    `json:"line,omitempty"`   // the field's line in the file, where known
	Column  int    `json:"column,omitempty"` // and its column
}

type summary struct {
	CRDs         int `json:"crds"`
	CRDsRejected int `json:"crdsRejected"`
	Objects      int `json:"objects"`
	Accepted     int `json:"accepted"`
	Rejected     int `json:"rejected"`
	NotChecked   int `json:"notChecked"`
	Errors       int `json:"errors"`   // documents or files that cannot be read
	Warnings     int `json:"warnings"` // the API server's warnings about objects
}

// newReport assembles the report; accepted more objects were accepted
// without warnings besides the outcomes (see checker.countOnly).
func newReport(crds []*crdEntry, outcomes []outcome, accepted int, failUnchecked bool, stdin []byte) *report {
	loc := &locator{stdin: stdin, files: map[string][]yamljson.Chunk{}}
	r := &report{CRDs: []crdReport{}, Objects: make([]objectReport, 0, len(outcomes)), failUnchecked: failUnchecked}
	for _, e := range crds {
		c := crdReport{
			File: e.doc.file, Line: e.doc.line, Document: e.doc.index, Item: e.doc.item,
			Source: "manifests", Name: e.name, Status: statusAccepted,
			Errors: fieldErrors(e.errs()), UnknownFields: nonNil(e.unknownFields), Error: e.problem,
			where: e.doc.where(),
		}
		if e.fromCRDs {
			c.Source = "crds"
		}
		if e.problem != "" || e.def == nil || len(e.errs()) > 0 {
			c.Status = statusRejected
			r.Summary.CRDsRejected++
		}
		if len(e.errs()) > 0 {
			c.Message = strings.TrimSuffix(invalidMessage("CustomResourceDefinition", e.name, e.errs()), "\n")
		}
		r.CRDs = append(r.CRDs, c)
	}
	r.Summary.CRDs = len(r.CRDs)

	for _, o := range outcomes {
		x := objectReport{
			File: o.doc.file, Line: o.doc.line, Document: o.doc.index, Item: o.doc.item,
			APIVersion: o.apiVersion, Kind: o.kind, Namespace: o.namespace, Name: o.name,
			Operation: o.operation, Status: o.status,
			Errors: fieldErrors(o.errs), UnknownFields: nonNil(o.unknownFields), Warnings: nonNil(o.warnings), Error: o.problem,
			Object: o.result, CheckedBy: o.checkedBy, where: o.doc.where(),
		}
		if x.Status == statusRejected {
			for i, p := range loc.locate(&o.doc, o.errs) {
				x.Errors[i].Line, x.Errors[i].Column = p[0], p[1]
			}
		}
		switch {
		case o.message != "":
			x.Message = o.message
		case len(o.errs) > 0:
			x.Message = strings.TrimSuffix(invalidMessage(o.kind, o.name, o.errs), "\n")
		}
		switch x.Status {
		case statusAccepted:
			r.Summary.Accepted++
		case statusRejected:
			r.Summary.Rejected++
		case statusUnchecked:
			r.Summary.NotChecked++
		case statusError:
			r.Summary.Errors++
		}
		r.Summary.Warnings += len(o.warnings)
		r.Objects = append(r.Objects, x)
	}
	r.Summary.Objects = len(r.Objects) + accepted
	r.Summary.Accepted += accepted
	return r
}

// exitStatus is the run's exit status: input errors first, then
// rejections (of CRDs or objects, or not checked objects with
// -fail-unchecked).
func (r *report) exitStatus() int {
	s := r.Summary
	switch {
	case s.Errors > 0:
		return exitUsage
	case s.CRDsRejected > 0 || s.Rejected > 0 || r.failUnchecked && s.NotChecked > 0:
		return exitRejected
	}
	return exitOK
}

// fieldErrors converts errs for the JSON output. An error about the whole
// object (whose path Kubernetes prints "<nil>") has the field "", as an
// API status cause has; its message keeps kubectl's text.
func fieldErrors(errs crdschema.ErrorList) []fieldError {
	out := make([]fieldError, 0, len(errs))
	for _, e := range errs {
		field := e.Field
		if field == "<nil>" {
			field = ""
		}
		out = append(out, fieldError{Type: string(e.Type), Field: field, Detail: e.Detail, Message: e.Error()})
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// validFormat reports whether crdcheck can write the output format.
func validFormat(f string) bool {
	return slices.Contains([]string{"text", "json", "junit", "tap", "github"}, f)
}

// writeJSON writes v as the JSON output: indented, without HTML escapes.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// verdictText is the text of a verdict after its heading, as kubectl
// prints it: the message, or else the problem, then a "Warning: " line per
// warning.
func verdictText(message, problem string, warnings []string) string {
	var b strings.Builder
	if s := cmp.Or(message, problem); s != "" {
		b.WriteString(s + "\n")
	}
	for _, w := range warnings {
		b.WriteString("Warning: " + w + "\n")
	}
	return b.String()
}

// text is the text of a CRD's verdict after its heading, with kubectl's
// warning for each field the API server drops.
func (c *crdReport) text() string {
	warnings := make([]string, len(c.UnknownFields))
	for i, f := range c.UnknownFields {
		warnings[i] = fmt.Sprintf("unknown field %q", f)
	}
	return verdictText(c.Message, c.Error, warnings)
}

// text is the text of an object's verdict after its heading; the problem
// of a request refused before validation reads "refused: ...".
func (o *objectReport) text() string {
	problem := o.Error
	if o.Operation != "" && problem != "" {
		problem = "refused: " + problem
	}
	return verdictText(o.Message, problem, o.Warnings)
}

// statusWord is how the text output names a status.
func statusWord(s string) string {
	if s == statusUnchecked {
		return "not checked"
	}
	return s
}

// writeText writes the human report: rejected CRDs and objects with
// kubectl's messages, warnings, input errors, what was not checked and the
// summary, with a blank line between two objects. With r.verbose it also
// lists what was accepted or not checked.
func (r *report) writeText(w io.Writer) error {
	b := bufio.NewWriter(w)
	sep := false
	block := func(heading, text string) {
		if sep {
			b.WriteString("\n")
		}
		sep = true
		b.WriteString(heading + "\n" + text)
	}
	for _, e := range r.entries() {
		if !r.verbose && (e.status == statusAccepted && len(e.warnings) == 0 || e.status == statusUnchecked && !r.failUnchecked) {
			continue
		}
		block(e.where+": "+e.name+": "+statusWord(e.status), e.text)
	}
	unchecked := map[string]int{}
	for _, o := range r.Objects {
		if o.Status == statusUnchecked {
			k := strings.TrimSpace(o.APIVersion + " " + o.Kind)
			if isBuiltin(o.APIVersion) {
				k += " (built-in)"
			}
			unchecked[k]++
		}
	}
	if sep {
		b.WriteString("\n")
	}
	s := r.Summary
	if len(unchecked) > 0 {
		kinds := make([]string, 0, len(unchecked))
		for k, n := range unchecked {
			kinds = append(kinds, fmt.Sprintf("%s: %d", k, n))
		}
		sort.Strings(kinds)
		fmt.Fprintf(b, "not checked, no accepted CRD of the input serves their apiVersion and kind: %s\n", strings.Join(kinds, ", "))
	}
	if builtins := builtinChecked.Load(); builtins > 0 {
		fmt.Fprintf(b, "%d object(s) of built-in kinds checked against Kubernetes %s: %s\n", builtins, builtinRelease(), builtinNote)
	}
	fmt.Fprintf(b, "CRDs: %d accepted, %d rejected\n", s.CRDs-s.CRDsRejected, s.CRDsRejected)
	fmt.Fprintf(b, "objects: %d accepted, %d rejected, %d not checked, %d unreadable; %d warning(s)\n",
		s.Accepted, s.Rejected, s.NotChecked, s.Errors, s.Warnings)
	return b.Flush()
}

// writeSummary writes the text output's closing lines: what was not
// checked, and the counts.
func (r *report) writeSummary(w io.Writer) error {
	short := *r
	short.CRDs, short.Objects, short.verbose = nil, nil, false
	return short.writeText(w)
}

// describe names an object (see describeObject), or the file or document
// that holds none.
func describe(o *objectReport) string {
	if o.Kind == "" && o.APIVersion == "" {
		if o.Line == 0 {
			return "file"
		}
		return "document"
	}
	return describeObject(o.Kind, o.Namespace, o.Name, o.APIVersion)
}

// describeObject names an object: "HTTPRoute default/web (gateway.networking.k8s.io/v1)".
func describeObject(kind, namespace, name, apiVersion string) string {
	if namespace != "" {
		name = namespace + "/" + name
	}
	return fmt.Sprintf("%s %s (%s)", kind, name, apiVersion)
}
