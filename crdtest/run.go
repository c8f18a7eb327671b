package crdtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Run runs the test suites at path, a suite file or a directory, as
// subtests of t: one per suite file, CRD variant, kind of case (onCreate,
// onUpdate) and case. In a directory, the suites are the YAML files
// named *.testsuite.yaml and those of openshift/api's layout
// (tests/<crd name>/<suite>.yaml), searched recursively. A suite that cannot
// be read, or whose CRD cannot be found, fails its subtest.
func Run(t *testing.T, path string, opts ...Option) {
	t.Helper()
	r := newRunner(opts)
	files, err := suiteFiles(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		t.Run(relName(path, f), func(t *testing.T) {
			p, err := r.plan(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range p.s.warnings {
				t.Log("warning:", w)
			}
			for _, v := range p.variants {
				t.Run(filepath.Base(v.file.path), func(t *testing.T) {
					if v.err != nil {
						t.Fatalf("%s: installing CRD %s: %v", f, v.file.path, v.err)
					}
					for _, c := range p.cases {
						t.Run(c.kind+"/"+c.name, func(t *testing.T) {
							if err := r.run(t.Context(), v, c); err != nil {
								t.Error(err)
							}
						})
					}
				})
			}
		})
	}
}

// RunFiles runs the test suites at paths (files or directories, as for
// Run), writes each failure, each warning and a summary line ("N passed, N
// failed") to out, and returns the number of failed cases. Paths and suites
// that cannot be read (not there, not a YAML test suite) are input errors:
// each is written to out as "ERROR path: reason", the other suites still
// run, and err joins them. ctx bounds the evaluation of the CEL rules.
func RunFiles(ctx context.Context, out io.Writer, paths []string, opts ...Option) (failed int, err error) {
	r := newRunner(opts)
	passed := 0
	var inputErrs []error
	for _, path := range paths {
		files, err := suiteFiles(path)
		if err != nil {
			fmt.Fprintf(out, "ERROR %s\n    %v\n", path, indent(err.Error()))
			inputErrs = append(inputErrs, err)
			continue
		}
		for _, f := range files {
			p, err := r.plan(f)
			if err != nil {
				fmt.Fprintf(out, "ERROR %s\n    %v\n", f, indent(err.Error()))
				inputErrs = append(inputErrs, err)
				continue
			}
			for _, warn := range p.s.warnings {
				fmt.Fprintf(out, "warning: %s\n", warn)
			}
			for _, v := range p.variants {
				for _, c := range p.cases {
					err := v.err
					if err != nil {
						err = fmt.Errorf("installing CRD %s: %v", v.file.path, err)
					} else {
						err = r.run(ctx, v, c)
					}
					if err != nil {
						failed++
						msg := err.Error()
						if fl, ok := err.(*failure); ok {
							msg = fl.msg
						}
						fmt.Fprintf(out, "FAIL %s [%s] %s %q\n    %s\n", f, filepath.Base(v.file.path), c.kind, c.name, indent(msg))
						continue
					}
					passed++
				}
			}
		}
	}
	if len(inputErrs) > 0 {
		fmt.Fprintf(out, "%d passed, %d failed, %d unreadable\n", passed, failed, len(inputErrs))
	} else {
		fmt.Fprintf(out, "%d passed, %d failed\n", passed, failed)
	}
	return failed, errors.Join(inputErrs...)
}

func indent(s string) string { return strings.ReplaceAll(s, "\n", "\n    ") }

// relName names the subtest of a suite file found below root.
func relName(root, f string) string {
	if rel, err := filepath.Rel(root, f); err == nil && rel != "." {
		return filepath.ToSlash(rel)
	}
	return filepath.Base(f)
}

// suiteFiles returns path if it is a file, or the suite files below the
// directory path, sorted.
func suiteFiles(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	var out []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && isSuiteFile(p) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// isSuiteFile reports whether a file found in a directory is a suite.
func isSuiteFile(p string) bool {
	if strings.HasSuffix(p, ".testsuite.yaml") {
		return true
	}
	// openshift/api's runner: any .yaml file two levels below a tests directory.
	return strings.HasSuffix(p, ".yaml") && filepath.Base(filepath.Dir(filepath.Dir(p))) == "tests"
}
