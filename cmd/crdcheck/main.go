package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/crdschema/crdschema"
)

// Exit statuses.
const (
	exitOK       = 0 // everything accepted
	exitRejected = 1 // a CRD or an object was rejected
	exitUsage    = 2 // bad flags, or an input that cannot be read or decoded
)

func main() {
	tuneGC()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// subcommand is one of crdcheck's commands: it gets the arguments after
// its name and returns the exit status.
type subcommand struct {
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// subcommands are the commands besides the default one (checking
// manifests), by name. A new command only needs an entry here.
var subcommands map[string]subcommand

func init() {
	subcommands = map[string]subcommand{
		"check":   {"check manifests against CRDs (the default)", runCheck},
		"upgrade": {"what applying new CRDs does to stored objects", runUpgrade},
		"schema":  {"write JSON Schemas of CRDs for editors and other validators", runSchema},
		"test":    {"run YAML test suites of CRDs (openshift/api's format)", runTest},
		"version": {"print the version", func(_ []string, _ io.Reader, stdout, _ io.Writer) int {
			fmt.Fprintln(stdout, versionText())
			return exitOK
		}},
	}
}

// run is the whole command: it dispatches to a subcommand (check when the
// first argument names none), which writes its report to stdout and
// diagnostics to stderr, and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		if sc, ok := subcommands[args[0]]; ok {
			return sc.run(args[1:], stdin, stdout, stderr)
		}
	}
	return runCheck(args, stdin, stdout, stderr)
}

// subcommandList is the usage's list of commands.
func subcommandList() string {
	var b strings.Builder
	for _, n := range slices.Sorted(maps.Keys(subcommands)) {
		fmt.Fprintf(&b, "  %-9s %s\n", n, subcommands[n].summary)
	}
	return b.String()
}

// parseInterspersed parses flags found anywhere among args (until "--")
// and returns the other arguments in order.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		left := fs.Args()
		if n := len(args) - len(left); n > 0 && args[n-1] == "--" {
			// everything after "--" is an argument
			return append(rest, left...), nil
		}
		if len(left) == 0 {
			return rest, nil
		}
		rest = append(rest, left[0])
		args = left[1:]
	}
}

// newFlagSet returns the flag set of the command name (as "crdcheck
// schema"), whose usage text is usage followed by the flags; it reports
// errors on stderr.
func newFlagSet(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseCommand parses the flags of the command fs among args, as
// parseInterspersed, and returns the other arguments; when ok is false
// the command ends at once with status: -help, or a flag error, which it
// reports on stderr.
func parseCommand(fs *flag.FlagSet, args []string, stderr io.Writer) (rest []string, status int, ok bool) {
	rest, err := parseInterspersed(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return nil, exitOK, false
	case err != nil:
		fmt.Fprintf(stderr, "%s: %v\n", fs.Name(), err)
		return nil, exitUsage, false
	}
	return rest, exitOK, true
}

// kubernetesVersion is the release whose API server the verdicts are
// those of (-kubernetes-version with one release); "" is the default.
var kubernetesVersion crdschema.KubernetesVersion

// paths are the values of a repeatable flag naming files or directories.
type paths []string

func (p *paths) String() string     { return strings.Join(*p, " ") }
func (p *paths) Set(s string) error { *p = append(*p, s); return nil }

// options are the settings of the check command.
type options struct {
	crdPaths      paths
	oldPaths      paths
	files         []string
	output        string
	jobs          int
	failUnchecked bool
	strict        bool
	verbose       bool
	progress      bool
	showResult    bool
	kubeVersion   string
}

const checkUsage = `usage: crdcheck [check] [flags] FILE...
       crdcheck COMMAND [flags] ...

Validates the objects of the manifest FILEs (files, directories, or - for
stdin) as the Kubernetes API server would: against the
CustomResourceDefinitions of -crds and those found among the manifests
(as Helm and Kustomize render them), as creates, or with -old as updates
of the stored objects. Flags may come before or after the FILEs.

Commands:
%s
Flags of check:
`

// runCheck is the check command.
func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts := &options{}
	fs := newFlagSet("crdcheck", fmt.Sprintf(checkUsage, subcommandList()), stderr)
	usage := fs.Usage
	fs.Usage = func() {
		usage()
		fmt.Fprint(stderr, "\nExit status: 0 all accepted, 1 something rejected, 2 usage or input error.\n")
	}
	fs.Var(&opts.crdPaths, "crds", "`DIR` or file of CustomResourceDefinitions, searched recursively (repeatable)")
	fs.Var(&opts.oldPaths, "old", "`FILE` or directory of the stored objects: check updates of them (repeatable)")
	fs.StringVar(&opts.output, "o", "text", "output `format`: text, json, junit, tap or github")
	fs.IntVar(&opts.jobs, "j", runtime.GOMAXPROCS(0), "number of documents decoded and checked in parallel")
	fs.BoolVar(&opts.failUnchecked, "fail-unchecked", false, "exit 1 when some object was not checked (no CRD of the input serves its kind)")
	fs.BoolVar(&opts.failUnchecked, "strict-kinds", false, "the same as -fail-unchecked (the former name)")
	fs.BoolVar(&opts.strict, "strict", false, "refuse objects with unknown fields, as kubectl --validate=strict does")
	fs.BoolVar(&opts.verbose, "v", false, "text output: also list accepted and not checked objects")
	fs.BoolVar(&opts.progress, "progress", false, "always show the progress line on stderr")
	fs.BoolVar(&opts.showResult, "show-result", false, "JSON output: include each accepted object as the API server would store it (pruned, defaulted)")
	fs.StringVar(&opts.kubeVersion, "kubernetes-version", "", "answer as the API server of this Kubernetes `release` (1.33 to 1.37; default 1.37), or, with a range such as 1.33-1.37, print which releases accept each CRD")
	version := fs.Bool("version", false, "print the version and the Kubernetes release whose behaviour is reproduced")
	files, status, ok := parseCommand(fs, args, stderr)
	if !ok {
		return status
	}
	if *version {
		fmt.Fprintln(stdout, versionText())
		return exitOK
	}
	opts.files = files
	var problem string
	switch {
	case len(opts.crdPaths) == 0 && len(opts.files) == 0:
		fs.Usage()
		problem = "nothing to check: give manifest files or -crds"
	case !validFormat(opts.output):
		problem = fmt.Sprintf("-o %s: the format must be text, json, junit, tap or github", opts.output)
	case opts.jobs < 1:
		problem = fmt.Sprintf("-j %d: must be at least 1", opts.jobs)
	case slices.ContainsFunc(slices.Concat(files, opts.oldPaths), func(p string) bool { return strings.TrimSpace(p) == "" }):
		problem = "empty file name"
	}
	if problem != "" {
		fmt.Fprintln(stderr, "crdcheck:", problem)
		return exitUsage
	}
	// one release, or a range FROM-TO (FROM 1.33 when left out)
	from, to, isRange := strings.Cut(opts.kubeVersion, "-")
	if isRange {
		from = cmp.Or(from, "1.33")
	}
	v, err := crdschema.ParseKubernetesVersion(from)
	hi := v
	if err == nil && isRange {
		hi, err = crdschema.ParseKubernetesVersion(to)
	}
	if err != nil {
		fmt.Fprintln(stderr, "crdcheck: -kubernetes-version:", err)
		return exitUsage
	}
	if isRange {
		return runReleases(opts, v, hi, stdin, stdout, stderr)
	}
	kubernetesVersion = v
	builtinChecked.Store(0)
	prog := newProgress(stderr, opts.progress)
	c := &checker{ctx: context.Background(), opts: opts, stdin: stdin, prog: prog,
		countOnly: opts.output == "text" && !opts.verbose}
	outcomes, crds := c.run()
	prog.finish()

	rep := newReport(crds, outcomes, c.accepted, opts.failUnchecked, c.stdinData)
	rep.verbose = opts.verbose
	if err := writeOutput(stdout, opts.output, rep); err != nil {
		fmt.Fprintln(stderr, "crdcheck:", err)
		return exitUsage
	}
	return rep.exitStatus()
}
