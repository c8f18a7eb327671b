package printer_test

// Hostile objects and columns for the printer: bounded time and memory,
// clear results (nil cells, "<invalid>"), no panics, inputs left alone;
// and one Printer shared by many goroutines.

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/internal/hostile"
	"github.com/crdschema/crdschema/printer"
)

// The harness of the hostile-input tests (package internal/hostile).
const hostileLimit = hostile.Limit

var (
	bounded       = hostile.Run
	boundedAlloc  = hostile.RunAlloc
	skipUnderRace = hostile.SkipUnderRace
)

var now = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

func clock() time.Time { return now }

func newPrinter(t testing.TB, cols ...crdschema.CustomResourceColumnDefinition) *printer.Printer {
	t.Helper()
	p, err := printer.New(cols, printer.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// row renders obj, checking that it is not modified.
func row(t *testing.T, p *printer.Printer, obj map[string]any) []any {
	t.Helper()
	before := fmt.Sprint(obj)
	var cells []any
	bounded(t, hostileLimit, func() {
		cells = p.Row(obj)
		var b bytes.Buffer
		if err := p.Table([]map[string]any{obj}).WriteText(&b, true); err != nil {
			t.Error(err)
		}
	})
	if fmt.Sprint(obj) != before {
		t.Error("Row modified the object")
	}
	return cells
}

func nestedMaps(depth int) map[string]any {
	v := map[string]any{"leaf": "x"}
	for i := 1; i < depth; i++ {
		v = map[string]any{"a": v}
	}
	return v
}

// TestHostileDeepObject prints columns of objects nested 10,000 and
// 100,000 deep: long paths, recursive descent (bounded at 10,000 levels:
// a nil cell beyond) and deep values printed as JSON.
func TestHostileDeepObject(t *testing.T) {
	skipUnderRace(t)
	p := newPrinter(t,
		crdschema.CustomResourceColumnDefinition{Name: "Path", Type: "string", JSONPath: ".spec" + strings.Repeat(".a", 999) + ".leaf"},
		crdschema.CustomResourceColumnDefinition{Name: "Descent", Type: "string", JSONPath: "..leaf"},
		crdschema.CustomResourceColumnDefinition{Name: "JSON", Type: "string", JSONPath: ".spec.a"},
	)
	for _, tc := range []struct {
		depth       int
		descentCell any
	}{{1000, "x"}, {9000, "x"}, {100000, nil}} {
		obj := map[string]any{"metadata": map[string]any{"name": "deep"}, "spec": nestedMaps(tc.depth)}
		cells := row(t, p, obj)
		if len(cells) != 4 || cells[0] != "deep" {
			t.Fatalf("depth %d: cells %.100v", tc.depth, cells)
		}
		if tc.depth == 1000 && cells[1] != "x" {
			t.Errorf("depth %d: path cell %v", tc.depth, cells[1])
		}
		if cells[2] != tc.descentCell {
			t.Errorf("depth %d: descent cell %v, want %v", tc.depth, cells[2], tc.descentCell)
		}
		if s, _ := cells[3].(string); !strings.HasPrefix(s, `{"a":{"a":`) {
			t.Errorf("depth %d: JSON cell %.50v", tc.depth, cells[3])
		}
	}
}

// TestHostileBigValues: a 10 MB string, a list of 100,000 items and a map
// of 100,000 keys in columns of every type.
func TestHostileBigValues(t *testing.T) {
	skipUnderRace(t)
	big := strings.Repeat("a", 10<<20)
	list := make([]any, 100000)
	m := make(map[string]any, 100000)
	for i := range list {
		list[i] = int64(i)
		m[fmt.Sprint("k", i)] = int64(i)
	}
	var cols []crdschema.CustomResourceColumnDefinition
	for _, typ := range []string{"string", "integer", "number", "boolean", "date"} {
		for _, path := range []string{".spec.big", ".spec.list", ".spec.list[*]", ".spec.map", ".spec.map.k99999", ".spec.list[-1]"} {
			cols = append(cols, crdschema.CustomResourceColumnDefinition{Name: typ + path, Type: typ, JSONPath: path})
		}
	}
	p := newPrinter(t, cols...)
	obj := map[string]any{"metadata": map[string]any{"name": big}, "spec": map[string]any{"big": big, "list": list, "map": m}}
	var cells []any
	// A text table pads every cell to its column's width.
	boundedAlloc(t, 1<<30, func() { cells = row(t, p, obj) })
	want := map[string]any{
		"string.spec.big": big, "integer.spec.list[*]": int64(0), "number.spec.map.k99999": 99999.0,
		"integer.spec.list[-1]": int64(99999), "date.spec.big": "<invalid>", "integer.spec.big": nil, "boolean.spec.list": nil,
	}
	cols2 := p.Columns()
	for i, c := range cols2 {
		if w, ok := want[c.Name]; ok && cells[i] != w {
			t.Errorf("%s: %.50v, want %.50v", c.Name, cells[i], w)
		}
	}
	if cells[0] != big {
		t.Error("name cell")
	}
}

// TestHostileNumbersAndDates: numbers at the edges of int64 and float64
// (and NaN and infinities, which only an in-memory object can hold), and
// dates at the edges of time.
func TestHostileNumbersAndDates(t *testing.T) {
	p := newPrinter(t,
		crdschema.CustomResourceColumnDefinition{Name: "I", Type: "integer", JSONPath: ".n"},
		crdschema.CustomResourceColumnDefinition{Name: "N", Type: "number", JSONPath: ".n"},
		crdschema.CustomResourceColumnDefinition{Name: "S", Type: "string", JSONPath: ".n"},
		crdschema.CustomResourceColumnDefinition{Name: "D", Type: "date", JSONPath: ".d"},
	)
	for _, tc := range []struct {
		n    any
		want []any // I, N, S
	}{
		// A number column converts integers to float64.
		{int64(math.MaxInt64), []any{int64(math.MaxInt64), float64(math.MaxInt64), "9223372036854775807"}},
		{int64(math.MinInt64), []any{int64(math.MinInt64), float64(math.MinInt64), "-9223372036854775808"}},
		{1e308, []any{int64(math.MinInt64), 1e308, "1e+308"}},
		{5e-324, []any{int64(0), 5e-324, "5e-324"}},
		{18446744073709551616.0, []any{int64(math.MinInt64), 18446744073709551616.0, "1.8446744073709552e+19"}},
	} {
		cells := row(t, p, map[string]any{"n": tc.n})
		if !reflect.DeepEqual(cells[1:4], tc.want) {
			t.Errorf("%v: cells %#v, want %#v", tc.n, cells[1:4], tc.want)
		}
	}
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		cells := row(t, p, map[string]any{"n": x, "l": []any{x}})
		if s, ok := cells[3].(string); !ok || s == "" {
			t.Errorf("%v: string cell %#v", x, cells[3])
		}
	}
	for _, tc := range []struct {
		d    any
		want string
	}{
		{"2000-01-01T00:00:00Z", "0s"},
		{"0001-01-01T00:00:00Z", "<unknown>"},
		{"", "<unknown>"},
		{"9999-12-31T23:59:59Z", "<invalid>"},
		// Ages saturate at the longest time.Duration, 292 years.
		{"1000-01-01T00:00:00Z", "292y"},
		{"2000-01-01T00:00:00.999999999+14:00", "13h"},
		{"99999-01-01T00:00:00Z", "<invalid>"},
		{"a\xff", "<invalid>"},
		{strings.Repeat("9", 1<<20), "<invalid>"},
	} {
		cells := row(t, p, map[string]any{"d": tc.d})
		if cells[4] != tc.want {
			t.Errorf("date %.30q: %#v, want %q", tc.d, cells[4], tc.want)
		}
	}
	for _, d := range []time.Duration{math.MaxInt64, math.MinInt64, -1, 0} {
		if s := printer.HumanDuration(d); s == "" {
			t.Errorf("humanDuration(%d) is empty", d)
		}
	}
}

// TestHostileColumns: column paths that are huge, deep or invalid UTF-8
// compile or fail clearly, and never break rows.
func TestHostileColumns(t *testing.T) {
	skipUnderRace(t)
	bad := "a\xff\xfeb"
	for _, path := range []string{
		strings.Repeat(".a", 100000),
		"." + strings.Repeat("a", 10<<20),
		strings.Repeat("{range .a[*]}", 10000) + strings.Repeat("{end}", 10000),
		strings.Repeat("[", 100000),
		"." + bad, "['" + bad + "']", `.a[?(@.x > 1e400)]`, `.a[?(@.x == "` + bad + `")]`,
		`.a[9223372036854775807]`, `.a[-9223372036854775808:]`, `.a[0:18446744073709551616]`,
	} {
		var p *printer.Printer
		var err error
		bounded(t, hostileLimit, func() {
			p, err = printer.New([]crdschema.CustomResourceColumnDefinition{{Name: "C", Type: "string", JSONPath: path}}, printer.WithClock(clock))
		})
		if p == nil {
			t.Fatalf("%.30q: no printer (err %v)", path, err)
		}
		obj := map[string]any{"a": []any{map[string]any{"x": int64(1)}}, bad: bad}
		cells := row(t, p, obj)
		if len(cells) != len(p.Columns()) {
			t.Errorf("%.30q: %d cells for %d columns", path, len(cells), len(p.Columns()))
		}
		if err != nil && len(err.Error()) > 1<<21 {
			t.Errorf("%.30q: error of %d bytes", path, len(err.Error()))
		}
	}
	// Selectors and field sets with hostile input.
	f := printer.NewFields([]crdschema.SelectableField{{JSONPath: ".spec.a"}, {JSONPath: ".spec." + bad}}, true)
	for _, sel := range []string{strings.Repeat("a=b,", 100000) + "a=b", "spec.a=" + strings.Repeat("x", 10<<20), bad + "=" + bad, strings.Repeat(`\`, 1<<20)} {
		bounded(t, hostileLimit, func() {
			if s, err := f.ParseSelector(sel); err == nil {
				f.Matches(s, map[string]any{"spec": map[string]any{"a": nestedMaps(10000)}, "metadata": map[string]any{"name": bad}})
			}
			printer.ParseSelector(sel)
		})
	}
}

// TestConcurrentPrinter renders rows and tables of different objects with
// one Printer from many goroutines (run with -race): every row is the
// sequential one.
func TestConcurrentPrinter(t *testing.T) {
	p := newPrinter(t,
		crdschema.CustomResourceColumnDefinition{Name: "Replicas", Type: "integer", JSONPath: ".spec.replicas"},
		crdschema.CustomResourceColumnDefinition{Name: "Ready", Type: "string", JSONPath: `.status.conditions[?(@.type=="Ready")].status`},
		crdschema.CustomResourceColumnDefinition{Name: "Hosts", Type: "string", JSONPath: ".spec.hosts"},
		crdschema.CustomResourceColumnDefinition{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp"},
		crdschema.CustomResourceColumnDefinition{Name: "Any", Type: "string", JSONPath: "..x", Priority: 1},
	)
	f := printer.NewFields([]crdschema.SelectableField{{JSONPath: ".spec.color"}}, true)
	sel, err := f.ParseSelector("spec.color=blue,metadata.namespace!=kube-system")
	if err != nil {
		t.Fatal(err)
	}
	objs := make([]map[string]any, 10)
	for i := range objs {
		objs[i] = map[string]any{
			"metadata": map[string]any{"name": fmt.Sprint("o", i), "namespace": "default", "creationTimestamp": fmt.Sprintf("1999-12-%02dT00:00:00Z", i+1)},
			"spec":     map[string]any{"replicas": int64(i), "hosts": []any{"a", i}, "color": []string{"blue", "red"}[i%2], "x": map[string]any{"x": i}},
			"status":   map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": fmt.Sprint(i%2 == 0)}}},
		}
	}
	run := func(i int) string {
		var b bytes.Buffer
		p.Table(objs[i:]).WriteText(&b, i%2 == 0)
		ok, err := f.Matches(sel, objs[i])
		set, serr := f.Set(objs[i])
		return fmt.Sprint(p.Row(objs[i]), b.String(), ok, err, set, serr)
	}
	want := make([]string, len(objs))
	for i := range objs {
		want[i] = run(i)
	}
	before := fmt.Sprint(objs)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 50 {
				i := (g + k) % len(objs)
				if got := run(i); got != want[i] {
					t.Errorf("object %d: %s\nwant %s", i, got, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	if fmt.Sprint(objs) != before {
		t.Error("objects were modified")
	}
}

// TestNewDoesNotModifyColumns: New and NewFields leave their definitions
// alone, and Columns returns a copy.
func TestNewDoesNotModifyColumns(t *testing.T) {
	cols := []crdschema.CustomResourceColumnDefinition{
		{Name: "A", Type: "integer", JSONPath: "spec.replicas", Format: "int32", Description: "d", Priority: 1},
		{Name: "B", Type: "date", JSONPath: ".metadata.creationTimestamp"},
		{Name: "Bad", Type: "string", JSONPath: ".a["},
	}
	before := fmt.Sprintf("%#v", cols)
	p, _ := printer.New(cols)
	if fmt.Sprintf("%#v", cols) != before {
		t.Error("New modified the columns")
	}
	c := p.Columns()
	c[0].Name = "changed"
	if p.Columns()[0].Name == "changed" {
		t.Error("Columns shares its slice")
	}
	sf := []crdschema.SelectableField{{JSONPath: ".spec.a"}}
	sfBefore := fmt.Sprintf("%#v", sf)
	printer.NewFields(sf, true)
	if fmt.Sprintf("%#v", sf) != sfBefore {
		t.Error("NewFields modified the fields")
	}
}
