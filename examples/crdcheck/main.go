package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
)

// Exit statuses.
const (
	exitOK       = 0 // everything accepted
	exitRejected = 1 // a CRD or an object was rejected
	exitUsage    = 2 // bad flags, or a file that cannot be read
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// options are the command line settings.
type options struct {
	crdPaths    []string
	oldPaths    []string
	files       []string
	output      string
	jobs        int
	strictKinds bool
	strict      bool
	verbose     bool
	progress    bool
}

// run is the whole command: it parses args, checks (reading the manifest
// "-" from stdin), writes the report to stdout and diagnostics to stderr,
// and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	opts, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintln(stderr, "crdcheck:", err)
		return exitUsage
	}

	// The CRDs are validated while the manifests are read.
	var (
		cat    *catalog
		catErr error
		loaded = make(chan struct{})
	)
	go func() {
		defer close(loaded)
		cat, catErr = loadCatalog(opts.crdPaths, opts.jobs)
	}()
	docs, err := readManifests(opts.files, stdin, opts.jobs)
	<-loaded
	if err == nil {
		err = catErr
	}
	if err != nil {
		fmt.Fprintln(stderr, "crdcheck:", err)
		return exitUsage
	}
	var olds *oldObjects
	if len(opts.oldPaths) > 0 {
		oldDocs, err := readManifests(opts.oldPaths, stdin, opts.jobs)
		if err != nil {
			fmt.Fprintln(stderr, "crdcheck:", err)
			return exitUsage
		}
		olds = indexOld(cat, oldDocs)
	}

	prog := newProgress(stderr, len(docs), opts.progress)
	results := checkAll(context.Background(), cat, olds, docs, opts, prog)
	prog.finish()

	rep := newReport(cat, results, opts.strictKinds)
	if opts.output == "json" {
		err = rep.writeJSON(stdout)
	} else {
		err = rep.writeText(stdout, opts.verbose)
	}
	if err != nil {
		fmt.Fprintln(stderr, "crdcheck:", err)
		return exitUsage
	}
	if rep.failed() {
		return exitRejected
	}
	return exitOK
}

const usageText = `usage: crdcheck -crds DIR [flags] FILE...

Validates the objects of the manifest FILEs (files, directories, or - for
stdin) against the CustomResourceDefinitions under DIR as the Kubernetes
API server would: as creates, or with -old as updates of the old objects.

Flags:
`

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	opts := &options{}
	fs := flag.NewFlagSet("crdcheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText)
		fs.PrintDefaults()
		fmt.Fprint(stderr, "\nExit status: 0 all accepted, 1 something rejected, 2 usage or I/O error.\n")
	}
	fs.Func("crds", "`DIR` or file of CustomResourceDefinitions, searched recursively (repeatable; required)", func(s string) error {
		opts.crdPaths = append(opts.crdPaths, s)
		return nil
	})
	fs.Func("old", "`FILE` or directory of the stored objects: check updates of them (repeatable)", func(s string) error {
		opts.oldPaths = append(opts.oldPaths, s)
		return nil
	})
	fs.StringVar(&opts.output, "o", "text", "output `format`: text or json")
	fs.IntVar(&opts.jobs, "j", runtime.GOMAXPROCS(0), "number of objects checked in parallel")
	fs.BoolVar(&opts.strictKinds, "strict-kinds", false, "treat objects whose apiVersion and kind no CRD serves as errors")
	fs.BoolVar(&opts.strict, "strict", false, "refuse objects with unknown fields, as kubectl --validate=strict does")
	fs.BoolVar(&opts.verbose, "v", false, "also list accepted and skipped objects")
	fs.BoolVar(&opts.progress, "progress", false, "always show the progress line on stderr")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	opts.files = fs.Args()
	switch {
	case len(opts.crdPaths) == 0:
		fs.Usage()
		return nil, errors.New("-crds is required")
	case opts.output != "text" && opts.output != "json":
		return nil, fmt.Errorf("-o %s: the format must be text or json", opts.output)
	case opts.jobs < 1:
		return nil, fmt.Errorf("-j %d: must be at least 1", opts.jobs)
	}
	for _, p := range append(append([]string(nil), opts.files...), opts.oldPaths...) {
		if strings.TrimSpace(p) == "" {
			return nil, errors.New("empty file name")
		}
	}
	return opts, nil
}
