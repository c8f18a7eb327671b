package main

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
)

// output is the result of a command as the formats write it.
type output interface {
	entries() []entry               // the CRDs and objects, for JUnit, TAP and GitHub
	writeText(w io.Writer) error    // the text output
	writeSummary(w io.Writer) error // its closing lines, after GitHub's annotations
}

// writeOutput writes o in format: JSON (o itself), JUnit, TAP, GitHub
// annotations followed by the summary, or text.
func writeOutput(w io.Writer, format string, o output) error {
	switch format {
	case "json":
		return writeJSON(w, o)
	case "junit":
		return writeJUnit(w, o.entries())
	case "tap":
		return writeTAP(w, o.entries())
	case "github":
		return writeGitHub(w, o.entries(), o.writeSummary)
	}
	return o.writeText(w)
}

// entry is one line of a CI report: a CRD or an object.
type entry struct {
	file    string
	line    int
	where   string
	name    string // what it is: "HTTPRoute default/web (gateway.networking.k8s.io/v1)"
	status  string
	failed  bool   // counts as a failure: rejected, or not checked with -fail-unchecked
	summary string // one line: why refused, unreadable or not checked
	text    string // the whole text, as the text output shows it

	warnings  []string // what to warn about, each a line
	warnTitle string   // the title of the GitHub annotation of a warning

	errors []fieldError // the field errors of a refusal, with their lines where known
}

// entries lists the CRDs and objects in report order.
func (r *report) entries() []entry {
	out := make([]entry, 0, len(r.CRDs)+len(r.Objects))
	for _, c := range r.CRDs {
		e := entry{file: c.File, line: c.Line, where: c.where, name: "CustomResourceDefinition " + c.Name, status: c.Status, text: c.text(),
			warnTitle: "crdcheck: unknown field"}
		e.failed = e.status == statusRejected
		for _, f := range c.UnknownFields {
			e.warnings = append(e.warnings, fmt.Sprintf("%s: unknown field %q (the API server drops it)", e.name, f))
		}
		out = append(out, e.withSummary())
	}
	for _, o := range r.Objects {
		e := entry{file: o.File, line: o.Line, where: o.where, name: describe(&o), status: o.Status, text: o.text(),
			warnTitle: "crdcheck: warning", errors: o.Errors}
		e.failed = e.status == statusRejected || e.status == statusUnchecked && r.failUnchecked
		for _, w := range o.Warnings {
			e.warnings = append(e.warnings, fmt.Sprintf("%s: %s", e.name, w))
		}
		out = append(out, e.withSummary())
	}
	return out
}

func (e entry) withSummary() entry {
	first, _, _ := strings.Cut(strings.TrimSpace(e.text), "\n")
	e.summary = strings.TrimSuffix(first, ": ")
	if strings.HasSuffix(first, "is invalid: ") || strings.HasSuffix(first, "is invalid:") {
		e.summary = strings.TrimSpace(first)
	}
	return e
}

// JUnit XML, as Jenkins, GitLab and most CI systems read it.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitProblem `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"` // the warnings, "Warning: ..." lines
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// writeJUnit writes one test suite per file, one test case per CRD or
// object: a failure when rejected, an error when unreadable, skipped when
// not checked; warnings go to the case's system-out.
func writeJUnit(w io.Writer, entries []entry) error {
	all := junitSuites{Name: "crdcheck"}
	index := map[string]int{}
	for _, e := range entries {
		i, ok := index[e.file]
		if !ok {
			i = len(all.Suites)
			index[e.file] = i
			all.Suites = append(all.Suites, junitSuite{Name: e.file})
		}
		s := &all.Suites[i]
		c := junitCase{Name: e.where + ": " + e.name, Classname: e.file, File: e.file, Line: e.line}
		for _, w := range e.warnings {
			c.SystemOut += "Warning: " + w + "\n"
		}
		p := &junitProblem{Message: e.summary, Type: e.status, Text: e.text}
		switch {
		case e.failed:
			c.Failure = p
			s.Failures++
		case e.status == statusError:
			c.Error = p
			s.Errors++
		case e.status == statusUnchecked:
			c.Skipped = &junitProblem{Message: e.summary}
			s.Skipped++
		}
		s.Tests++
		s.Cases = append(s.Cases, c)
	}
	for _, s := range all.Suites {
		all.Tests += s.Tests
		all.Failures += s.Failures
		all.Errors += s.Errors
		all.Skipped += s.Skipped
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(all); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// writeTAP writes the Test Anything Protocol, version 13: a test point
// per CRD and object, with the text of a refusal as a YAML diagnostic
// block and "# SKIP" for objects not checked.
func writeTAP(w io.Writer, es []entry) error {
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, "TAP version 13\n1..%d\n", len(es))
	for i, e := range es {
		desc := tapEscape(e.where + ": " + e.name)
		switch {
		case e.status == statusAccepted:
			fmt.Fprintf(b, "ok %d - %s\n", i+1, desc)
		case e.status == statusUnchecked && !e.failed:
			fmt.Fprintf(b, "ok %d - %s # SKIP %s\n", i+1, desc, tapEscape(e.summary))
		default:
			fmt.Fprintf(b, "not ok %d - %s\n", i+1, desc)
			fmt.Fprintf(b, "  ---\n  status: %s\n  message: |\n", statusWord(e.status))
			for _, l := range strings.Split(strings.TrimRight(e.text, "\n"), "\n") {
				fmt.Fprintf(b, "    %s\n", l)
			}
			fmt.Fprintf(b, "  at: %q\n  ...\n", e.where)
		}
	}
	return b.Flush()
}

// tapEscape keeps a description on one line and its '#' from starting a
// directive.
func tapEscape(s string) string {
	s = strings.ReplaceAll(s, "\\", "\\\\")
	s = strings.ReplaceAll(s, "#", "\\#")
	return strings.ReplaceAll(s, "\n", " ")
}

// writeGitHub writes GitHub Actions workflow commands: an error
// annotation on the first line of every rejected or unreadable document
// of es, a warning per unknown field, then the text summary. Objects not
// checked are annotated only when they fail the run (-fail-unchecked).
func writeGitHub(w io.Writer, es []entry, summary func(io.Writer) error) error {
	b := bufio.NewWriter(w)
	annotate := func(level, file string, line, col int, title, msg string) {
		var props []string
		if file != "" && file != stdinLabel {
			props = append(props, "file="+ghProperty(file))
			if line > 0 {
				props = append(props, fmt.Sprintf("line=%d", line))
			}
			if col > 0 {
				props = append(props, fmt.Sprintf("col=%d", col))
			}
		}
		props = append(props, "title="+ghProperty(title))
		fmt.Fprintf(b, "::%s %s::%s\n", level, strings.Join(props, ","), ghData(msg))
	}
	for _, e := range es {
		switch {
		case e.failed && located(e.errors):
			// each error on its field's line: the first annotation
			// carries kubectl's whole message, the others their error
			for k, fe := range e.errors {
				line, msg := fe.Line, fe.Message
				if line == 0 {
					line = e.line
				}
				if k == 0 {
					msg = strings.TrimRight(e.text, "\n")
				}
				title := "crdcheck: " + e.name + " " + statusWord(e.status)
				if fe.Field != "" {
					title += ": " + fe.Field
				}
				annotate("error", e.file, line, fe.Column, title, msg)
			}
		case e.failed || e.status == statusError:
			annotate("error", e.file, e.line, 0, "crdcheck: "+e.name+" "+statusWord(e.status), strings.TrimRight(e.text, "\n"))
		}
		for _, w := range e.warnings {
			annotate("warning", e.file, e.line, 0, e.warnTitle, w)
		}
	}
	if err := b.Flush(); err != nil {
		return err
	}
	return summary(w) // for the log
}

// ghData escapes the message of a workflow command.
func ghData(s string) string {
	s = strings.ReplaceAll(s, "%", "%25")
	s = strings.ReplaceAll(s, "\r", "%0D")
	return strings.ReplaceAll(s, "\n", "%0A")
}

// ghProperty escapes a property value of a workflow command.
func ghProperty(s string) string {
	s = ghData(s)
	s = strings.ReplaceAll(s, ":", "%3A")
	return strings.ReplaceAll(s, ",", "%2C")
}

// located reports whether some error of errs has a line of its own.
func located(errs []fieldError) bool {
	return slices.ContainsFunc(errs, func(e fieldError) bool { return e.Line > 0 })
}
