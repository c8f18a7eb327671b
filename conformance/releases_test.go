package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// olderReleases are the Kubernetes releases the suite runs every case at,
// besides the default (1.37, TestConformance), each against its own goldens:
// testdata/releases/<release>/<area>/<name>.golden.json where the oracle's
// result for that release differs from the default's, the case's own
// golden otherwise (see testdata/releases/generate).
var olderReleases = []string{"1.36", "1.35", "1.34", "1.33"}

// informational are the older releases whose failures are reported but do
// not fail the suite, until the library reproduces them fully.
var informational = map[string]bool{}

func releasesDir() string {
	return filepath.Join(filepath.Dir(casesDir()), "releases")
}

// TestConformanceReleases runs every case at each older release against
// that release's goldens and prints one line per release and area. Set
// CRDSCHEMA_RELEASE=1.34 to run one release and print its failures.
func TestConformanceReleases(t *testing.T) {
	dir := casesDir()
	rdir := releasesDir()
	if _, err := os.Stat(rdir); err != nil {
		t.Skipf("no goldens of older releases beside %s (%v): run testdata/releases/generate", dir, err)
	}
	files := findCases(t, dir)
	if len(files) == 0 {
		t.Fatalf("no cases under %s", dir)
	}
	releases := olderReleases
	only := os.Getenv("CRDSCHEMA_RELEASE")
	if only != "" {
		releases = []string{only}
	}
	for _, rel := range releases {
		type tally struct{ passed, failed, skipped int }
		areas := map[string]*tally{}
		var order []string
		var total tally
		var failures []string
		if _, err := os.Stat(filepath.Join(rdir, rel)); err != nil {
			fmt.Printf("conformance %s: no goldens (%v): run testdata/releases/generate %s\n", rel, err, rel)
			continue
		}
		t.Run(rel, func(t *testing.T) {
			for _, f := range files {
				name, _ := filepath.Rel(dir, f)
				name = filepath.ToSlash(strings.TrimSuffix(name, ".yaml"))
				area, _, _ := strings.Cut(name, "/")
				if areas[area] == nil {
					areas[area] = &tally{}
					order = append(order, area)
				}
				golden := filepath.Join(rdir, rel, filepath.FromSlash(name)+".golden.json")
				if _, err := os.Stat(golden); err != nil {
					golden = strings.TrimSuffix(f, ".yaml") + ".golden.json"
				}
				res := passed
				c, err := readCase(f, golden)
				var diff string
				var missing map[stage]bool
				if err != nil {
					diff = "malformed case: " + err.Error()
				} else {
					diff, missing = runCase(c, rel)
				}
				switch {
				case diff != "":
					res = failed
					failures = append(failures, fmt.Sprintf("conformance %s FAIL %s: %s", rel, name, diff))
					if !informational[rel] {
						t.Errorf("%s: %s", name, diff)
					}
				case len(missing) > 0:
					res = skipped
				}
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
		})
		if testing.Verbose() {
			note := ""
			if informational[rel] && total.failed > 0 {
				note = " (informational: this release is not fully reproduced yet)"
			}
			for _, a := range order {
				x := areas[a]
				fmt.Printf("conformance %s %s: %d passed, %d failed, %d skipped\n", rel, a, x.passed, x.failed, x.skipped)
			}
			fmt.Printf("conformance %s: %d passed, %d failed, %d skipped%s\n", rel, total.passed, total.failed, total.skipped, note)
			if only != "" || !informational[rel] {
				for _, f := range failures {
					fmt.Println(f)
				}
			}
		}
	}
}
