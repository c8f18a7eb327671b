// Command oracle runs the real Kubernetes apiextensions-apiserver code on
// conformance cases and writes the expected results ("goldens").
//
// Usage:
//
//	oracle [-check] PATH...
//	oracle -bench [-benchtime 1s] [-count 5] PATH...
//	oracle -bench [-count 5] -object OBJECT.yaml [-n 2000] CASE.yaml
//	oracle -version
//
// Each PATH is a case file X.yaml or a directory searched recursively for
// *.yaml case files. For each case, X.golden.json is written next to it.
// With -check nothing is written; the oracle exits 1 and names the cases
// whose golden is missing or differs. A malformed case makes the oracle
// exit 2 naming the file. The case and golden formats are described in
// ../conformance/testdata/README.md. With -bench nothing is written either: upstream's
// speed on the cases is measured instead (see bench.go).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"k8s.io/apiserver/pkg/cel/environment"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/featuregate"
	"k8s.io/klog/v2"

	"github.com/crdschema/crdschema/oracle/internal/upstream"
)

func main() {
	check := flag.Bool("check", false, "do not write goldens; exit 1 if any golden is missing or differs")
	showVersion := flag.Bool("version", false, "print the upstream module versions and feature gates, then exit")
	bench := flag.Bool("bench", false, "measure upstream's speed on the cases (Go benchmark format on stdout); write no goldens")
	benchtime := flag.String("benchtime", "1s", "with -bench: run each measurement for `d`, or N times if d is of the form Nx")
	count := flag.Int("count", 5, "with -bench: repeat each measurement `n` times")
	object := flag.String("object", "", "with -bench and one case: measure -n creates of the object in this YAML `file` instead")
	creates := flag.Int("n", 2000, "with -object: the number of creates")
	// 100 runs: a range over a small Go map starts at a random one of its
	// eight slots, so two errors found by ranging over an object can come
	// in the less likely order only once in eight runs; 20 runs marked such
	// lists ordered about once in twelve.
	runs := flag.Int("runs", 100, "run a case in which a response has several errors `n` times, to tell whether upstream's error order is stable")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: oracle [-check] PATH...\n       oracle -bench [-benchtime 1s] [-count 5] PATH...\n       oracle -bench [-count 5] -object OBJECT.yaml [-n 2000] CASE.yaml\n       oracle -version\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *check && *bench {
		fmt.Fprintln(os.Stderr, "oracle: -check and -bench exclude each other")
		os.Exit(2)
	}
	if *runs < 2 {
		fmt.Fprintln(os.Stderr, "oracle: -runs must be at least 2")
		os.Exit(2)
	}
	if *object != "" && !*bench {
		fmt.Fprintln(os.Stderr, "oracle: -object needs -bench")
		os.Exit(2)
	}

	// upstream logs through klog; its messages are not results
	klog.SetOutput(io.Discard)
	klog.LogToStderr(false)

	if *showVersion {
		printVersion()
		return
	}
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}

	files, err := collectCases(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(2)
	}
	if *bench {
		os.Exit(upstream.RunBench(files, upstream.BenchOptions{Benchtime: *benchtime, Count: *count, Object: *object, N: *creates}))
	}

	var bad, differ []string
	for _, f := range files {
		out, err := runCaseFile(f, *runs)
		if err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			bad = append(bad, f)
			continue
		}
		golden := strings.TrimSuffix(f, ".yaml") + ".golden.json"
		if *check {
			old, err := os.ReadFile(golden)
			if err != nil || !bytes.Equal(old, out) {
				differ = append(differ, f)
				fmt.Fprintf(os.Stderr, "oracle: %s: golden is missing or differs\n", f)
			}
			continue
		}
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "oracle:", err)
			os.Exit(2)
		}
	}

	switch {
	case len(bad) > 0:
		fmt.Fprintf(os.Stderr, "oracle: %d of %d cases failed\n", len(bad), len(files))
		os.Exit(2)
	case len(differ) > 0:
		fmt.Fprintf(os.Stderr, "oracle: %d of %d goldens are missing or differ\n", len(differ), len(files))
		os.Exit(1)
	}
	if *check {
		fmt.Fprintf(os.Stderr, "oracle: %d goldens up to date\n", len(files))
	} else {
		fmt.Fprintf(os.Stderr, "oracle: wrote %d goldens\n", len(files))
	}
}

// collectCases expands the arguments into a sorted list of case files.
func collectCases(args []string) ([]string, error) {
	seen := map[string]bool{}
	var files []string
	add := func(f string) {
		if !seen[f] {
			seen[f] = true
			files = append(files, f)
		}
	}
	for _, arg := range args {
		st, err := os.Stat(arg)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			if !strings.HasSuffix(arg, ".yaml") {
				return nil, fmt.Errorf("%s: a case file must end in .yaml", arg)
			}
			add(filepath.Clean(arg))
			continue
		}
		err = filepath.WalkDir(arg, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(p, ".yaml") {
				add(filepath.Clean(p))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Strings(files)
	return files, nil
}

// runCaseFile runs one case and returns the golden file content.
//
// The case is run at least twice: upstream iterates Go maps in places, and a
// result that is not reproducible would make a useless golden. When a
// response has two errors or more, the case is run `runs` times in all and
// each error list is compared: a list in the same order in every run is
// written in upstream's order and marked errorsOrdered; any other list is
// sorted (upstream.SortFieldErrors). Apart from that order, every run must
// give the same result.
func runCaseFile(path string, runs int) ([]byte, error) {
	var (
		first  []byte
		golden *upstream.Golden
		orders [][]upstream.FieldError // the first run's error lists, in upstream's order
		stable []bool
	)
	n := 2
	for i := 0; i < n; i++ {
		c, err := upstream.ReadCase(path)
		if err != nil {
			return nil, err
		}
		g, notes, err := upstream.RunCase(c)
		if i == 0 {
			for _, n := range notes {
				fmt.Fprintf(os.Stderr, "oracle: %s: %s\n", path, n)
			}
		}
		if err != nil {
			var ce *upstream.CaseError
			if errors.As(err, &ce) {
				return nil, err
			}
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		lists, _ := upstream.ErrorLists(g)
		for k, l := range lists {
			if i == 0 {
				orders = append(orders, slices.Clone(*l))
				stable = append(stable, true)
				if len(*l) >= 2 {
					n = max(n, runs)
				}
			} else if k >= len(orders) || !slices.Equal(orders[k], *l) {
				if k < len(stable) {
					stable[k] = false
				}
			}
			upstream.SortFieldErrors(*l)
		}
		out, err := upstream.MarshalGolden(g)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if i == 0 {
			first, golden = out, g
		} else if !bytes.Equal(first, out) {
			return nil, fmt.Errorf("%s: the result differs between two runs; upstream order or content is not deterministic here", path)
		}
	}
	lists, ordered := upstream.ErrorLists(golden)
	changed := false
	for k, l := range lists {
		if stable[k] && len(orders[k]) >= 2 {
			*l, *ordered[k] = orders[k], true
			changed = true
		}
	}
	if !changed {
		return first, nil
	}
	out, err := upstream.MarshalGolden(golden)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

func printVersion() {
	fmt.Printf("kubernetes %s (the API server code built in; CEL compatibility version %s)\n", upstream.K8sRelease, environment.DefaultCompatibilityVersion())
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if strings.HasPrefix(d.Path, "k8s.io/") || d.Path == "github.com/google/cel-go" {
				fmt.Printf("%s %s\n", d.Path, d.Version)
			}
		}
	}
	fmt.Println("feature gates (defaults of this version):")
	all := utilfeature.DefaultMutableFeatureGate.GetAll()
	names := make([]string, 0, len(all))
	for f := range all {
		names = append(names, string(f))
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Printf("  %s=%v\n", n, utilfeature.DefaultFeatureGate.Enabled(featuregate.Feature(n)))
	}
}
