package yamljson

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// chunkReader yields its text in reads of the given sizes, in turn.
type chunkReader struct {
	data  []byte
	sizes []int
	n     int
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	size := r.sizes[r.n%len(r.sizes)]
	r.n++
	size = min(size, len(p), len(r.data))
	copy(p, r.data[:size])
	r.data = r.data[size:]
	return size, nil
}

// streamed splits data with a Splitter, reading it in reads of sizes.
func streamed(t testing.TB, data []byte, sizes []int) []Chunk {
	got, err := all(NewSplitter(&chunkReader{data: data, sizes: sizes}))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// all returns every chunk of s and its final error (nil for io.EOF).
func all(s *Splitter) ([]Chunk, error) {
	var got []Chunk
	for {
		c, err := s.Next()
		if err == io.EOF {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		got = append(got, c)
	}
}

// sameChunks fails when the Splitter's documents differ from
// SplitAll'. They are compared once the whole stream is read, so
// that a chunk whose bytes were written again after it was emitted fails
// too.
func sameChunks(t testing.TB, data []byte, sizes []int) {
	want := SplitAll(data)
	got := streamed(t, data, sizes)
	if len(got) != len(want) {
		t.Fatalf("reads of %v: %d documents, SplitAll has %d\ninput: %q", sizes, len(got), len(want), data)
	}
	for i := range want {
		if !bytes.Equal(got[i].Data, want[i].Data) || got[i].Line != want[i].Line || got[i].First != want[i].First {
			t.Fatalf("reads of %v: document %d is line %d (from %d) %q, SplitAll has line %d (from %d) %q\ninput: %q",
				sizes, i, got[i].Line, got[i].First, got[i].Data, want[i].Line, want[i].First, want[i].Data, data)
		}
	}
}

// TestSplitStream: the streaming splitter finds the documents that
// SplitAll finds in the whole text, however the reads fall, and
// each document's text stays what it was while later blocks are read.
func TestSplitStream(t *testing.T) {
	inputs := []string{
		"",
		"\n\n",
		"a: 1\n",
		"a: 1",
		"a: 1\n---",
		"a: 1\n---\nb: 2",
		"# head\n\n---\na: 1\n--- # c\n\n# only a comment\n---\n  b: 2\n---x\n--- y\nc: |\n  ---\n...\n",
		"a: 1\r\n---\r\nb: 2\r\n",
		"\n\n  {\"a\": 1}\n",
		"  \n[1, 2]",
		"---\n# nothing\n---\n",
		"---\n---\n---",
		"a: 1\n---\n",
	}
	// many documents across several blocks, one larger than a block
	var b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: m%d\n", i)
		if i == 150 {
			b.WriteString("data:\n  big: " + strings.Repeat("x", 3*streamBlock) + "\n")
		}
	}
	inputs = append(inputs, b.String())
	for _, in := range inputs {
		for _, sizes := range [][]int{{1 << 30}, {1}, {7, 1, 100}, {streamBlock - 1}, {4096}} {
			sameChunks(t, []byte(in), sizes)
		}
	}
}

// TestSplitStreamReadError: the documents read before a read error are
// emitted, then the error is returned.
func TestSplitStreamReadError(t *testing.T) {
	failing := errors.New("disk on fire")
	r := io.MultiReader(strings.NewReader("a: 1\n---\nb: 2\n---\nc: "), iotestErrReader{failing})
	chunks, err := all(NewSplitter(r))
	var got []string
	for _, c := range chunks {
		got = append(got, string(c.Data))
	}
	if !errors.Is(err, failing) {
		t.Fatalf("error %v, want %v", err, failing)
	}
	if want := []string{"a: 1\n", "b: 2\n"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("documents %q, want %q", got, want)
	}
}

type iotestErrReader struct{ err error }

func (r iotestErrReader) Read([]byte) (int, error) { return 0, r.err }

// FuzzSplitStream: the Splitter and SplitAll agree on any text and
// any pattern of reads.
func FuzzSplitStream(f *testing.F) {
	f.Add([]byte("a: 1\n---\nb: 2\n"), uint8(1), uint8(3))
	f.Add([]byte("# c\n---  # x\n\n  {\"a\": 1}\n---\n"), uint8(2), uint8(0))
	f.Add([]byte("\r\n---\r\n[1]\r\n"), uint8(5), uint8(200))
	f.Fuzz(func(t *testing.T, data []byte, a, b uint8) {
		sameChunks(t, data, []int{int(a) + 1, int(b) + 1})
	})
}

func TestSplitAll(t *testing.T) {
	in := "# head\n\n---\na: 1\n--- # c\n\n# only a comment\n---\n  b: 2\n---x\n--- y\nc: |\n  ---\n...\n"
	got := SplitAll([]byte(in))
	// "---x" and "--- y" do not separate documents (as in kubectl's reader)
	want := []struct {
		line int
		text string
	}{{4, "a: 1\n"}, {9, "  b: 2\n---x\n--- y\nc: |\n  ---\n...\n"}}
	if len(got) != len(want) {
		t.Fatalf("%d documents, want %d: %q", len(got), len(want), got)
	}
	for i, w := range want {
		if got[i].Line != w.line || string(got[i].Data) != w.text {
			t.Errorf("document %d: line %d %q, want line %d %q", i, got[i].Line, got[i].Data, w.line, w.text)
		}
	}
	if j := SplitAll([]byte("\n\n  {\"a\": 1}\n")); len(j) != 1 || j[0].Line != 3 {
		t.Errorf("JSON document: %+v", j)
	}
	if n := SplitAll([]byte("---\n# nothing\n---\n")); len(n) != 0 {
		t.Errorf("empty documents kept: %q", n)
	}
	if crlf := SplitAll([]byte("a: 1\r\n---\r\nb: 2\r\n")); len(crlf) != 2 || crlf[1].Line != 3 {
		t.Errorf("CRLF: %+v", crlf)
	}
	if got := AbsoluteLines("yaml: line 2: did not find expected key", 10); got != "yaml: line 11: did not find expected key" {
		t.Errorf("AbsoluteLines: %q", got)
	}
}
