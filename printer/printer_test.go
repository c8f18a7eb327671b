package printer

import (
	"encoding/json"
	"math"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/crdschema/crdschema"
	"github.com/crdschema/crdschema/manifest"
)

// goldenCase is one table recorded from the API server (testdata/goldens.json):
// the version's printer columns, the stored object, and the served table.
// A date cell rendered as an age is recorded as "<age>".
type goldenCase struct {
	Name    string                                     `json:"name"`
	Columns []crdschema.CustomResourceColumnDefinition `json:"columns"`
	Object  json.RawMessage                            `json:"object"`
	Want    struct {
		Columns []Column `json:"columns"`
		Cells   []any    `json:"cells"`
	} `json:"want"`
}

var fixedNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func clock() time.Time { return fixedNow }

var ageRE = regexp.MustCompile(`^[0-9]+[smhdy]([0-9]+[smhd])?$`)

func TestGoldenTables(t *testing.T) {
	data, err := os.ReadFile("testdata/goldens.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []goldenCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 10 {
		t.Fatalf("only %d golden cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			p, _ := New(c.Columns, WithClock(clock))
			if got := p.Columns(); !reflect.DeepEqual(got, c.Want.Columns) {
				t.Errorf("columns:\n got %#v\nwant %#v", got, c.Want.Columns)
			}
			obj, err := manifest.UnmarshalObject(c.Object)
			if err != nil {
				t.Fatal(err)
			}
			row := p.Row(obj)
			if len(row) != len(c.Want.Cells) {
				t.Fatalf("row %#v, want %#v", row, c.Want.Cells)
			}
			for i, want := range c.Want.Cells {
				got := row[i]
				if want == "<age>" {
					if s, ok := got.(string); !ok || !ageRE.MatchString(s) {
						t.Errorf("cell %d = %#v, want an age", i, got)
					}
					continue
				}
				// The goldens are JSON: compare numbers as JSON numbers.
				b, _ := json.Marshal(got)
				var norm any
				json.Unmarshal(b, &norm)
				if !reflect.DeepEqual(norm, want) {
					t.Errorf("cell %d (%s) = %#v, want %#v", i, p.columns[i].Name, got, want)
				}
			}
		})
	}
}

func TestBadJSONPathKeepsEarlierColumns(t *testing.T) {
	p, err := New([]crdschema.CustomResourceColumnDefinition{
		{Name: "A", Type: "string", JSONPath: ".spec.a"},
		{Name: "Broken", Type: "string", JSONPath: ".spec["},
		{Name: "C", Type: "string", JSONPath: ".spec.c"},
	})
	if err == nil || err.Error() != `unrecognized column definition ".spec["` {
		t.Fatalf("error = %v", err)
	}
	if p == nil {
		t.Fatal("no partial printer")
	}
	cols := p.Columns()
	if len(cols) != 2 || cols[1].Name != "A" {
		t.Fatalf("columns = %#v", cols)
	}
	row := p.Row(map[string]any{"metadata": map[string]any{"name": "w"}, "spec": map[string]any{"a": "x", "c": "y"}})
	if !reflect.DeepEqual(row, []any{"w", "x"}) {
		t.Fatalf("row = %#v", row)
	}
}

func TestCells(t *testing.T) {
	obj := map[string]any{
		"metadata": map[string]any{"name": "n", "creationTimestamp": "2026-11-21T11:59:00Z"},
		"spec": map[string]any{
			"i": int64(7), "f": 2.9, "neg": -2.9, "b": true, "s": "text", "null": nil,
			"m": map[string]any{"z": int64(1), "a": "q"}, "l": []any{"x", int64(2)},
			"big": 1e21, "num": json.Number("12"), "int": 5,
			"past": "2026-11-20T12:00:00Z", "soon": "2026-11-21T12:00:01Z", "later": "2026-11-21T12:00:02Z",
			"zero": "0001-01-01T00:00:00Z", "empty": "", "nullstr": "null", "bad": "2026-11-21",
			"offset": "2026-11-21T13:00:00+02:00",
		},
	}
	cases := []struct {
		typ, path string
		want      any
	}{
		{"integer", ".spec.i", int64(7)},
		{"integer", ".spec.f", int64(2)},
		{"integer", ".spec.neg", int64(-2)},
		{"integer", ".spec.num", int64(12)},
		{"integer", ".spec.int", nil},
		{"integer", ".spec 7", nil},
		{"string", ".spec 7", "7"},
		{"integer", ".spec.s", nil},
		{"integer", ".spec.b", nil},
		{"integer", ".spec.null", nil},
		{"integer", ".spec.missing", nil},
		{"number", ".spec.i", float64(7)},
		{"number", ".spec.f", 2.9},
		{"number", ".spec.s", nil},
		{"boolean", ".spec.b", true},
		{"boolean", ".spec.s", nil},
		{"string", ".spec.s", "text"},
		{"string", ".spec.i", "7"},
		{"string", ".spec.f", "2.9"},
		{"string", ".spec.big", "1e+21"},
		{"string", ".spec.b", "true"},
		{"string", ".spec.null", "<no value>"},
		{"string", ".spec.m", `{"a":"q","z":1}`},
		{"string", ".spec.l", `["x",2]`},
		{"string", ".spec.l[*]", "x"},
		{"string", ".spec.missing", nil},
		{"string", ".spec.l[7]", nil},
		{"date", ".spec.past", "24h"},
		{"date", ".metadata.creationTimestamp", "60s"},
		{"date", ".spec.soon", "0s"},
		{"date", ".spec.later", "<invalid>"},
		{"date", ".spec.zero", "<unknown>"},
		{"date", ".spec.empty", "<unknown>"},
		{"date", ".spec.nullstr", "<unknown>"},
		{"date", ".spec.bad", "<invalid>"},
		{"date", ".spec.offset", "60m"},
		{"date", ".spec.i", nil},
		{"date", ".spec.null", nil},
		{"other", ".spec.s", nil},
		{"", ".spec.i", nil},
	}
	for _, c := range cases {
		p, err := New([]crdschema.CustomResourceColumnDefinition{{Name: "C", Type: c.typ, JSONPath: c.path}}, WithClock(clock))
		if err != nil {
			t.Fatal(err)
		}
		row := p.Row(obj)
		if !reflect.DeepEqual(row, []any{"n", c.want}) {
			t.Errorf("%s %s: row %#v, want cell %#v", c.typ, c.path, row, c.want)
		}
	}
}

func TestNameCell(t *testing.T) {
	p, _ := New(nil)
	for _, obj := range []map[string]any{
		nil, {}, {"metadata": "x"}, {"metadata": map[string]any{"name": int64(3)}},
	} {
		if got := p.Row(obj)[0]; got != "" {
			t.Errorf("name of %v = %#v, want empty", obj, got)
		}
	}
}

func TestColumnsAreCopies(t *testing.T) {
	p, _ := New(nil)
	cols := p.Columns()
	cols[0].Name = "changed"
	if p.Columns()[0].Name != "Name" {
		t.Fatal("Columns exposes the printer's state")
	}
}

func TestScaleColumns(t *testing.T) {
	names := func(p *Printer) string {
		var s []string
		for _, c := range p.Columns() {
			s = append(s, c.Name+":"+c.Type)
		}
		return strings.Join(s, ",")
	}
	if got := names(NewScale(nil)); got != "Name:string,Age:date" {
		t.Errorf("no scale: %s", got)
	}
	full := NewScale(&crdschema.CustomResourceSubresourceScale{SpecReplicasPath: ".spec.replicas", StatusReplicasPath: ".status.replicas"}, WithClock(clock))
	if got := names(full); got != "Name:string,Desired:integer,Available:integer,Age:date" {
		t.Errorf("scale: %s", got)
	}
	if d := full.Columns()[1].Description; d != "Number of desired replicas" {
		t.Errorf("Desired description %q", d)
	}
	if d := full.Columns()[2].Description; d != "Number of actual replicas" {
		t.Errorf("Available description %q", d)
	}
	row := full.Row(map[string]any{
		"metadata": map[string]any{"name": "s", "creationTimestamp": "2026-11-21T10:00:00Z"},
		"spec":     map[string]any{"replicas": int64(3)}, "status": map[string]any{"replicas": int64(2)},
	})
	if !reflect.DeepEqual(row, []any{"s", int64(3), int64(2), "120m"}) {
		t.Errorf("scale row %#v", row)
	}
	if got := names(NewScale(&crdschema.CustomResourceSubresourceScale{StatusReplicasPath: ".status.replicas"})); got != "Name:string,Available:integer,Age:date" {
		t.Errorf("status only: %s", got)
	}
}

func TestHumanDuration(t *testing.T) {
	s, m, h, d, y := time.Second, time.Minute, time.Hour, 24*time.Hour, 365*24*time.Hour
	cases := []struct {
		d    time.Duration
		want string
	}{
		{-2 * s, "<invalid>"},
		{-1999 * time.Millisecond, "0s"},
		{-s, "0s"},
		{-time.Millisecond, "0s"},
		{0, "0s"},
		{999 * time.Millisecond, "0s"},
		{s, "1s"},
		{119 * s, "119s"},
		{120 * s, "2m"},
		{121 * s, "2m1s"},
		{9*m + 59*s, "9m59s"},
		{10 * m, "10m"},
		{10*m + 59*s, "10m"},
		{3*h - s, "179m"},
		{3 * h, "3h"},
		{3*h + 59*s, "3h"},
		{3*h + m, "3h1m"},
		{8*h - s, "7h59m"},
		{8 * h, "8h"},
		{48*h - s, "47h"},
		{48 * h, "2d"},
		{49 * h, "2d1h"},
		{8*d - s, "7d23h"},
		{8 * d, "8d"},
		{2*y - s, "729d"},
		{2 * y, "2y"},
		{2*y + d, "2y1d"},
		{8*y - s, "7y364d"},
		{8 * y, "8y"},
		{time.Duration(math.MaxInt64), "292y"},
	}
	for _, c := range cases {
		if got := humanDuration(c.d); got != c.want {
			t.Errorf("humanDuration(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestDefaultClock(t *testing.T) {
	p, _ := New(nil)
	ts := time.Now().Add(-90 * time.Second).UTC().Format(time.RFC3339)
	got := p.Row(map[string]any{"metadata": map[string]any{"name": "a", "creationTimestamp": ts}})[1]
	if got != "90s" && got != "91s" && got != "89s" {
		t.Fatalf("age = %v, want about 90s", got)
	}
}

func TestConcurrentUse(t *testing.T) {
	p, err := New([]crdschema.CustomResourceColumnDefinition{
		{Name: "Ready", Type: "string", JSONPath: `.status.conditions[?(@.type=="Ready")].status`},
		{Name: "Names", Type: "string", JSONPath: `{range .spec.l[*]}{@}{end}`[1:]},
	}, WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	obj := map[string]any{
		"metadata": map[string]any{"name": "x"},
		"status":   map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": "True"}}},
		"spec":     map[string]any{"l": []any{"a", "b"}},
	}
	done := make(chan []any)
	for i := 0; i < 8; i++ {
		go func() { done <- p.Row(obj) }()
	}
	for i := 0; i < 8; i++ {
		if row := <-done; !reflect.DeepEqual(row, []any{"x", "True", "a"}) {
			t.Errorf("row %#v", row)
		}
	}
}
