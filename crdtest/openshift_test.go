package crdtest

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite testdata/openshift-api-results-*.txt")

// openshiftArchive holds the test suites, CRD manifests and feature gate
// manifests of github.com/openshift/api (testdata/README.md says which
// commit), with its LICENSE.
const openshiftArchive = "testdata/openshift-api.tar.gz"

// extract unpacks a .tar.gz archive into a temporary directory.
func extract(t *testing.T, archive string) string {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return dir
		}
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Clean(h.Name)
		if !filepath.IsLocal(name) {
			t.Fatalf("%s: entry %q leaves the archive", archive, h.Name)
		}
		p := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(tr)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestOpenShiftSuites runs every suite of openshift/api that its runner
// runs, unmodified, at 1.33, the release closest to the 1.32 that
// openshift/api's CI runs them against, and at 1.37, the default. Every
// case must pass, except
//   - cases whose CRD variant the API server of the release refuses to
//     install (at 1.37, the estimated cost of a rule over the limit), and
//   - cases whose expected error text is that of Kubernetes 1.32 alone: the
//     error the case gets, rendered as 1.32 renders it (render132), contains
//     the expected text.
//
// Both lists, with the texts of each release, are kept per release in
// testdata/openshift-api-results-1.3N.txt (go test -run TestOpenShiftSuites
// -update rewrites them), so that any change shows in review.
func TestOpenShiftSuites(t *testing.T) {
	if raceEnabled {
		t.Skip("-race: 6,691 cases take minutes with the race detector; the test runs without it (TestRunCronTab runs the same code with it)")
	}
	root := extract(t, openshiftArchive)
	for _, release := range []string{"1.33", "1.37"} {
		t.Run(release, func(t *testing.T) { runOpenShift(t, root, release) })
	}
}

// runOpenShift runs the suites under root at a release and checks the
// cases that do not pass against testdata/openshift-api-results-<release>.txt.
func runOpenShift(t *testing.T, root, release string) {
	files, err := suiteFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	start := cpuSeconds()
	kv, err := crdschema.ParseKubernetesVersion(release)
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner([]Option{WithKubernetesVersion(kv)})
	var suites, cases, passed, variants int
	var refused, old132, unexplained []string
	seenVariant := map[*variant]bool{}
	for _, f := range files {
		rel, _ := filepath.Rel(root, f)
		p, err := r.plan(f)
		if err != nil {
			unexplained = append(unexplained, err.Error())
			continue
		}
		suites++
		for _, w := range p.s.warnings {
			t.Log("warning:", strings.ReplaceAll(w, root+"/", ""))
		}
		for _, v := range p.variants {
			if !seenVariant[v] {
				seenVariant[v] = true
				variants++
			}
			for _, c := range p.cases {
				cases++
				id := fmt.Sprintf("%s [%s] %s %q", rel, filepath.Base(v.file.path), c.kind, c.name)
				if v.err != nil {
					var se *statusError
					if errors.As(v.err, &se) && costRefusal(se) {
						refused = append(refused, id)
						continue
					}
					unexplained = append(unexplained, id+": installing the CRD: "+v.err.Error())
					continue
				}
				err := r.run(context.Background(), v, c)
				if err == nil {
					passed++
					continue
				}
				var f *failure
				var se *statusError
				if errors.As(err, &f) && f.got != nil && errors.As(f.got, &se) && se.errs != nil {
					if m, ok := matching(se, render132(se, v.def.Spec.Versions[0].Schema.OpenAPIV3Schema), f.want); ok {
						old132 = append(old132, fmt.Sprintf("%s\n    expected (1.32): %s\n    1.32 message:    %s\n    %s message:    %s", id, f.want, m, release, sortedMessage(se, se.errs)))
						continue
					}
				}
				unexplained = append(unexplained, strings.ReplaceAll(err.Error(), root+"/", ""))
			}
		}
	}
	cpu := cpuSeconds() - start
	t.Logf("openshift/api: %d suite files, %d CRD variants, %d cases (a case once per CRD variant): %d passed, %d expect the error text of Kubernetes 1.32, %d on CRD variants that %s refuses; %.2f s CPU",
		suites, variants, cases, passed, len(old132), len(refused), release, cpu)
	for _, u := range unexplained {
		t.Error(u)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Cases of openshift/api's suites that do not pass at Kubernetes %s (written by TestOpenShiftSuites -update).\n\n", release)
	fmt.Fprintf(&b, "## Refused CRD variants: the API server of %s refuses to install the CRD (estimated rule cost) (%d cases)\n\n", release, len(refused))
	for _, s := range refused {
		fmt.Fprintln(&b, s)
	}
	fmt.Fprintf(&b, "\n## Expected error text of Kubernetes 1.32 alone (%d cases)\n\n", len(old132))
	sort.Strings(old132)
	for _, s := range old132 {
		fmt.Fprintln(&b, strings.ReplaceAll(s, root+"/", ""))
	}
	golden := "testdata/openshift-api-results-" + release + ".txt"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(string(want), b.String()); d != "" {
		t.Errorf("%s is out of date (-file +now; go test -run TestOpenShiftSuites -update rewrites it):\n%s", golden, d)
	}
}

// costRefusal reports whether a CRD is refused only for the estimated cost
// of its rules.
func costRefusal(se *statusError) bool {
	for _, e := range se.errs {
		if !strings.Contains(e.Detail, "estimated rule cost") {
			return false
		}
	}
	return len(se.errs) > 0
}

// render132 returns the texts Kubernetes 1.32's API server may have
// written for an invalid-object error, where its texts differ from 1.37's
// (checked against the oracle at 1.33, the oldest release it builds):
//   - a failed CEL rule showed the schema type of the node holding the rule
//     as the value (Invalid value: "string": ..., "" for a node without type
//     such as int-or-string); 1.37 shows the value of the field, or no value
//     for objects and arrays. As the rule may sit on the field or, with
//     fieldPath, on an ancestor, every ancestor's type is a candidate;
//   - the error about rules not checked showed the value "null" quoted;
//   - a duplicate item of a list showed as a Go value
//     (map[string]interface {}{"key":"a"}), not as JSON;
//   - a float in an integer field of format int32 was "must be of type
//     integer: "number"", without 1.37's second error about the format.
//
// A CEL error is taken to be an Invalid error whose detail is not one of
// the OpenAPI validator's ("... in body ...", "... must validate ...").
func render132(se *statusError, schema *crdschema.JSONSchemaProps) []crdschema.ErrorList {
	var choices [][]*crdschema.Error
	for _, e := range se.errs {
		c := *e
		alts := []*crdschema.Error{&c}
		switch {
		case strings.HasPrefix(c.Detail, "Checked value must be of type integer with format int32"):
			continue
		case strings.Contains(c.Detail, "in body must be of type int32: \"float64\""):
			c.BadValue = "number"
			c.Detail = strings.Replace(c.Detail, `of type int32: "float64"`, `of type integer: "number"`, 1)
		case c.Type == crdschema.ErrorTypeInvalid && strings.HasPrefix(c.Detail, "some validation rules were not checked"):
			c.BadValue = "null"
		case c.Type == crdschema.ErrorTypeInvalid && !strings.Contains(c.Detail, " in body ") && !strings.Contains(c.Detail, " must validate "):
			alts = nil
			for _, t := range ancestorTypes(schema, c.Field) {
				a := c
				a.BadValue = t
				alts = append(alts, &a)
			}
			if len(alts) == 0 {
				alts = []*crdschema.Error{&c}
			}
		case c.Type == crdschema.ErrorTypeDuplicate:
			if _, ok := c.BadValue.(map[string]any); ok {
				c.BadValue = goSyntax{c.BadValue}
			}
		}
		choices = append(choices, alts)
	}
	var out []crdschema.ErrorList
	var walk func(i int, errs crdschema.ErrorList)
	walk = func(i int, errs crdschema.ErrorList) {
		if len(out) >= 64 {
			return
		}
		if i == len(choices) {
			out = append(out, slices.Clone(errs))
			return
		}
		for _, a := range choices[i] {
			walk(i+1, append(errs[:i:i], a))
		}
	}
	walk(0, nil)
	return out
}

// matching returns the first of the error lists whose message contains
// want, as a message with the errors in a stable order.
func matching(se *statusError, lists []crdschema.ErrorList, want string) (string, bool) {
	for _, l := range lists {
		if strings.Contains(invalid(se.kind, se.group, se.name, l).Error(), want) {
			return sortedMessage(se, l), true
		}
	}
	return "", false
}

// sortedMessage returns the message of an invalid object with errs, in the
// order of their texts: the order of the errors of some rules is not
// stable from run to run.
func sortedMessage(se *statusError, errs crdschema.ErrorList) string {
	errs = slices.Clone(errs)
	slices.SortStableFunc(errs, func(a, b *crdschema.Error) int { return strings.Compare(a.Error(), b.Error()) })
	return invalid(se.kind, se.group, se.name, errs).Error()
}

// goSyntax is a value that prints as %#v.
type goSyntax struct{ v any }

func (g goSyntax) String() string               { return fmt.Sprintf("%#v", g.v) }
func (g goSyntax) MarshalJSON() ([]byte, error) { return nil, errors.New("printed with String") }

// ancestorTypes returns the types of the schemas of the field at path (a
// field path as errors print it: "spec.a[0].b", "spec.m[key]") and of its
// ancestors, from the field up to the root.
func ancestorTypes(s *crdschema.JSONSchemaProps, path string) []string {
	types := []string{s.Type}
	if path == "<nil>" { // the root
		return types
	}
	for path != "" && s != nil {
		switch {
		case path[0] == '.':
			path = path[1:]
		case path[0] == '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return nil
			}
			path = path[end+1:]
			switch {
			case s.Items != nil && s.Items.Schema != nil:
				s = s.Items.Schema
			case s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
				s = s.AdditionalProperties.Schema
			default:
				return nil
			}
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			p, ok := s.Properties[path[:end]]
			if !ok {
				return nil
			}
			s, path = &p, path[end:]
		}
		types = append(types, s.Type)
	}
	if path != "" {
		return nil
	}
	slices.Reverse(types)
	return types
}
