// Command benchratio reads the output of the side-by-side benchmarks
// (go test -bench, any -count) and prints, per benchmark, the median time
// and allocations of crdschema and of upstream and their ratios, as a
// Markdown table, followed by the targets of the performance issue and
// whether this run meets them.
//
// Usage:
//
//	go test -run='^$' -bench=. -count=3 | go run ./cmd/benchratio
//	go run ./cmd/benchratio results.txt
//
// A benchmark is a pair of lines whose names differ only in the last
// element, crdschema or upstream (the -N GOMAXPROCS suffix is ignored).
package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// sample holds the measurements of one side of one benchmark.
type sample struct {
	ns, bytes, allocs []float64
}

// pair is one benchmark: both sides.
type pair struct {
	name string
	side map[string]*sample
}

var procSuffix = regexp.MustCompile(`-[0-9]+$`)

func main() {
	var in io.Reader = os.Stdin
	if len(os.Args) > 2 {
		fmt.Fprintln(os.Stderr, "usage: benchratio [FILE]")
		os.Exit(2)
	}
	if len(os.Args) == 2 {
		f, err := os.Open(os.Args[1])
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchratio:", err)
			os.Exit(1)
		}
		defer f.Close()
		in = f
	}
	pairs, order, err := parse(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchratio:", err)
		os.Exit(1)
	}
	if len(order) == 0 {
		fmt.Fprintln(os.Stderr, "benchratio: no benchmark results with .../crdschema and .../upstream")
		os.Exit(1)
	}
	report(os.Stdout, pairs, order)
}

// parse reads benchmark lines; it returns the benchmarks by name and the
// names in the order they first appear.
func parse(r io.Reader) (map[string]*pair, []string, error) {
	pairs := map[string]*pair{}
	var order []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		full := procSuffix.ReplaceAllString(fields[0], "")
		i := strings.LastIndex(full, "/")
		if i < 0 {
			continue
		}
		name, side := full[:i], full[i+1:]
		if side != "crdschema" && side != "upstream" {
			continue
		}
		p := pairs[name]
		if p == nil {
			p = &pair{name: name, side: map[string]*sample{}}
			pairs[name] = p
			order = append(order, name)
		}
		s := p.side[side]
		if s == nil {
			s = &sample{}
			p.side[side] = s
		}
		// fields[1] is the iteration count; then value-unit pairs
		for j := 2; j+1 < len(fields); j += 2 {
			v, err := strconv.ParseFloat(fields[j], 64)
			if err != nil {
				continue
			}
			switch fields[j+1] {
			case "ns/op":
				s.ns = append(s.ns, v)
			case "B/op":
				s.bytes = append(s.bytes, v)
			case "allocs/op":
				s.allocs = append(s.allocs, v)
			}
		}
	}
	return pairs, order, sc.Err()
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// target is a goal of the performance issue for a group of benchmarks:
// crdschema's time (allocations) at most this fraction of upstream's, for
// each benchmark of the group and for the geometric mean of the group.
type target struct {
	time, allocs           float64 // each benchmark; 0: no target
	groupTime, groupAllocs float64 // the group's geometric mean; 0: no target
}

// targets are the group targets of issue 30 ("one rule for copies",
// geometric means), with the per-benchmark targets of the earlier issue
// "the next factor". ValidateCRDCached is crd.Validate with a warm
// crd.WithCache against upstream's cold validation.
var targets = map[string]target{
	"BenchmarkCreate":            {time: 1.0 / 7, groupTime: 1.0 / 10, groupAllocs: 1.0 / 15},
	"BenchmarkValidateCRD":       {time: 1.0 / 3.5, groupTime: 1.0 / 4},
	"BenchmarkValidateCRDCached": {groupTime: 1.0 / 20},
	"BenchmarkUpdateRatchet":     {time: 1.0 / 8, groupTime: 1.0 / 8},
	"BenchmarkServe":             {groupTime: 1.0 / 2.5},
	"BenchmarkOpenAPIV3":         {groupTime: 1.0 / 3},
}

// fraction prints a target fraction as "1/7" or "1/3.5".
func fraction(f float64) string {
	return "1/" + strconv.FormatFloat(1/f, 'g', 3, 64)
}

// kubeconformSeconds is kubeconform's time for 2,000 HTTPRoutes, the
// headline's target for crdschema on one goroutine.
const kubeconformSeconds = 0.43

func group(name string) string {
	g, _, _ := strings.Cut(name, "/")
	return g
}

func report(w io.Writer, pairs map[string]*pair, order []string) {
	fmt.Fprintln(w, "| benchmark | crdschema | upstream | time ratio | crdschema allocs | upstream allocs | allocs ratio | target |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---|")
	type tally struct {
		logTime, logAllocs float64
		n, nAllocs         int // nAllocs: ratios counted in logAllocs (a side with no allocations is left out)
		met, total         int
	}
	groups := map[string]*tally{}
	var groupOrder []string
	for _, name := range order {
		p := pairs[name]
		c, u := p.side["crdschema"], p.side["upstream"]
		if c == nil || u == nil {
			fmt.Fprintf(w, "| %s | (one side missing) |||||||\n", strings.TrimPrefix(name, "Benchmark"))
			continue
		}
		ct, ut := median(c.ns), median(u.ns)
		ca, ua := median(c.allocs), median(u.allocs)
		tr, ar := ct/ut, ca/ua
		g := group(name)
		t := groups[g]
		if t == nil {
			t = &tally{}
			groups[g] = t
			groupOrder = append(groupOrder, g)
		}
		t.n++
		t.logTime += math.Log(tr)
		if ar > 0 && !math.IsInf(ar, 0) {
			t.logAllocs += math.Log(ar)
			t.nAllocs++
		}
		verdict := ""
		if tg, ok := targets[g]; ok && tg.time > 0 {
			ok := tr <= tg.time
			verdict = "time ≤ " + fraction(tg.time)
			if tg.allocs > 0 {
				ok = ok && ar <= tg.allocs
				verdict += ", allocs ≤ " + fraction(tg.allocs)
			}
			t.total++
			if ok {
				t.met++
				verdict += ": met"
			} else {
				verdict += ": **not met**"
			}
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s |\n",
			strings.TrimPrefix(name, "Benchmark"), duration(ct), duration(ut), ratio(tr), count(ca), count(ua), ratio(ar), verdict)
	}

	fmt.Fprintln(w)
	fmt.Fprintln(w, "| group | benchmarks | geomean time ratio | geomean allocs ratio | target met |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---|")
	for _, g := range groupOrder {
		t := groups[g]
		gt, ga := math.Exp(t.logTime/float64(t.n)), math.Exp(t.logAllocs/float64(t.nAllocs))
		var met []string
		if tg := targets[g]; tg.groupTime > 0 {
			v := "geomean time ≤ " + fraction(tg.groupTime)
			if tg.groupAllocs > 0 {
				v += ", allocs ≤ " + fraction(tg.groupAllocs)
			}
			if gt <= tg.groupTime && (tg.groupAllocs == 0 || ga <= tg.groupAllocs) {
				v += ": met"
			} else {
				v += ": **not met**"
			}
			met = append(met, v)
		}
		if t.total > 0 {
			met = append(met, fmt.Sprintf("each: %d of %d", t.met, t.total))
		}
		if len(met) == 0 {
			met = append(met, "–")
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s |\n", strings.TrimPrefix(g, "Benchmark"), t.n,
			ratio(gt), ratio(ga), strings.Join(met, "; "))
	}

	if s := pairs["BenchmarkHeadline/serial"]; s != nil && s.side["crdschema"] != nil {
		fmt.Fprintln(w)
		serial := median(s.side["crdschema"].ns) / 1e9
		verdict := "met"
		if serial >= kubeconformSeconds {
			verdict = "**not met**"
		}
		fmt.Fprintf(w, "Headline: 2,000 HTTPRoutes through Create on one goroutine: crdschema %.3f s", serial)
		if u := s.side["upstream"]; u != nil {
			fmt.Fprintf(w, ", upstream %.3f s", median(u.ns)/1e9)
		}
		fmt.Fprintf(w, " (target: under kubeconform's %.2f s: %s).\n", kubeconformSeconds, verdict)
		if p := pairs["BenchmarkHeadline/parallel"]; p != nil && p.side["crdschema"] != nil {
			par := median(p.side["crdschema"].ns) / 1e9
			fmt.Fprintf(w, "In parallel (GOMAXPROCS goroutines, one Resource): crdschema %.3f s, %.2fx the serial throughput", par, serial/par)
			if u := p.side["upstream"]; u != nil && s.side["upstream"] != nil {
				fmt.Fprintf(w, "; upstream %.3f s, %.2fx", median(u.ns)/1e9, median(s.side["upstream"].ns)/median(u.ns))
			}
			fmt.Fprintln(w, ".")
			if one := pairs["BenchmarkHeadline/parallel-1core"]; one != nil && one.side["crdschema"] != nil {
				single := median(one.side["crdschema"].ns) / 1e9
				fmt.Fprintf(w, "Scaling with cores: the parallel run on all cores is %.2fx as fast as on one core (GOMAXPROCS=1, %.3f s)", single/par, single)
				if u, u1 := p.side["upstream"], one.side["upstream"]; u != nil && u1 != nil {
					fmt.Fprintf(w, "; upstream %.2fx", median(u1.ns)/median(u.ns))
				}
				fmt.Fprintln(w, ".")
			}
		}
	}
}

func ratio(r float64) string {
	if math.IsNaN(r) || math.IsInf(r, 0) {
		return "–"
	}
	if r == 0 {
		return "0"
	}
	if r >= 1 {
		return fmt.Sprintf("%.2f", r)
	}
	return fmt.Sprintf("%.3f (1/%.1f)", r, 1/r)
}

func duration(ns float64) string {
	switch {
	case math.IsNaN(ns):
		return "–"
	case ns >= 1e9:
		return fmt.Sprintf("%.3f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1f µs", ns/1e3)
	}
	return fmt.Sprintf("%.0f ns", ns)
}

func count(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', 0, 64)
}
