package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
)

// runReleases is check with -kubernetes-version FROM-TO: for every CRD of
// -crds and of the FILEs, which releases of the range accept it, as a
// compact table, and why each refusing release refuses. Objects are not
// checked in this mode. The exit status is 1 when some release refuses a
// CRD.
func runReleases(opts *options, from, to crdschema.KubernetesVersion, stdin io.Reader, stdout, stderr io.Writer) int {
	rd := &checker{ctx: context.Background(), opts: &options{jobs: runtime.GOMAXPROCS(0)}, stdin: stdin}
	seq := 0
	entries := rd.readCRDs(append(append([]string(nil), opts.crdPaths...), opts.files...), &seq)
	status := exitOK
	for _, o := range rd.outcomes {
		fmt.Fprintf(stderr, "crdcheck: %s: %s\n", o.doc.where(), o.problem)
		status = exitUsage
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	header := false
	var reasons []string
	for _, e := range entries {
		if e.def == nil {
			fmt.Fprintf(stderr, "crdcheck: %s: %s\n", e.doc.where(), e.problem)
			status = exitUsage
			continue
		}
		results, err := crd.CheckReleases(context.Background(), e.def, nil, from, to)
		if err != nil {
			fmt.Fprintln(stderr, "crdcheck: -kubernetes-version:", err)
			return exitUsage
		}
		if !header {
			cols := []string{"CRD"}
			for _, r := range results {
				cols = append(cols, r.Version)
			}
			fmt.Fprintln(tw, strings.Join(cols, "\t"))
			header = true
		}
		row := []string{e.def.Name}
		for _, r := range results {
			if r.Accepted {
				row = append(row, "accepted")
				continue
			}
			row = append(row, "refused")
			if status == exitOK {
				status = exitRejected
			}
			for _, why := range r.Reasons {
				reasons = append(reasons, fmt.Sprintf("%s (%s) %s: %s", e.def.Name, e.doc.where(), r.Version, why))
			}
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	tw.Flush()
	if len(reasons) > 0 {
		fmt.Fprintln(stdout)
		for _, r := range reasons {
			fmt.Fprintln(stdout, r)
		}
	}
	return status
}
