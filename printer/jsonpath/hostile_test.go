package jsonpath_test

// Hostile templates and data for JSONPath: bounded time and memory, clear
// errors, no panics; one Template shared by many goroutines.

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/crdschema/crdschema/internal/hostile"
	"github.com/crdschema/crdschema/printer/jsonpath"
)

// The harness of the hostile-input tests (package internal/hostile).
const hostileLimit = hostile.Limit

var (
	bounded       = hostile.Run
	boundedAlloc  = hostile.RunAlloc
	skipUnderRace = hostile.SkipUnderRace
)

func nestedMaps(depth int) map[string]any {
	v := map[string]any{"leaf": "x"}
	for i := 1; i < depth; i++ {
		v = map[string]any{"a": v, "l": []any{int64(i)}}
	}
	return v
}

// execute parses and runs text on data, with and without missing keys
// allowed, checking that data is not modified.
func execute(t *testing.T, text string, data any) (out string, parseErr, execErr error) {
	t.Helper()
	before := fmt.Sprint(data)
	bounded(t, hostileLimit, func() {
		var tmpl *jsonpath.Template
		tmpl, parseErr = jsonpath.Parse("hostile", text)
		if parseErr != nil {
			return
		}
		out, execErr = tmpl.ExecuteString(data)
		tmpl.AllowMissingKeys(true).ExecuteString(data)
		tmpl.First(data)
	})
	if len(before) < 1<<20 && fmt.Sprint(data) != before {
		t.Error("the data was modified")
	}
	return
}

// TestHostileTemplates parses templates that are huge, deeply nested or
// malformed: each parses or fails with a short error.
func TestHostileTemplates(t *testing.T) {
	skipUnderRace(t)
	bad := "a\xff\xfeb"
	for _, text := range []string{
		"{" + strings.Repeat(".a", 100000) + "}",
		"{." + strings.Repeat("a", 10<<20) + "}",
		strings.Repeat("{range .l[*]}", 10000) + strings.Repeat("{end}", 10000),
		strings.Repeat("{", 100000) + strings.Repeat("}", 100000),
		"{" + strings.Repeat("[", 100000) + "}",
		"{" + strings.Repeat("[?(@.a==", 10000) + "}",
		"{.l[" + strings.Repeat("0,", 100000) + "0]}",
		"{.l[?(@ > 1e400)]}", "{.l[?(@ > 18446744073709551616)]}", "{.l[?(@ == -9223372036854775808)]}",
		"{.l[9223372036854775807]}", "{.l[-9223372036854775808:9223372036854775807:9223372036854775807]}", "{.l[::-1]}",
		"{." + bad + "}", "{['" + bad + "']}", `{"` + bad + `"}`, "{.l[?(@.x=='" + bad + "')]}",
		"{range .a}{end}{end}", "{end}", "{range}", "{.a[?(@.b)][?(@.c)]..d.*[*]['e','f']}",
	} {
		out, perr, eerr := execute(t, text, map[string]any{"l": []any{int64(1), 2.5, "x"}, "a": nestedMaps(100)})
		// (An error may quote the template or key, at any length, as the
		// Kubernetes implementation's do.)
		_, _, _ = out, perr, eerr
	}
}

// TestHostileData evaluates templates on data nested 10,000 and 100,000
// deep, on 100,000-item lists and maps, and on results past the bound of
// 2^20 values: a result or a clear error.
func TestHostileData(t *testing.T) {
	skipUnderRace(t)
	list := make([]any, 100000)
	m := make(map[string]any, 100000)
	for i := range list {
		list[i] = map[string]any{"n": int64(i), "s": fmt.Sprint(i), "l": []any{int64(i), int64(i)}}
		m[fmt.Sprint("k", i)] = int64(i)
	}
	data := map[string]any{"list": list, "map": m, "deep": nestedMaps(9000), "deeper": nestedMaps(100000),
		"big": strings.Repeat("a", 10<<20), "nums": []any{int64(math.MaxInt64), int64(math.MinInt64), 1e308, 5e-324, math.NaN(), math.Inf(1)},
		"ints": []any{int64(math.MaxInt64), int64(math.MinInt64), int64(0)}, "floats": []any{1e308, 5e-324, math.NaN(), math.Inf(1), math.Inf(-1)}}
	for _, tc := range []struct {
		text    string
		check   func(string) bool
		wantErr string
	}{
		{"{.deep" + strings.Repeat(".a", 8999) + ".leaf}", func(s string) bool { return s == "x" }, ""},
		{"{.deep..leaf}", func(s string) bool { return s == "x" }, ""},
		{"{.deeper..leaf}", nil, "deeper than 10000"},
		{"{.list[?(@.n > 99998)].s}", func(s string) bool { return s == "99999" }, ""},
		{"{.list[-1].n}", func(s string) bool { return s == "99999" }, ""},
		{"{.map.k99999}", func(s string) bool { return s == "99999" }, ""},
		{"{.map.*}", func(s string) bool { return strings.Count(s, " ") == 99999 }, ""},
		{"{range .list[*]}{.n}{end}", func(s string) bool { return strings.HasSuffix(s, "9999899999") }, ""},
		{"{.list[*].l[*]}", func(s string) bool { return strings.Count(s, " ") == 199999 }, ""},
		{strings.Repeat("{.list[*].l[*]}", 6), nil, ""}, // more than 2^20 values: an error
		{"{.big}", func(s string) bool { return len(s) == 10<<20 }, ""},
		{"{.nums[0]} {.nums[1]} {.nums[2]} {.nums[3]}", func(s string) bool {
			return s == "9223372036854775807 -9223372036854775808 1e+308 5e-324"
		}, ""},
		{"{.ints[?(@ > 100)]}", func(s string) bool { return s == "9223372036854775807" }, ""},
		// > is "not <=", so NaN passes, as in Kubernetes.
		{"{.floats[?(@ > 100.5)]}", func(s string) bool { return s == "1e+308 NaN +Inf" }, ""},
		// As in Kubernetes, an integer does not compare with a float.
		{"{.nums[?(@ > 100)]}", nil, "incompatible types for comparison"},
	} {
		var out string
		var perr, eerr error
		boundedAlloc(t, 1<<30, func() { out, perr, eerr = execute(t, tc.text, data) })
		if perr != nil {
			t.Errorf("%.40q: parse error %v", tc.text, perr)
			continue
		}
		switch {
		case tc.wantErr != "" && (eerr == nil || !strings.Contains(eerr.Error(), tc.wantErr)):
			t.Errorf("%.40q: error %v, want one containing %q", tc.text, eerr, tc.wantErr)
		case tc.check != nil && (eerr != nil || !tc.check(out)):
			t.Errorf("%.40q: %.100q, %v", tc.text, out, eerr)
		case strings.HasPrefix(tc.text, "{.list[*].l[*]}{") && eerr == nil:
			t.Errorf("%.40q: no error for %d bytes of output", tc.text, len(out))
		}
	}
}

// TestConcurrentTemplate evaluates one Template on different data from
// many goroutines (run with -race).
func TestConcurrentTemplate(t *testing.T) {
	tmpl := jsonpath.MustParse("c", `{range .items[*]}{.name}={.spec.replicas} {.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}{..x}`)
	lax := tmpl.AllowMissingKeys(true)
	datas := make([]any, 10)
	for i := range datas {
		items := make([]any, i)
		for j := range items {
			items[j] = map[string]any{"name": fmt.Sprint("n", j), "spec": map[string]any{"replicas": int64(j)},
				"status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": fmt.Sprint(j%2 == 0)}}}, "x": j}
		}
		datas[i] = map[string]any{"items": items}
	}
	run := func(i int) string {
		a, err := tmpl.ExecuteString(datas[i])
		b, lerr := lax.ExecuteString(datas[i])
		v, found, ferr := tmpl.First(datas[i])
		return fmt.Sprint(a, err, b, lerr, v, found, ferr)
	}
	want := make([]string, len(datas))
	for i := range datas {
		want[i] = run(i)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 50 {
				i := (g + k) % len(datas)
				if got := run(i); got != want[i] {
					t.Errorf("data %d: %q\nwant %q", i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
}
