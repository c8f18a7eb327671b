package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"

	"github.com/crdschema/crdschema/jsonschema"
)

const schemaUsage = `usage: crdcheck schema [-d DIR] [-strict] CRDS...

Writes the JSON Schema (draft-07) of every version of every
CustomResourceDefinition found in CRDS (files, directories, or - for stdin)
into DIR, as KIND_VERSION.json (kind in lower case), for editors
(yaml-language-server) and kubeconform:

  kubeconform -schema-location 'DIR/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json' manifests/

Flags:
`

func runSchema(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("crdcheck schema", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, schemaUsage)
		fs.PrintDefaults()
	}
	dir := fs.String("d", ".", "`DIR`ectory to write the schemas into")
	strict := fs.Bool("strict", false, "forbid the fields the API server prunes as unknown (additionalProperties: false)")
	builtins := fs.Bool("builtin", false, "also write the schemas of the built-in kinds of the release (Deployment, Service, ...)")
	kubeVersion := fs.String("kubernetes-version", "", "with -builtin: the Kubernetes `release` (1.33 to 1.37; default 1.37)")
	files, err := parseInterspersed(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case err != nil:
		fmt.Fprintln(stderr, "crdcheck schema:", err)
		return exitUsage
	case len(files) == 0 && !*builtins:
		fs.Usage()
		fmt.Fprintln(stderr, "crdcheck schema: no CRDs given")
		return exitUsage
	}
	var opts []jsonschema.Option
	if *strict {
		opts = append(opts, jsonschema.WithStrict())
	}
	rd := &checker{ctx: context.Background(), opts: &options{jobs: runtime.GOMAXPROCS(0)}, stdin: stdin}
	seq := 0
	status := exitOK
	entries := readCRDs(rd, files, &seq)
	for _, o := range rd.outcomes {
		fmt.Fprintf(stderr, "crdcheck schema: %s: %s\n", o.doc.where(), o.problem)
		status = exitUsage
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		fmt.Fprintln(stderr, "crdcheck schema:", err)
		return exitUsage
	}
	if *builtins {
		if s := writeBuiltinSchemas(*dir, *kubeVersion, opts, stdout, stderr); s != exitOK {
			return s
		}
	}
	for _, e := range entries {
		if e.def == nil {
			fmt.Fprintf(stderr, "crdcheck schema: %s: %s\n", e.doc.where(), e.problem)
			status = exitUsage
			continue
		}
		for _, v := range e.def.Spec.Versions {
			s, err := jsonschema.Version(e.def, v.Name, opts...)
			if err != nil {
				fmt.Fprintf(stderr, "crdcheck schema: %s: %v\n", e.doc.where(), err)
				status = exitUsage
				continue
			}
			data, err := json.MarshalIndent(s, "", "  ")
			if err != nil {
				fmt.Fprintf(stderr, "crdcheck schema: %s: %v\n", e.doc.where(), err)
				status = exitUsage
				continue
			}
			name := filepath.Join(*dir, jsonschema.FileName(e.def.Spec.Names.Kind, v.Name))
			if err := os.WriteFile(name, append(data, '\n'), 0o644); err != nil {
				fmt.Fprintln(stderr, "crdcheck schema:", err)
				return exitUsage
			}
			fmt.Fprintln(stdout, name)
		}
	}
	return status
}
