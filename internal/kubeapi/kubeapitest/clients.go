package kubeapitest

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/casefile"
	"github.com/crdschema/crdschema/manifest"
)

// RunThroughClient runs the requests of every case under dir that has a
// golden as a client sends them, for the tests of the fake client and the
// test server: send sends request i of c (whose golden result is want,
// for checks of its own) and returns what the client got
// (nil when the request was accepted), or why the request cannot be sent
// that way. The outcome must be the golden's: accepted, or refused as
// upstream refused it, with exactly the golden's errors as the causes of
// the Invalid error. It logs how many requests it compared and why the
// others were not, and fails if fewer than minCompared were compared.
func RunThroughClient(t *testing.T, dir string, minCompared int, send func(t *testing.T, c *casefile.Case, r casefile.Request, want map[string]any, i int) (got *Refusal, notComparable string)) {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".yaml") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance cases under %s: %v", dir, err)
	}
	var compared, skipped int
	skips := map[string]int{}
	for _, f := range files {
		golden := strings.TrimSuffix(f, ".yaml") + ".golden.json"
		if _, err := os.Stat(golden); err != nil {
			continue
		}
		c, err := casefile.Read(f, golden)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		greqs, _ := c.Golden["requests"].([]any)
		if len(c.Requests) == 0 || len(greqs) != len(c.Requests) {
			continue
		}
		name := strings.TrimSuffix(strings.TrimPrefix(f, dir+"/"), ".yaml")
		t.Run(name, func(t *testing.T) {
			for i, r := range c.Requests {
				want, _ := greqs[i].(map[string]any)
				got, reason := send(t, c, r, want, i)
				if reason != "" {
					skipped++
					skips[reason]++
					continue
				}
				compared++
				for _, d := range Compare(want, got) {
					t.Errorf("request %d: %s", i, d)
				}
			}
		})
	}
	t.Logf("%d requests compared, %d not comparable", compared, skipped)
	reasons := make([]string, 0, len(skips))
	for r := range skips {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		t.Logf("  %d: %s", skips[r], r)
	}
	if compared < minCompared {
		t.Errorf("only %d requests compared", compared)
	}
}

// A Refusal is a refused request as the client reports it.
type Refusal struct {
	// Status tells that the client reported the refusal as the API
	// server's status error (or refused the request as the API server
	// would before sending it).
	Status  bool
	Reason  string // the status's reason
	Message string
	Causes  []Cause
}

// A Cause is one cause of a status error.
type Cause struct{ Type, Field, Message string }

// Compare compares the outcome of a request (got nil: accepted) with the
// golden's result want, and returns the differences.
func Compare(want map[string]any, got *Refusal) []string {
	if _, refused := want["requestError"]; refused {
		switch {
		case got == nil:
			return []string{fmt.Sprintf("accepted, but upstream refused it: %v", want["requestError"])}
		case !got.Status:
			return []string{fmt.Sprintf("refused with an error that is not an API status: %s", got.Message)}
		}
		return nil
	}
	wantErrs, _ := want["errors"].([]any)
	if len(wantErrs) == 0 {
		if got != nil {
			return []string{fmt.Sprintf("refused, but upstream accepted it: %s", got.Message)}
		}
		return nil
	}
	if got == nil || got.Reason != "Invalid" {
		msg := "accepted"
		if got != nil {
			msg = got.Message
		}
		return []string{fmt.Sprintf("got %s, want an Invalid error with %d causes", msg, len(wantErrs))}
	}
	var diffs, have, exp []string
	for _, cs := range got.Causes {
		msg := cs.Message
		if cs.Field != "" {
			msg = cs.Field + ": " + cs.Message
		}
		have = append(have, normalizeType(fmt.Sprintf("%s|%s|%s", cs.Type, cs.Field, msg)))
	}
	for _, w := range wantErrs {
		m, _ := w.(map[string]any)
		exp = append(exp, fmt.Sprintf("%s|%s|%s", m["type"], m["field"], normalizeType(fmt.Sprint(m["message"]))))
	}
	sort.Strings(have)
	sort.Strings(exp)
	if strings.Join(have, "\n") != strings.Join(exp, "\n") {
		diffs = append(diffs, fmt.Sprintf("causes differ\nonly got: %s\nonly wanted: %s", strings.Join(minus(have, exp), "\n      "), strings.Join(minus(exp, have), "\n      ")))
	}
	if !strings.Contains(got.Message, " is invalid: ") {
		diffs = append(diffs, fmt.Sprintf("message %q is not the API server's", got.Message))
	}
	return diffs
}

// minus returns the elements of a not in b, as multisets.
func minus(a, b []string) []string {
	n := map[string]int{}
	for _, s := range b {
		n[s]++
	}
	var out []string
	for _, s := range a {
		if n[s] > 0 {
			n[s]--
			continue
		}
		out = append(out, s)
	}
	return out
}

var selfType = regexp.MustCompile(`selfType[0-9]+`)

// normalizeType writes the CEL type name upstream derives from the clock
// as the goldens do.
func normalizeType(s string) string {
	return selfType.ReplaceAllString(s, "selfType<N>")
}

// ClientBody decodes the case's CRD and the body of r as a Go client sends
// them, or says why a Go client cannot send the body as written.
func ClientBody(c *casefile.Case, r casefile.Request) (def *crdschema.CustomResourceDefinition, body map[string]any, notSendable string) {
	def, _, err := manifest.UnmarshalCRD(c.CRD)
	if err != nil {
		return nil, nil, "the CRD does not decode"
	}
	body, err = manifest.UnmarshalObject(r.Object)
	if err != nil {
		return nil, nil, "the body is not a JSON object"
	}
	if again, err := json.Marshal(body); err != nil {
		return nil, nil, "the body does not encode"
	} else if back, err := manifest.UnmarshalObject(again); err != nil || !reflect.DeepEqual(back, body) {
		return nil, nil, "number literals a Go client cannot send (they change when encoded from Go values)"
	}
	return def, body, ""
}
