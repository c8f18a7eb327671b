// Command crdcheck (bench/crdcheck) measures the crdcheck command against
// kubeconform end to end, on the same file, in the same run: 2,000
// HTTPRoutes (the CORS example of the Gateway API, each under a name of its
// own) in one multi-document file, checked against the standard HTTPRoute
// CRD. It builds both tools (crdcheck from this repository, kubeconform
// from the Go module proxy), makes kubeconform's JSON Schema (with
// `crdcheck schema`, or with kubeconform's own openapi2jsonschema.py when
// -schema converter is given), runs the two tools alternately, and prints
// the median wall time, the median CPU time and the peak resident memory
// (the highest of the runs, and the median of the runs' peaks) of each,
// and the ratios. It exits 1 when a tool fails or does not check every object.
//
// Usage, from the repository root:
//
//	go -C bench run ./crdcheck [-rounds 7] [-objects 2000] [-schema crdcheck|converter] [-kubeconform v0.8.0]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"time"
)

func main() {
	rounds := flag.Int("rounds", 7, "runs of each tool (alternating); the median is reported")
	n := flag.Int("objects", 2000, "number of HTTPRoutes")
	schema := flag.String("schema", "crdcheck", "how kubeconform's schema is made: crdcheck (crdcheck schema) or converter (kubeconform's openapi2jsonschema.py)")
	kcVersion := flag.String("kubeconform", "v0.8.0", "kubeconform `version` from the Go module proxy")
	flag.Parse()
	if err := run(*rounds, *n, *schema, *kcVersion); err != nil {
		fmt.Fprintln(os.Stderr, "bench/crdcheck:", err)
		os.Exit(1)
	}
}

// root is the repository root, from this module's directory (bench).
func root() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; d != filepath.Dir(d); d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "cmd", "crdcheck", "main.go")); err == nil {
			return d, nil
		}
	}
	return "", fmt.Errorf("no cmd/crdcheck above %s", wd)
}

const (
	crdPath     = "conformance/testdata/crdcheck/crds/standard/gateway.networking.k8s.io_httproutes.yaml"
	examplePath = "conformance/testdata/crdcheck/objects/examples_standard_http-cors_httproute-all-fields-set.yaml"
)

func run(rounds, n int, schema, kcVersion string) error {
	repo, err := root()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "crdcheck-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	crdcheck := filepath.Join(tmp, "crdcheck")
	if err := command(repo, nil, "go", "build", "-o", crdcheck, "./cmd/crdcheck"); err != nil {
		return err
	}
	if err := command(repo, []string{"GOBIN=" + tmp, "GOFLAGS=-mod=mod"}, "go", "install", "github.com/yannh/kubeconform/cmd/kubeconform@"+kcVersion); err != nil {
		return err
	}
	kubeconform := filepath.Join(tmp, "kubeconform")

	// the input: n HTTPRoutes, each under its own name
	example, err := os.ReadFile(filepath.Join(repo, examplePath))
	if err != nil {
		return err
	}
	nameRe := regexp.MustCompile(`(?m)^  name: (.*)$`)
	var b bytes.Buffer
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString("---\n")
		}
		b.Write(nameRe.ReplaceAll(example, []byte(fmt.Sprintf("  name: ${1}-%d", i))))
	}
	routes := filepath.Join(tmp, "routes.yaml")
	if err := os.WriteFile(routes, b.Bytes(), 0o644); err != nil {
		return err
	}
	crd := filepath.Join(repo, crdPath)

	// kubeconform's schema
	schemas := filepath.Join(tmp, "schemas")
	if err := os.Mkdir(schemas, 0o755); err != nil {
		return err
	}
	switch schema {
	case "crdcheck":
		err = command(repo, nil, crdcheck, "schema", "-d", schemas, crd)
	case "converter":
		script, e := modFile("github.com/yannh/kubeconform@"+kcVersion, "scripts/openapi2jsonschema.py")
		if e != nil {
			return e
		}
		err = command(schemas, []string{"FILENAME_FORMAT={kind}-{fullgroup}-{version}"}, "python3", script, crd)
	default:
		err = fmt.Errorf("-schema %s: crdcheck or converter", schema)
	}
	if err != nil {
		return err
	}
	location := filepath.Join(schemas, "{{ .ResourceKind }}-{{ .Group }}-{{ .ResourceAPIVersion }}.json")

	tools := []struct {
		name string
		args []string
		ok   *regexp.Regexp
	}{
		{"crdcheck", []string{crdcheck, "-crds", crd, routes},
			regexp.MustCompile(fmt.Sprintf(`objects: %d accepted, 0 rejected`, n))},
		{"kubeconform", []string{kubeconform, "-summary", "-schema-location", location, routes},
			regexp.MustCompile(fmt.Sprintf(`%d resources found in 1 file - Valid: %d, Invalid: 0, Errors: 0`, n, n))},
	}
	times := make([][]time.Duration, len(tools))
	cpus := make([][]time.Duration, len(tools))
	rsss := make([][]int64, len(tools))
	peaks := make([]int64, len(tools))
	for r := 0; r < rounds; r++ {
		for i, t := range tools {
			d, cpu, rss, out, err := measure(t.args)
			if err != nil {
				return fmt.Errorf("%s: %v\n%s", t.name, err, out)
			}
			if !t.ok.Match(out) {
				return fmt.Errorf("%s did not accept every object:\n%s", t.name, tail(out))
			}
			times[i] = append(times[i], d)
			cpus[i] = append(cpus[i], cpu)
			rsss[i] = append(rsss[i], rss)
			peaks[i] = max(peaks[i], rss)
		}
	}
	fmt.Printf("%d HTTPRoutes in one file (%d KB), %d rounds, kubeconform %s with the schema of %s\n",
		n, len(b.Bytes())/1024, rounds, kcVersion, schema)
	med := make([]time.Duration, len(tools))
	for i, t := range tools {
		med[i] = median(times[i])
		fmt.Printf("%-12s median %6.3f s  (runs: %s)  CPU %6.3f s  peak RSS %6.1f MB (median %4.1f)\n", t.name, med[i].Seconds(), list(times[i]), median(cpus[i]).Seconds(), float64(peaks[i])/1024, float64(medianInt(rsss[i]))/1024)
	}
	fmt.Printf("ratio crdcheck/kubeconform: time %.2f, CPU time %.2f, peak memory %.2f (median peak %.2f)\n",
		med[0].Seconds()/med[1].Seconds(), median(cpus[0]).Seconds()/median(cpus[1]).Seconds(), float64(peaks[0])/float64(peaks[1]),
		float64(medianInt(rsss[0]))/float64(medianInt(rsss[1])))
	if load, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("load average before the last run: %s", load)
	}
	return nil
}

// measure runs args and returns the wall time, the CPU time (user and
// system), the peak resident memory in KB, and the output.
func measure(args []string) (time.Duration, time.Duration, int64, []byte, error) {
	cmd := exec.Command(args[0], args[1:]...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	d := time.Since(start)
	var (
		rss int64
		cpu time.Duration
	)
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = ru.Maxrss
		}
		cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	return d, cpu, rss, out.Bytes(), err
}

func command(dir string, env []string, name string, args ...string) error {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// modFile returns the path of a file of a module downloaded from the Go
// module proxy.
func modFile(module, file string) (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", module).Output()
	if err != nil {
		return "", fmt.Errorf("go mod download %s: %v", module, err)
	}
	m := regexp.MustCompile(`"Dir": "([^"]+)"`).FindSubmatch(out)
	if m == nil {
		return "", fmt.Errorf("go mod download %s: no directory", module)
	}
	return filepath.Join(string(m[1]), file), nil
}

func median(ds []time.Duration) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func medianInt(xs []int64) int64 {
	s := append([]int64(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[len(s)/2]
}

func list(ds []time.Duration) string {
	var parts []string
	for _, d := range ds {
		parts = append(parts, fmt.Sprintf("%.2f", d.Seconds()))
	}
	return strings.Join(parts, " ")
}

func tail(b []byte) string {
	s := string(b)
	if len(s) > 2000 {
		s = "..." + s[len(s)-2000:]
	}
	return s
}
