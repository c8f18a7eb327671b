package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/crdschema/crdschema/jsonschema"
)

const schemaUsage = `usage: crdcheck schema [-d DIR] [-strict] CRDS...

Writes the JSON Schema (draft-07) of every version of every
CustomResourceDefinition found in CRDS (files, directories, or - for stdin)
into DIR, as KIND-GROUP-VERSION.json (kind in lower case), for editors
(yaml-language-server) and kubeconform:

  kubeconform -schema-location 'DIR/{{ .ResourceKind }}-{{ .Group }}-{{ .ResourceAPIVersion }}.json' manifests/

A CRD the API server would refuse is reported with its errors and not
written (exit status 1); two different schemas for one file name are an
input error (exit status 2). Exit status 0: every schema written.

Flags:
`

func runSchema(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("crdcheck schema", schemaUsage, stderr)
	dir := fs.String("d", ".", "`DIR`ectory to write the schemas into")
	strict := fs.Bool("strict", false, "forbid the fields the API server prunes as unknown (additionalProperties: false)")
	builtins := fs.Bool("builtin", false, "also write the schemas of the built-in kinds of the release (Deployment, Service, ...)")
	kubeVersion := fs.String("kubernetes-version", "", "with -builtin: the Kubernetes `release` (1.33 to 1.37; default 1.37)")
	files, status, ok := parseCommand(fs, args, stderr)
	switch {
	case !ok:
		return status
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
	entries := rd.readCRDs(files, &seq)
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
	written := map[string][]byte{} // file name: content
	for _, e := range entries {
		if e.def == nil {
			fmt.Fprintf(stderr, "crdcheck schema: %s: %s\n", e.doc.where(), e.problem)
			status = exitUsage
			continue
		}
		if errs := e.errs(); len(errs) > 0 {
			fmt.Fprintf(stderr, "crdcheck schema: %s: CustomResourceDefinition %s rejected, no schema written:\n", e.doc.where(), e.def.Name)
			for _, fe := range errs {
				fmt.Fprintf(stderr, "* %s\n", fe.Error())
			}
			if status == exitOK {
				status = exitRejected
			}
			continue
		}
		for _, v := range e.def.Spec.Versions {
			s, err := jsonschema.Version(e.def, v.Name, opts...)
			var data []byte
			if err == nil {
				data, err = json.MarshalIndent(s, "", "  ")
			}
			if err != nil {
				fmt.Fprintf(stderr, "crdcheck schema: %s: %v\n", e.doc.where(), err)
				status = exitUsage
				continue
			}
			data = append(data, '\n')
			name := filepath.Join(*dir, schemaFileName(e.def.Spec.Group, e.def.Spec.Names.Kind, v.Name))
			if prev, ok := written[name]; ok {
				if !bytes.Equal(prev, data) {
					fmt.Fprintf(stderr, "crdcheck schema: %s: %s: a different schema was written to this file before (same kind, group and version)\n", e.doc.where(), name)
					status = exitUsage
				}
				continue
			}
			written[name] = data
			if err := os.WriteFile(name, data, 0o644); err != nil {
				fmt.Fprintln(stderr, "crdcheck schema:", err)
				return exitUsage
			}
			fmt.Fprintln(stdout, name)
		}
	}
	return status
}

// schemaFileName is the name under which kubeconform finds the schema of a
// kind of group and version with the location template
// "{{ .ResourceKind }}-{{ .Group }}-{{ .ResourceAPIVersion }}.json": the
// kind in lower case, the group, the version, joined by hyphens. The group
// keeps kinds of the same name apart (Gateway API's and Istio's Gateway).
func schemaFileName(group, kind, version string) string {
	return strings.ToLower(kind) + "-" + group + "-" + version + ".json"
}
