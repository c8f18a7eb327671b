package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/crdschema/crdschema"
)

// report is the result of a run in the shape of the JSON output (see the
// package documentation); the text output is rendered from it.
type report struct {
	CRDs    []crdReport    `json:"crds"`
	Objects []objectReport `json:"objects"`
	Summary summary        `json:"summary"`
}

type crdReport struct {
	File          string       `json:"file"`
	Document      int          `json:"document"`
	Name          string       `json:"name"`
	Status        string       `json:"status"`
	Errors        []fieldError `json:"errors"`
	UnknownFields []string     `json:"unknownFields"`
	Error         string       `json:"error,omitempty"`
	Message       string       `json:"message,omitempty"`
}

type objectReport struct {
	File          string       `json:"file"`
	Document      int          `json:"document"`
	Item          int          `json:"item,omitempty"`
	APIVersion    string       `json:"apiVersion"`
	Kind          string       `json:"kind"`
	Namespace     string       `json:"namespace"`
	Name          string       `json:"name"`
	Operation     string       `json:"operation"`
	Status        string       `json:"status"`
	Errors        []fieldError `json:"errors"`
	UnknownFields []string     `json:"unknownFields"`
	Error         string       `json:"error,omitempty"`
	Message       string       `json:"message,omitempty"`

	where string // location for the text output
}

// fieldError is an error as an API status cause carries it, plus its
// whole text.
type fieldError struct {
	Type    string `json:"type"`
	Field   string `json:"field"`
	Detail  string `json:"detail"`
	Message string `json:"message"`
}

type summary struct {
	CRDs         int `json:"crds"`
	CRDsRejected int `json:"crdsRejected"`
	Objects      int `json:"objects"`
	Accepted     int `json:"accepted"`
	Rejected     int `json:"rejected"`
	Skipped      int `json:"skipped"`
	Warnings     int `json:"warnings"` // unknown fields of objects
}

// newReport assembles the report. With strictKinds, objects whose kind
// no CRD serves count as rejected.
func newReport(cat *catalog, outcomes []outcome, strictKinds bool) *report {
	r := &report{CRDs: []crdReport{}, Objects: make([]objectReport, 0, len(outcomes))}
	for _, e := range cat.crds {
		c := crdReport{
			File: e.file, Document: e.document, Name: e.name, Status: statusAccepted,
			Errors: fieldErrors(e.errs), UnknownFields: nonNil(e.unknownFields), Error: e.problem,
		}
		if !e.accepted() {
			c.Status = statusRejected
			r.Summary.CRDsRejected++
		}
		if len(e.errs) > 0 {
			c.Message = strings.TrimSuffix(invalidMessage("CustomResourceDefinition", e.name, e.errs), "\n")
		}
		r.CRDs = append(r.CRDs, c)
	}
	r.Summary.CRDs = len(r.CRDs)

	for _, o := range outcomes {
		x := objectReport{
			File: o.doc.file, Document: o.doc.document, Item: o.doc.item,
			APIVersion: o.apiVersion, Kind: o.kind, Namespace: o.namespace, Name: o.name,
			Operation: o.operation, Status: o.status,
			Errors: fieldErrors(o.errs), UnknownFields: nonNil(o.unknownFields), Error: o.problem,
			where: o.doc.where(),
		}
		if o.status == statusSkipped && strictKinds {
			x.Status = statusRejected
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
		case statusSkipped:
			r.Summary.Skipped++
		}
		r.Summary.Warnings += len(o.unknownFields)
		r.Objects = append(r.Objects, x)
	}
	r.Summary.Objects = len(r.Objects)
	return r
}

// failed reports whether the exit status is exitRejected.
func (r *report) failed() bool {
	return r.Summary.CRDsRejected > 0 || r.Summary.Rejected > 0
}

func fieldErrors(errs crdschema.ErrorList) []fieldError {
	out := make([]fieldError, 0, len(errs))
	for _, e := range errs {
		out = append(out, fieldError{Type: string(e.Type), Field: e.Field, Detail: e.Detail, Message: e.Error()})
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (r *report) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// writeText writes the human report: rejected CRDs and objects with
// kubectl's messages, warnings, skipped kinds and the summary. verbose also
// lists what was accepted or skipped.
func (r *report) writeText(w io.Writer, verbose bool) error {
	b := bufio.NewWriter(w)
	for _, c := range r.CRDs {
		if c.Status == statusAccepted && len(c.UnknownFields) == 0 && !verbose {
			continue
		}
		fmt.Fprintf(b, "%s#%d: CustomResourceDefinition %s: %s\n", c.File, c.Document, c.Name, c.Status)
		switch {
		case c.Message != "":
			fmt.Fprintln(b, c.Message)
		case c.Error != "":
			fmt.Fprintln(b, c.Error)
		}
		for _, f := range c.UnknownFields {
			b.WriteString(unknownFieldWarning(f))
		}
	}

	skipped := map[string]int{}
	for _, o := range r.Objects {
		if o.Status == statusSkipped {
			skipped[strings.TrimSpace(o.APIVersion+" "+o.Kind)]++
			if !verbose {
				continue
			}
		}
		if o.Status == statusAccepted && len(o.UnknownFields) == 0 && !verbose {
			continue
		}
		fmt.Fprintf(b, "%s: %s: %s\n", o.where, describe(&o), o.Status)
		switch {
		case o.Message != "":
			fmt.Fprintln(b, o.Message)
		case o.Operation != "" && o.Error != "":
			fmt.Fprintln(b, "refused:", o.Error)
		case o.Error != "":
			fmt.Fprintln(b, o.Error)
		}
		for _, f := range o.UnknownFields {
			b.WriteString(unknownFieldWarning(f))
		}
	}

	s := r.Summary
	if len(skipped) > 0 {
		kinds := make([]string, 0, len(skipped))
		for k, n := range skipped {
			kinds = append(kinds, fmt.Sprintf("%s (%d)", k, n))
		}
		sort.Strings(kinds)
		fmt.Fprintf(b, "skipped %d object(s) whose apiVersion and kind no CRD serves: %s\n", s.Skipped, strings.Join(kinds, ", "))
	}
	fmt.Fprintf(b, "CRDs: %d accepted, %d rejected\n", s.CRDs-s.CRDsRejected, s.CRDsRejected)
	fmt.Fprintf(b, "objects: %d accepted, %d rejected, %d skipped; %d unknown-field warning(s)\n",
		s.Accepted, s.Rejected, s.Skipped, s.Warnings)
	return b.Flush()
}

// describe names an object: "HTTPRoute default/web (gateway.networking.k8s.io/v1)".
func describe(o *objectReport) string {
	if o.Kind == "" && o.APIVersion == "" {
		return "document"
	}
	name := o.Name
	if o.Namespace != "" {
		name = o.Namespace + "/" + name
	}
	return fmt.Sprintf("%s %s (%s)", o.Kind, name, o.APIVersion)
}
