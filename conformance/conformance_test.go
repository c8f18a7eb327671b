package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A stage is a capability of the library that some cases need. Cases that
// need a stage the library does not have yet are reported as skipped, with
// the missing stages as the reason, after every stage that exists has been
// compared: a case whose built stages differ from upstream fails.
type stage string

const (
	stageCRD      stage = "CRD validation"
	stageCEL      stage = "CEL rules"
	stageDefaults stage = "default validation"
	stageRequests stage = "request pipeline"
	stageTable    stage = "printer table"
	stageOpenAPI  stage = "OpenAPI publishing"
	stageRatchet  stage = "ratcheting"
)

// outcome of one case.
type outcome int

const (
	passed outcome = iota
	failed
	skipped
)

func casesDir() string {
	if d := os.Getenv("CRDSCHEMA_CASES"); d != "" {
		return d
	}
	return filepath.Join("testdata", "cases")
}

// findCases returns every X.yaml under dir that has an X.golden.json.
func findCases(t *testing.T, dir string) []string {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".yaml") {
			if _, err := os.Stat(strings.TrimSuffix(p, ".yaml") + ".golden.json"); err == nil {
				out = append(out, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("reading cases: %v", err)
	}
	sort.Strings(out)
	return out
}

func TestConformance(t *testing.T) {
	dir := casesDir()
	files := findCases(t, dir)
	if len(files) == 0 {
		t.Fatalf("no cases under %s", dir)
	}
	type tally struct{ passed, failed, skipped int }
	areas := map[string]*tally{}
	var order []string
	var total tally
	var failures []string
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		rel = filepath.ToSlash(strings.TrimSuffix(rel, ".yaml"))
		area, _, _ := strings.Cut(rel, "/")
		if areas[area] == nil {
			areas[area] = &tally{}
			order = append(order, area)
		}
		var res outcome
		t.Run(rel, func(t *testing.T) {
			c, err := readCase(f, strings.TrimSuffix(f, ".yaml")+".golden.json")
			if err != nil {
				res = failed
				failures = append(failures, fmt.Sprintf("conformance FAIL %s: malformed case: %v", rel, err))
				t.Fatalf("malformed case: %v", err)
			}
			diff, missing := runCase(c, "")
			switch {
			case diff != "":
				res = failed
				failures = append(failures, fmt.Sprintf("conformance FAIL %s: %s", rel, diff))
				t.Errorf("%s\n(%s)", diff, c.Description)
			case len(missing) > 0:
				res = skipped
				t.Skipf("needs %s, not built yet", missingList(missing))
			}
		})
		a := areas[area]
		switch res {
		case passed:
			a.passed++
			total.passed++
		case failed:
			a.failed++
			total.failed++
		case skipped:
			a.skipped++
			total.skipped++
		}
	}
	if testing.Verbose() {
		for _, a := range order {
			x := areas[a]
			fmt.Printf("conformance %s: %d passed, %d failed, %d skipped\n", a, x.passed, x.failed, x.skipped)
		}
		fmt.Printf("conformance: %d passed, %d failed, %d skipped\n", total.passed, total.failed, total.skipped)
		for _, f := range failures {
			fmt.Println(f)
		}
	}
}

func missingList(m map[stage]bool) string {
	var s []string
	for k := range m {
		s = append(s, string(k))
	}
	sort.Strings(s)
	return joinReasons(s)
}

// runCase runs c through the library and returns the first difference from
// the golden ("" if none) and the stages the case needs that are not built.
func runCase(c *testCase, rel string) (diff string, missing map[stage]bool) {
	missing = map[stage]bool{}
	need := func(s stage) bool {
		if !built[s] {
			missing[s] = true
			return false
		}
		return true
	}
	g := c.Golden
	gcrd, _ := g["crd"].(map[string]any)

	out, err := runCRD(c, rel)
	if err != nil {
		return "crd: " + err.Error(), missing
	}
	if out.usesCEL {
		need(stageCEL)
	}
	if out.hasDefaults {
		need(stageDefaults)
	}
	got, err := normalize(out.errors)
	if err != nil {
		return "crd.errors: " + err.Error(), missing
	}
	if d := errorsDiff("crd.errors", gcrd, got); d != "" {
		// Default validation and CEL add errors the library cannot report
		// yet: a difference is only a failure when nothing is missing.
		if len(missing) == 0 {
			return d, missing
		}
		return "", missing
	}
	gu, _ := normalize(out.unknownFields)
	if d := firstDiff("crd.unknownFields", orEmpty(gcrd["unknownFields"]), orEmpty(gu)); d != "" {
		return d, missing
	}
	if built[stageCEL] {
		gc, _ := normalize(out.celCosts)
		if d := firstDiff("crd.celCosts", orEmpty(gcrd["celCosts"]), orEmpty(gc)); d != "" {
			return d, missing
		}
	}

	if c.OpenAPI && need(stageOpenAPI) {
		if d := compareOpenAPI(c, out, g["openapi"], rel); d != "" {
			return d, missing
		}
	}

	greqs, _ := g["requests"].([]any)
	if len(greqs) == 0 {
		return "", missing
	}
	if len(out.errors) > 0 {
		return "", missing // upstream accepted the CRD where the library did not: reported above
	}
	// A request's errors depend on every stage it needs; a difference in
	// a request that needs a missing stage is not counted as a failure.
	crdMissing := len(missing) > 0
	if !need(stageRequests) {
		need(stageTable)
		return "", missing
	}
	need(stageTable)
	for i, r := range c.Requests {
		if i >= len(greqs) {
			break
		}
		reqMissing := crdMissing
		if r.Operation == "update" && !need(stageRatchet) {
			reqMissing = true
		}
		want, _ := greqs[i].(map[string]any)
		if d := compareRequest(fmt.Sprintf("requests[%d]", i), c, out, r, want, rel); d != "" && !reqMissing {
			return d, missing
		}
	}
	return "", missing
}

func compareRequest(where string, c *testCase, out *crdOutcome, r testRequest, want map[string]any, rel string) string {
	res, err := runRequest(c, out, r, rel)
	if err != nil {
		return where + ": " + err.Error()
	}
	if _, ok := want["requestError"]; ok {
		if res.requestError == "" {
			return where + ": expected the request to be refused before validation (" + fmt.Sprint(want["requestError"]) + "), it was not"
		}
		return ""
	}
	if res.requestError != "" {
		return where + ": the request was refused before validation: " + res.requestError
	}
	gu, _ := normalize(res.unknownFields)
	if d := firstDiff(where+".unknownFields", orEmpty(want["unknownFields"]), orEmpty(gu)); d != "" {
		return d
	}
	obj, err := normalize(res.object)
	if err != nil {
		return where + ".object: " + err.Error()
	}
	if d := firstDiff(where+".object", want["object"], obj); d != "" {
		return d
	}
	ge, _ := normalize(res.errors)
	if d := errorsDiff(where+".errors", want, ge); d != "" {
		return d
	}
	if built[stageTable] {
		tb, _ := normalize(res.table)
		if d := firstDiff(where+".table", want["table"], tb); d != "" {
			return d
		}
	}
	return ""
}
