package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/crd"
	"github.com/crdschema/crdschema/upgrade"
)

const upgradeUsage = `usage: crdcheck upgrade -from STORED -to NEW [flags] [OBJECTS...]

Reports what applying the CRDs of NEW over those of STORED (files or
directories, CRDs matched by name) does: whether the API server accepts each
new CRD as an update, the stored-version hazards, the schema changes that
affect stored data, and a verdict on every stored object of OBJECTS (files,
directories or - for stdin; kubectl get -o yaml output, Lists included):

  valid          valid under the new CRD, read back unchanged
  ratcheted      invalid, but updates that leave its invalid fields alone
                 (no-op, metadata-only, status) still pass
  blocked        such an update fails: the failing rule cannot ratchet
  changedOnRead  the new schema prunes or defaults fields when reading it
  unreadable     its version is gone, or needs a conversion webhook

Exit status: 0 nothing at risk; 1 an update refused, or an object blocked,
unreadable or losing fields on read; 2 usage or input error.

Flags:
`

// upgradeOptions are the settings of the upgrade command.
type upgradeOptions struct {
	from, to paths
	files    []string
	output   string
	release  string // -kubernetes-version
}

func runUpgrade(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts := &upgradeOptions{}
	fs := newFlagSet("crdcheck upgrade", upgradeUsage, stderr)
	fs.Var(&opts.from, "from", "`DIR` or file of the stored CRDs (kubectl get crd -o yaml; repeatable)")
	fs.Var(&opts.to, "to", "`DIR` or file of the new CRDs (repeatable)")
	fs.StringVar(&opts.output, "o", "text", "output `format`: text, json, junit, tap or github")
	fs.StringVar(&opts.release, "kubernetes-version", "", "answer as the API server of this Kubernetes `release` (1.33 to 1.37; default 1.37)")
	files, status, ok := parseCommand(fs, args, stderr)
	switch {
	case !ok:
		return status
	case len(opts.from) == 0 || len(opts.to) == 0:
		fs.Usage()
		fmt.Fprintln(stderr, "crdcheck upgrade: -from and -to are required")
		return exitUsage
	case !validFormat(opts.output):
		fmt.Fprintf(stderr, "crdcheck upgrade: -o %s: the format must be text, json, junit, tap or github\n", opts.output)
		return exitUsage
	}
	v, err := crdschema.ParseKubernetesVersion(opts.release)
	if err != nil {
		fmt.Fprintln(stderr, "crdcheck upgrade: -kubernetes-version:", err)
		return exitUsage
	}
	kubernetesVersion = v
	opts.files = files
	// a CRD folder or file that is not there is an input error at once:
	// without it, every verdict would be wrong
	for _, p := range append(append([]string(nil), opts.from...), opts.to...) {
		if p == "-" {
			continue
		}
		if _, err := os.Stat(p); err != nil {
			fmt.Fprintln(stderr, "crdcheck upgrade:", err)
			return exitUsage
		}
	}

	rd := &checker{ctx: context.Background(), opts: &options{jobs: runtime.GOMAXPROCS(0)}, stdin: stdin}
	seq := 0
	olds := rd.readCRDs(opts.from, &seq)
	news := rd.readCRDs(opts.to, &seq)
	objects := rd.readObjects(opts.files, &seq, "")
	rep := buildUpgradeReport(rd.ctx, olds, news, objects)
	for _, o := range rd.outcomes {
		rep.InputErrors = append(rep.InputErrors, inputErrorReport{File: o.doc.file, Line: o.doc.line, Where: o.doc.where(), Error: o.problem})
	}
	for _, e := range append(olds, news...) {
		if e.def == nil {
			rep.InputErrors = append(rep.InputErrors, inputErrorReport{File: e.doc.file, Line: e.doc.line, Where: e.doc.where(), Error: e.problem})
		}
	}
	sort.Slice(rep.InputErrors, func(i, j int) bool { return rep.InputErrors[i].Where < rep.InputErrors[j].Where })

	if err := writeOutput(stdout, opts.output, rep); err != nil {
		fmt.Fprintln(stderr, "crdcheck upgrade:", err)
		return exitUsage
	}
	return rep.exitStatus()
}

// upgradeReport is the upgrade command's output (its JSON shape).
type upgradeReport struct {
	CRDs        []crdUpgradeReport `json:"crds"`
	Objects     []objectVerdict    `json:"objects"`
	InputErrors []inputErrorReport `json:"inputErrors"`
	Summary     map[string]int     `json:"summary"`
}

type crdUpgradeReport struct {
	File          string       `json:"file"` // where the new CRD is
	Line          int          `json:"line"`
	Document      int          `json:"document"`
	Name          string       `json:"name"`
	From          string       `json:"from,omitempty"` // where the stored CRD is; empty for a new CRD
	To            string       `json:"to"`
	Status        string       `json:"status"` // accepted | rejected (as an update, or as a create when new)
	Errors        []fieldError `json:"errors"`
	Hazards       []string     `json:"hazards"`
	SchemaChanges []string     `json:"schemaChanges"`
}

type objectVerdict struct {
	File       string       `json:"file"`
	Line       int          `json:"line"`
	Document   int          `json:"document"`
	Item       int          `json:"item,omitempty"`
	Where      string       `json:"where"`
	APIVersion string       `json:"apiVersion"`
	Kind       string       `json:"kind"`
	Namespace  string       `json:"namespace"`
	Name       string       `json:"name"`
	Status     string       `json:"status"` // valid | ratcheted | blocked | changedOnRead | unreadable | notChecked
	Errors     []fieldError `json:"errors"`
	Blocking   []blocking   `json:"blocking"`
	Changes    []change     `json:"changes"`
	Error      string       `json:"error,omitempty"` // why it could not be checked
}

type blocking struct {
	Update string     `json:"update"`
	Error  fieldError `json:"error"`
}

type change struct {
	Kind string `json:"kind"` // pruned | defaulted | modified
	Path string `json:"path"`
	Old  any    `json:"old,omitempty"`
	New  any    `json:"new,omitempty"`
	Text string `json:"text"`
}

type inputErrorReport struct {
	File  string `json:"file"`
	Line  int    `json:"line"`
	Where string `json:"where"`
	Error string `json:"error"`
}

// buildUpgradeReport pairs the CRDs by name and runs upgrade.Check on
// each pair with its objects.
func buildUpgradeReport(ctx context.Context, olds, news []*crdEntry, objects []document) *upgradeReport {
	rep := &upgradeReport{CRDs: []crdUpgradeReport{}, InputErrors: []inputErrorReport{}, Summary: map[string]int{}}
	oldByName := map[string]*crdEntry{}
	for _, e := range olds {
		if e.def != nil && oldByName[e.name] == nil {
			oldByName[e.name] = e
		}
	}
	// Every object is not checked until a pair of CRDs serves its kind.
	byKind := map[groupKind][]int{} // objects by group and kind
	rep.Objects = make([]objectVerdict, len(objects))
	for i, d := range objects {
		av, kind, ns, name := identity(d.obj)
		group, _ := splitAPIVersion(av)
		byKind[groupKind{group, kind}] = append(byKind[groupKind{group, kind}], i)
		rep.Objects[i] = objectVerdict{File: d.file, Line: d.line, Document: d.index, Item: d.item, Where: d.where(),
			APIVersion: av, Kind: kind, Namespace: ns, Name: name,
			Status: statusUnchecked, Errors: []fieldError{}, Blocking: []blocking{}, Changes: []change{},
			Error: "no CRD of both -from and -to serves its kind"}
	}
	done := map[groupKind]bool{}
	for _, e := range news {
		if e.def == nil {
			continue
		}
		gk := groupKind{e.def.Spec.Group, e.def.Spec.Names.Kind}
		c := crdUpgradeReport{File: e.doc.file, Line: e.doc.line, Document: e.doc.index, Name: e.name, To: e.doc.where(),
			Status: statusAccepted, Hazards: []string{}, SchemaChanges: []string{}}
		old := oldByName[e.name]
		if old == nil || done[gk] {
			// a new CRD: created, not updated
			c.Errors = fieldErrors(e.errs())
			if len(c.Errors) > 0 {
				c.Status = statusRejected
			}
			rep.CRDs = append(rep.CRDs, c)
			continue
		}
		done[gk] = true
		c.From = old.doc.where()
		idx := byKind[gk]
		objs := make([]map[string]any, len(idx))
		for i, j := range idx {
			objs[i] = objects[j].obj
		}
		r, _ := upgrade.Check(ctx, e.def, old.def, objs, crd.WithKubernetesVersion(kubernetesVersion)) // objects of the kind only: no error
		c.Errors = fieldErrors(r.Errors)
		if len(c.Errors) > 0 {
			c.Status = statusRejected
		}
		for _, h := range r.Hazards {
			c.Hazards = append(c.Hazards, h.Message)
		}
		for _, s := range r.SchemaChanges {
			c.SchemaChanges = append(c.SchemaChanges, s.String())
		}
		rep.CRDs = append(rep.CRDs, c)
		for i, o := range r.Objects {
			v := &rep.Objects[idx[i]]
			// the namespace an object without one is stored in
			v.APIVersion, v.Kind, v.Namespace, v.Name = o.APIVersion, o.Kind, o.Namespace, o.Name
			v.Status, v.Errors, v.Error = string(o.Verdict), fieldErrors(o.Errors), o.Problem
			for _, b := range o.Blocking {
				v.Blocking = append(v.Blocking, blocking{b.Update, fieldErrors(crdschema.ErrorList{b.Error})[0]})
			}
			for _, ch := range o.Changes {
				v.Changes = append(v.Changes, change{string(ch.Kind), ch.Path, ch.Old, ch.New, ch.String()})
			}
		}
	}
	for _, v := range rep.Objects {
		rep.Summary[v.Status]++
	}
	for _, c := range rep.CRDs {
		rep.Summary["crds"]++
		if c.Status == statusRejected {
			rep.Summary["crdsRejected"]++
		}
	}
	return rep
}

// exitStatus: 2 for input errors, 1 when something is at risk.
func (r *upgradeReport) exitStatus() int {
	if len(r.InputErrors) > 0 {
		return exitUsage
	}
	if r.Summary["crdsRejected"] > 0 || slices.ContainsFunc(r.Objects, func(o objectVerdict) bool { return o.atRisk() }) {
		return exitRejected
	}
	return exitOK
}

func (r *upgradeReport) writeText(w io.Writer) error {
	b := bufio.NewWriter(w)
	sep := false
	block := func() {
		if sep {
			b.WriteString("\n")
		}
		sep = true
	}
	for _, c := range r.CRDs {
		block()
		verb := "update"
		from := c.From + " -> "
		if c.From == "" {
			verb, from = "new CRD (create)", ""
		}
		fmt.Fprintf(b, "CustomResourceDefinition %s (%s%s): %s %s\n", c.Name, from, c.To, verb, c.Status)
		for _, e := range c.Errors {
			fmt.Fprintf(b, "  refused: %s\n", e.Message)
		}
		for _, h := range c.Hazards {
			fmt.Fprintf(b, "  hazard: %s\n", h)
		}
		for _, s := range c.SchemaChanges {
			fmt.Fprintf(b, "  schema change: %s\n", s)
		}
	}
	for _, o := range r.Objects {
		if o.Status == string(upgrade.Valid) {
			continue
		}
		block()
		fmt.Fprintf(b, "%s: %s: %s\n", o.Where, describeObject(o.Kind, o.Namespace, o.Name, o.APIVersion), verdictWord(o.Status))
		b.WriteString(o.text())
	}
	for _, e := range r.InputErrors {
		block()
		fmt.Fprintf(b, "%s: error\n  %s\n", e.Where, e.Error)
	}
	if sep {
		b.WriteString("\n")
	}
	if err := b.Flush(); err != nil {
		return err
	}
	return r.writeSummary(w)
}

// writeSummary writes the two summary lines.
func (r *upgradeReport) writeSummary(w io.Writer) error {
	b := bufio.NewWriter(w)
	s := r.Summary
	fmt.Fprintf(b, "CRDs: %d accepted, %d refused\n", s["crds"]-s["crdsRejected"], s["crdsRejected"])
	var parts []string
	for _, v := range [][2]string{{"valid", "valid"}, {"ratcheted", "ratcheted"}, {"blocked", "blocked"},
		{"changedOnRead", "changed on read"}, {"unreadable", "unreadable"}, {statusUnchecked, "not checked"}} {
		parts = append(parts, fmt.Sprintf("%d %s", s[v[0]], v[1]))
	}
	fmt.Fprintf(b, "objects: %s; %d input error(s)\n", strings.Join(parts, ", "), len(r.InputErrors))
	return b.Flush()
}

// text is the body of an object's verdict, as the text output shows it
// under its heading.
func (o *objectVerdict) text() string {
	var b strings.Builder
	if o.Error != "" {
		fmt.Fprintf(&b, "  %s\n", o.Error)
	}
	for _, e := range o.Errors {
		fmt.Fprintf(&b, "  invalid: %s\n", e.Message)
	}
	for _, bl := range o.Blocking {
		fmt.Fprintf(&b, "  a %s fails: %s\n", bl.Update, bl.Error.Message)
	}
	if o.Status == string(upgrade.Ratcheted) {
		b.WriteString("  (updates that leave these fields alone still pass)\n")
	}
	for _, c := range o.Changes {
		fmt.Fprintf(&b, "  on read: %s\n", c.Text)
	}
	return b.String()
}

// atRisk reports whether an object's verdict fails the run: blocked,
// unreadable, or losing fields on read.
func (o *objectVerdict) atRisk() bool {
	return o.Status == string(upgrade.Blocked) || o.Status == string(upgrade.Unreadable) ||
		slices.ContainsFunc(o.Changes, func(c change) bool { return c.Kind == string(upgrade.Pruned) })
}

// entries lists the CRDs, objects and input errors for the CI outputs
// (JUnit, TAP, GitHub), as the check command's: a CRD update refused and
// an object at risk are failures; hazards and schema changes are warnings;
// objects no CRD pair serves are skipped.
func (r *upgradeReport) entries() []entry {
	var out []entry
	for _, c := range r.CRDs {
		e := entry{file: c.File, line: c.Line, where: c.To, name: "CustomResourceDefinition " + c.Name, status: c.Status,
			failed: c.Status == statusRejected, warnTitle: "crdcheck upgrade: warning"}
		var b strings.Builder
		for _, fe := range c.Errors {
			fmt.Fprintf(&b, "refused: %s\n", fe.Message)
		}
		e.text = b.String()
		for _, h := range c.Hazards {
			e.warnings = append(e.warnings, fmt.Sprintf("%s: hazard: %s", e.name, h))
		}
		for _, sc := range c.SchemaChanges {
			e.warnings = append(e.warnings, fmt.Sprintf("%s: schema change: %s", e.name, sc))
		}
		out = append(out, e.withSummary())
	}
	for _, o := range r.Objects {
		status := o.Status
		if status == string(upgrade.Valid) || status == string(upgrade.Ratcheted) || status == string(upgrade.ChangedOnRead) && !o.atRisk() {
			status = statusAccepted // nothing at risk: passes
		}
		e := entry{file: o.File, line: o.Line, where: o.Where, name: describeObject(o.Kind, o.Namespace, o.Name, o.APIVersion),
			status: status, failed: o.atRisk(), text: verdictWord(o.Status) + "\n" + o.text(), warnTitle: "crdcheck upgrade: warning"}
		if o.Status == string(upgrade.Ratcheted) || o.Status == string(upgrade.ChangedOnRead) && !o.atRisk() {
			e.warnings = append(e.warnings, fmt.Sprintf("%s: %s", e.name, verdictWord(o.Status)))
		}
		out = append(out, e.withSummary())
	}
	for _, ie := range r.InputErrors {
		e := entry{file: ie.File, line: ie.Line, where: ie.Where, name: "document", status: statusError, text: ie.Error}
		out = append(out, e.withSummary())
	}
	return out
}

// verdictWord is how the text output names a verdict.
func verdictWord(v string) string {
	if v == string(upgrade.ChangedOnRead) {
		return "changed on read"
	}
	return statusWord(v)
}
