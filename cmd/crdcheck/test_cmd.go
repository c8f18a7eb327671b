package main

import (
	"context"
	"fmt"
	"io"

	"github.com/crdschema/crdschema/crdtest"
)

const testUsage = `usage: crdcheck test [-crds DIR] [-featuregates DIR] SUITES...

Runs YAML test suites of CRDs (openshift/api's format: onCreate and onUpdate
cases with initial, updated, expected, expectedError, expectedStatusError;
see the crdtest package) through the API server's request pipeline, and
prints every failing case and a summary. SUITES are files or directories.

Exit status: 0 every case passed, 1 some failed, 2 usage or input error.

Flags:
`

func runTest(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("crdcheck test", testUsage, stderr)
	crds := fs.String("crds", "", "`DIR`ectory of the CRD manifests the suites name (default: found beside the suites)")
	gates := fs.String("featuregates", "", "`DIR`ectory of the feature-gate manifests that choose CRD variants")
	paths, status, ok := parseCommand(fs, args, stderr)
	switch {
	case !ok:
		return status
	case len(paths) == 0:
		fs.Usage()
		fmt.Fprintln(stderr, "crdcheck test: no suites given")
		return exitUsage
	}
	var opts []crdtest.Option
	if *crds != "" {
		opts = append(opts, crdtest.WithCRDs(*crds))
	}
	if *gates != "" {
		opts = append(opts, crdtest.WithFeatureGates(*gates))
	}
	failed, err := crdtest.RunFiles(context.Background(), stdout, paths, opts...)
	if err != nil {
		fmt.Fprintln(stderr, "crdcheck test:", err)
		return exitUsage
	}
	if failed > 0 {
		return exitRejected
	}
	return exitOK
}
