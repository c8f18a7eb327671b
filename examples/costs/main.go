package main

import (
	"bytes"
	"context"
	_ "embed"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/celrules"
	"github.com/crdschema/crdschema/costs"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/manifest"
)

//go:embed mailinglist.yaml
var exampleCRD []byte

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("costs", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", "", "report only this `version` of the CRD")
	top := fs.Int("top", 0, "list only the `N` most expensive rules of each version (0: all, in schema order)")
	objects := fs.String("objects", "", "also report each rule's actual cost on the objects of this YAML or JSON `file`")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: costs [-version V] [-top N] [-objects FILE] [FILE]\n\nReports the estimated cost of the CEL rules of the CRDs in FILE (default: an embedded example).")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	data, name := exampleCRD, "mailinglist.yaml (embedded example)"
	switch fs.NArg() {
	case 0:
	case 1:
		var err error
		if data, err = os.ReadFile(fs.Arg(0)); err != nil {
			fmt.Fprintln(stderr, "costs:", err)
			return 2
		}
		name = fs.Arg(0)
	default:
		fs.Usage()
		return 2
	}
	defs, err := readCRDs(data)
	if err != nil {
		fmt.Fprintf(stderr, "costs: %s: %v\n", name, err)
		return 2
	}
	if len(defs) == 0 {
		fmt.Fprintf(stderr, "costs: %s: no CustomResourceDefinition\n", name)
		return 2
	}

	over := false
	for _, def := range defs {
		explained, explainErr := costs.Explain(context.Background(), def)
		if explainErr != nil {
			explained = &costs.Report{} // the error is reported with the fixes
		}
		var versions []string // those reported
		for _, v := range def.Spec.Versions {
			if *version != "" && v.Name != *version {
				continue
			}
			versions = append(versions, v.Name)
			rules, err := crd.RuleCosts(def, nil, v.Name)
			if err != nil {
				fmt.Fprintf(stdout, "%s, version %s: %v\n\n", def.Name, v.Name, err)
				continue
			}
			if reportVersion(stdout, def, v.Name, rules, explained, *top) {
				over = true
			}
		}
		if len(versions) == 0 {
			fmt.Fprintf(stderr, "costs: %s has no version %q\n", def.Name, *version)
			return 2
		}
		reportVerdict(stdout, def)
		reportFixes(stdout, explained, explainErr)
		if *objects != "" {
			data, err := os.ReadFile(*objects)
			if err != nil {
				fmt.Fprintln(stderr, "costs:", err)
				return 2
			}
			docs, err := readDocuments(data)
			if err != nil {
				fmt.Fprintf(stderr, "costs: %s: %v\n", *objects, err)
				return 2
			}
			for _, v := range versions {
				var mine []map[string]any
				for _, d := range docs {
					if o := d.Object; o["apiVersion"] == def.Spec.Group+"/"+v && o["kind"] == def.Spec.Names.Kind {
						mine = append(mine, o)
					}
				}
				if err := reportRuntime(stdout, def, v, mine); err != nil {
					fmt.Fprintf(stderr, "costs: %s: %v\n", *objects, err)
					return 2
				}
			}
		}
	}
	if over {
		return 1
	}
	return 0
}

// reportVersion prints the costs of one version (only the top most
// expensive when top > 0) and reports whether a rule or the total is over
// budget. Below a rule over budget it names the bound that each list, map
// and string driving its cost lacks, as explained reports it.
func reportVersion(w io.Writer, def *crdschema.CustomResourceDefinition, version string, rules []crd.RuleCost, explained *costs.Report, top int) bool {
	fmt.Fprintf(w, "%s (%s), version %s: %d rule(s) and messageExpression(s)\n", def.Spec.Names.Kind, def.Name, version, len(rules))
	over := false
	var total uint64
	for _, c := range rules {
		total = addSaturate(total, c.Total())
		over = over || c.Total() > celrules.StaticCostLimit
	}
	listed := rules
	if top > 0 && top < len(rules) {
		listed = append([]crd.RuleCost(nil), rules...)
		sort.SliceStable(listed, func(i, j int) bool { return listed[i].Total() > listed[j].Total() })
		listed = listed[:top]
		fmt.Fprintf(w, "  the %d most expensive:\n", top)
	}
	for _, c := range listed {
		t := c.Total()
		fmt.Fprintf(w, "\n  %s\n    %s\n", c.Field, c.Rule)
		if strings.HasSuffix(c.Field, ".messageExpression") {
			// the API server does not multiply a messageExpression's cost
			fmt.Fprintf(w, "    cost %s (cardinality %s, not applied to a messageExpression)\n", thousands(c.Cost), thousands(c.Cardinality))
		} else {
			fmt.Fprintf(w, "    cost %s × cardinality %s = %s\n", thousands(c.Cost), thousands(c.Cardinality), thousands(t))
		}
		fmt.Fprintf(w, "    %s of the per-expression limit %s, %s of the schema limit %s\n",
			percent(t, celrules.StaticCostLimit), thousands(celrules.StaticCostLimit),
			percent(t, celrules.StaticCRDCostLimit), thousands(celrules.StaticCRDCostLimit))
		if t > celrules.StaticCostLimit {
			fmt.Fprintf(w, "    OVER BUDGET by %s\n", factor(t, celrules.StaticCostLimit))
			for _, r := range explained.Rules {
				for _, u := range r.Unbounded {
					if r.Field == c.Field {
						fmt.Fprintf(w, "    add %s here: %s\n", u.Keyword, u.Path)
					}
				}
			}
		}
	}
	verdict := "within budget"
	if total > celrules.StaticCRDCostLimit {
		over = true
		verdict = "OVER BUDGET by " + factor(total, celrules.StaticCRDCostLimit)
	}
	fmt.Fprintf(w, "\n  schema total %s: %s of the limit %s, %s\n\n",
		thousands(total), percent(total, celrules.StaticCRDCostLimit), thousands(celrules.StaticCRDCostLimit), verdict)
	return over
}

// reportVerdict prints the cost errors the API server gives for def.
func reportVerdict(w io.Writer, def *crdschema.CustomResourceDefinition) {
	var costErrs crdschema.ErrorList
	others := 0
	for _, e := range crd.Validate(context.Background(), def) {
		if e.Type == crdschema.ErrorTypeForbidden && strings.Contains(e.Detail, "cost") {
			costErrs = append(costErrs, e)
		} else {
			others++
		}
	}
	if len(costErrs) == 0 {
		fmt.Fprintf(w, "The API server accepts the rules' costs of %s.\n", def.Name)
	} else {
		fmt.Fprintf(w, "kubectl apply would print:\n%s", invalidMessage(def.Name, costErrs))
	}
	if others > 0 {
		fmt.Fprintf(w, "(and %d error(s) not about cost: see crd.Validate)\n", others)
	}
}

// invalidMessage is kubectl's text for a CRD refused with errs: each
// distinct error once, inline when there is one, else as a list.
func invalidMessage(name string, errs crdschema.ErrorList) string {
	var msgs []string
	seen := map[string]bool{}
	for _, e := range errs {
		if m := e.Error(); !seen[m] {
			seen[m] = true
			msgs = append(msgs, m)
		}
	}
	prefix := fmt.Sprintf("The CustomResourceDefinition %q is invalid: ", name)
	if len(msgs) == 1 {
		return prefix + msgs[0] + "\n"
	}
	return prefix + "\n* " + strings.Join(msgs, "\n* ") + "\n"
}

// readDocuments decodes every document of a YAML stream (or JSON document).
func readDocuments(data []byte) ([]*manifest.Document, error) {
	dec := manifest.NewDecoder(bytes.NewReader(data))
	var out []*manifest.Document
	for {
		doc, err := dec.Decode()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, doc)
	}
}

// readCRDs decodes every CustomResourceDefinition of a YAML stream (or
// JSON document), skipping objects of other kinds.
func readCRDs(data []byte) ([]*crdschema.CustomResourceDefinition, error) {
	docs, err := readDocuments(data)
	if err != nil {
		return nil, err
	}
	var out []*crdschema.CustomResourceDefinition
	for _, d := range docs {
		if d.Object["kind"] != "CustomResourceDefinition" {
			continue
		}
		def, _, err := manifest.UnmarshalCRD(d.JSON)
		if err != nil {
			return nil, err
		}
		out = append(out, def)
	}
	return out, nil
}
