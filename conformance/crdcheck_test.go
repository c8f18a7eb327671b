package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/jsonscan"
	"github.com/crdschema/crdschema/internal/readall"
)

// The crdcheck test runs the cmd/crdcheck command, as a user would,
// over the Gateway API CRDs and example objects in testdata/crdcheck, once
// per release channel, and checks that for every object the errors it
// reports are those upstream gave for the same object against the same CRD
// (the realworld/gateway-api cases).

const crdcheckData = "testdata/crdcheck"

// buildCrdcheck builds the command into a temporary directory.
func buildCrdcheck(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is needed to build crdcheck")
	}
	// Reading the command's sources makes them inputs of the cached test
	// result: go test does not see what the go build below reads.
	sources, _ := filepath.Glob(filepath.Join("..", "cmd", "crdcheck", "*.go"))
	for _, f := range sources {
		if _, err := os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	bin := filepath.Join(t.TempDir(), "crdcheck")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/crdschema/crdschema/cmd/crdcheck")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building crdcheck: %v\n%s", err, out)
	}
	return bin
}

// crdcheckReport is the part of crdcheck's -o json output the test reads.
type crdcheckReport struct {
	CRDs []struct {
		File          string
		Name          string
		Status        string
		Errors        []any
		UnknownFields []string
		Error         string
	}
	Objects []struct {
		File          string
		Document      int
		Item          int
		Kind          string
		Operation     string
		Status        string
		Errors        []any
		UnknownFields []string
		Error         string
	}
	Summary map[string]int
}

// runCrdcheck runs bin with args and -o json and decodes the report. The
// exit status must be 0 or 1.
func runCrdcheck(t *testing.T, bin string, args ...string) (*crdcheckReport, int) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-o", "json"}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	code := 0
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("running crdcheck: %v", err)
		}
		code = exit.ExitCode()
	}
	if code != 0 && code != 1 {
		t.Fatalf("crdcheck %v: exit status %d\n%s", args, code, stderr.String())
	}
	var rep crdcheckReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("crdcheck output is not its JSON report: %v\n%s", err, stdout.String())
	}
	return &rep, code
}

// goldenRequest is upstream's result for one object of a channel.
type goldenRequest struct {
	where  string // case file and request index
	result map[string]any
}

// channelGoldens indexes the requests of the realworld/gateway-api cases
// of one channel by the object they create (canonical JSON), and returns
// the CRD of every case by name with its expected CRD errors.
func channelGoldens(t *testing.T, channel string) (map[string]goldenRequest, map[string]*testCase) {
	t.Helper()
	dir := filepath.Join(casesDir(), "realworld", "gateway-api")
	paths, err := filepath.Glob(filepath.Join(dir, channel+"-*.yaml"))
	if err != nil || len(paths) == 0 {
		t.Skipf("skipped: no %s cases in %s (CRDSCHEMA_CASES points at a folder without the realworld/gateway-api goldens)", channel, dir)
	}
	byObject := map[string]goldenRequest{}
	byCRD := map[string]*testCase{}
	for _, p := range paths {
		c, err := readCase(p, strings.TrimSuffix(p, ".yaml")+".golden.json")
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var meta struct {
			Metadata struct{ Name string }
		}
		if err := json.Unmarshal(c.CRD, &meta); err != nil {
			t.Fatalf("%s: crd: %v", p, err)
		}
		byCRD[meta.Metadata.Name] = c
		results, _ := c.Golden["requests"].([]any)
		for i, r := range c.Requests {
			if r.Operation != "create" || i >= len(results) {
				continue
			}
			key, err := canonical(r.Object)
			if err != nil {
				t.Fatalf("%s: requests[%d]: %v", p, i, err)
			}
			byObject[key] = goldenRequest{fmt.Sprintf("%s requests[%d]", filepath.Base(p), i), results[i].(map[string]any)}
		}
	}
	return byObject, byCRD
}

// canonical is a JSON document re-encoded with sorted keys, with the
// library's number model.
func canonical(doc []byte) (string, error) {
	v, err := jsonscan.Decode(doc)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(v)
	return string(b), err
}

// manifestObjects returns the canonical JSON of every document of a file.
func manifestObjects(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	docs, err := readall.Objects(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := make([]string, len(docs))
	for i, d := range docs {
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatalf("%s#%d: %v", path, i+1, err)
		}
		out[i] = string(b)
	}
	return out
}

func TestCrdcheckGatewayAPI(t *testing.T) {
	bin := buildCrdcheck(t)
	objectsDir := filepath.Join(crdcheckData, "objects")

	objectFiles, err := filepath.Glob(filepath.Join(objectsDir, "*.yaml"))
	if err != nil || len(objectFiles) == 0 {
		t.Fatalf("no objects in %s", objectsDir)
	}
	contents := map[string][]string{}
	for _, f := range objectFiles {
		contents[f] = manifestObjects(t, f)
	}

	checked := map[string]bool{} // objects compared with a golden, by location
	for _, channel := range []string{"standard", "experimental"} {
		t.Run(channel, func(t *testing.T) {
			goldens, cases := channelGoldens(t, channel)
			crdDir := filepath.Join(crdcheckData, "crds", channel)
			rep, code := runCrdcheck(t, bin, "-crds", crdDir, objectsDir)

			// The CRDs: the same as the cases', with the same verdicts.
			if len(rep.CRDs) != len(cases) {
				t.Errorf("%d CRDs reported, the %s cases have %d", len(rep.CRDs), channel, len(cases))
			}
			for _, c := range rep.CRDs {
				tc := cases[c.Name]
				if tc == nil {
					t.Errorf("%s: CRD %s has no case", c.File, c.Name)
					continue
				}
				if fileCRD, caseCRD := manifestObjects(t, c.File), mustCanonical(t, tc.CRD); len(fileCRD) != 1 || fileCRD[0] != caseCRD {
					t.Errorf("%s: not the CRD of case %s", c.File, tc.Name)
				}
				golden, _ := tc.Golden["crd"].(map[string]any)
				if d := errorsDiff(c.File, golden, toAny(t, c.Errors)); d != "" {
					t.Errorf("CRD errors: %s", d)
				}
				if want := len(goldenErrors(golden["errors"], false)) == 0; want != (c.Status == "accepted") {
					t.Errorf("%s: CRD status %s (%s)", c.File, c.Status, c.Error)
				}
			}

			// The objects.
			rejected, compared := 0, 0
			for _, o := range rep.Objects {
				where := fmt.Sprintf("%s#%d", o.File, o.Document)
				docs := contents[o.File]
				if o.Item != 0 || o.Document < 1 || o.Document > len(docs) {
					t.Errorf("%s: no such document", where)
					continue
				}
				// Gateway API's own negative examples: its tests expect the
				// API server to refuse each one (the experimental ones only
				// with the experimental CRDs).
				base := filepath.Base(o.File)
				if strings.HasPrefix(base, "hack_invalid-examples_standard_") ||
					channel == "experimental" && strings.HasPrefix(base, "hack_invalid-examples_") {
					if o.Status != "rejected" {
						t.Errorf("%s: a negative example was %s", where, o.Status)
					}
				}
				g, ok := goldens[docs[o.Document-1]]
				if !ok {
					// Upstream's results were recorded for a sample of
					// the objects of each kind; the others must at least
					// be checked: the experimental channel serves every
					// kind and version of the corpus.
					if channel == "experimental" && o.Operation == "" {
						t.Errorf("%s: not checked: %s", where, o.Error)
					}
					continue
				}
				checked[where] = true
				compared++
				if reqErr, refused := g.result["requestError"]; refused {
					if o.Status != "rejected" || o.Operation == "" || o.Error == "" {
						t.Errorf("%s (%s): upstream refused the request (%v); crdcheck: %s %q", where, g.where, reqErr, o.Status, o.Error)
					}
					continue
				}
				if o.Operation != "create" {
					t.Errorf("%s (%s): not checked (%s: %s), upstream validated it", where, g.where, o.Status, o.Error)
					continue
				}
				want := orEmpty(g.result["errors"])
				if d := errorsDiff(where+" ("+g.where+")", g.result, toAny(t, o.Errors)); d != "" {
					t.Error(d)
				}
				if wantStatus := map[bool]string{true: "accepted", false: "rejected"}[len(want.([]any)) == 0]; o.Status != wantStatus {
					t.Errorf("%s: status %s, want %s", where, o.Status, wantStatus)
				}
				if wantUF := stringsOf(g.result["unknownFields"]); !reflect.DeepEqual(wantUF, nonNilStrings(o.UnknownFields)) {
					t.Errorf("%s: unknownFields %q, want %q", where, o.UnknownFields, wantUF)
				}
				if o.Status == "rejected" {
					rejected++
				}
			}
			if wantCode := map[bool]int{true: 1, false: 0}[rejected > 0]; code != wantCode && rep.Summary["crdsRejected"] == 0 {
				t.Errorf("exit status %d with %d rejected objects, want %d", code, rejected, wantCode)
			}
			if rep.Summary["objects"] != len(rep.Objects) {
				t.Errorf("summary counts %d objects, the report lists %d", rep.Summary["objects"], len(rep.Objects))
			}
			t.Logf("%s: %d objects, %d compared with upstream's results (%d rejected); summary %v",
				channel, len(rep.Objects), compared, rejected, rep.Summary)
		})
	}

	// Every object for which upstream's result was recorded has been
	// compared.
	for _, channel := range []string{"standard", "experimental"} {
		goldens, _ := channelGoldens(t, channel)
		for f, docs := range contents {
			for i, d := range docs {
				if _, ok := goldens[d]; ok && !checked[fmt.Sprintf("%s#%d", f, i+1)] {
					t.Errorf("%s#%d: has a %s golden but was not compared", f, i+1, channel)
				}
			}
		}
	}
	if len(checked) == 0 {
		t.Errorf("nothing compared")
	}
}

func mustCanonical(t *testing.T, doc []byte) string {
	t.Helper()
	s, err := canonical(doc)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// toAny converts crdcheck's errors to the golden form (JSON values).
func toAny(t *testing.T, errs []any) any {
	t.Helper()
	b, err := json.Marshal(errs)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	// crdcheck's JSON gives the whole object's errors the field "" and
	// every error its line and column in the file; the goldens have the
	// field as the API server prints it, "<nil>", and no lines
	list, _ := v.([]any)
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			if m["field"] == "" {
				m["field"] = "<nil>"
			}
			delete(m, "line")
			delete(m, "column")
		}
	}
	return orEmpty(v)
}

func stringsOf(v any) []string {
	out := []string{}
	l, _ := v.([]any)
	for _, s := range l {
		out = append(out, fmt.Sprint(s))
	}
	return out
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
