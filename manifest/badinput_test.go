package manifest

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"testing"
)

// TestBadDocuments: a stream holding bad documents of every kind gives,
// for each, an error naming the document and its line, reads the good
// ones around them, and ends; no panic, no hang.
func TestBadDocuments(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n" +
		"d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n" +
		"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]\ni: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]\n"
	docs := []struct {
		text string
		err  string // a pattern of the error; "" for a good document
	}{
		{"kind: A\nn: 1\n", ""},
		{"kind: B\nl: [1, 2\n", `yaml: line \d+: did not find expected`},                         // truncated
		{"kind: C\nm:\n\tx: 1\n", `yaml: line \d+: found character that cannot start any token`}, // a tab
		{bomb, `excessive aliasing`},
		{"kind: D\nbase: &b {x: 1}\nm:\n  <<: *b\n  z: 2\n", ""}, // a merge key: merged
		{"kind: E\nb: \x00\x01\x02\xff\n", `yaml: `},             // binary
		{"- a\n- b\n", `expected an object, got a list`},
		{"just a string\n", `expected an object, got a string`},
		{"kind: F\na: 1\na: 2\n", ""}, // a repeated key: the last value
		{"kind: G\nx: *nowhere\n", `unknown anchor`},
		{"kind: H\n? [a, b]\n: c\n", `unsupported map key|invalid map key`},
		{"kind: I\n", ""},
	}
	var stream strings.Builder
	lines := make([]int, len(docs))
	line := 1
	for i, d := range docs {
		if i > 0 {
			stream.WriteString("---\n")
			line++
		}
		lines[i] = line
		stream.WriteString(d.text)
		line += strings.Count(d.text, "\n")
	}
	var got []*Document
	var errs []error
	bounded(t, hostileLimit, func() {
		dec := NewDecoder(strings.NewReader(stream.String()))
		for range 100 {
			doc, err := dec.Decode()
			if doc == nil {
				if err != io.EOF {
					t.Errorf("read error %v", err)
				}
				return
			}
			got = append(got, doc)
			errs = append(errs, err)
		}
		t.Error("the Decoder does not end")
	})
	if len(got) != len(docs) {
		t.Fatalf("%d documents, want %d", len(got), len(docs))
	}
	for i, d := range docs {
		doc, err := got[i], errs[i]
		if doc.Index != i+1 || doc.Line != lines[i] {
			t.Errorf("document %d: index %d line %d, want line %d", i+1, doc.Index, doc.Line, lines[i])
		}
		if d.err == "" {
			if err != nil || doc.Object == nil {
				t.Errorf("document %d: %v", i+1, err)
			}
			continue
		}
		where := fmt.Sprintf("document %d (line %d): ", i+1, lines[i])
		if err == nil || !strings.HasPrefix(err.Error(), where) || !regexp.MustCompile(d.err).MatchString(err.Error()) {
			t.Errorf("document %d: error %v, want %q then %s", i+1, err, where, d.err)
		}
	}
	if m := got[4].Object["m"]; fmt.Sprint(m) != "map[x:1 z:2]" {
		t.Errorf("merge key: %v", m)
	}
	if a := got[8].Object["a"]; a != int64(2) {
		t.Errorf("repeated key: %v, want the last value", a)
	}
	// A YAML error's line is the line in the stream.
	if err := errs[1]; !strings.Contains(err.Error(), fmt.Sprintf("line %d: did not", lines[1]+1)) && !strings.Contains(err.Error(), fmt.Sprintf("line %d: did not", lines[1]+2)) {
		t.Errorf("truncated document: %v does not give the stream's line", err)
	}
}

// TestHugeDocument: a 50 MB document decodes in bounded time, streamed
// through a Decoder.
func TestHugeDocument(t *testing.T) {
	skipUnderRace(t)
	if testing.Short() {
		t.Skip("-short: a 50 MB document")
	}
	var b bytes.Buffer
	b.WriteString("kind: Big\ndata:\n")
	for i := 0; b.Len() < 50<<20; i++ {
		fmt.Fprintf(&b, "  k%07d: %s\n", i, strings.Repeat("v", 100))
	}
	b.WriteString("---\nkind: After\n")
	var docs []*Document
	var err error
	boundedAlloc(t, 8<<30, func() {
		dec := NewDecoder(&b)
		for {
			var doc *Document
			if doc, err = dec.Decode(); doc == nil || err != nil {
				return
			}
			docs = append(docs, doc)
		}
	})
	if err != io.EOF || len(docs) != 2 || docs[1].Object["kind"] != "After" || len(docs[0].Object["data"].(map[string]any)) < 400000 {
		t.Errorf("%d documents, %v", len(docs), err)
	}
}
