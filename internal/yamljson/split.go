package yamljson

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
)

// Chunk is one document of a manifest file, not yet decoded.
type Chunk struct {
	Data  []byte
	Line  int // 1-based line of the document's first line of content
	First int // 1-based line where the chunk's text starts (for error lines)
}

// SplitAll splits a manifest file into its documents as kubectl's
// YAML reader does: a line that starts with "---" followed only by spaces
// or a comment separates two documents. A file whose first character
// (after spaces) is '{' or '[' is one JSON document. Documents holding
// only spaces and comments are left out. Each document records the line of
// its first line of content, for locations.
func SplitAll(data []byte) []Chunk {
	// A Splitter whose one block is the whole text, read: its chunks
	// share data.
	s := &Splitter{buf: data[:len(data):len(data)], eof: true, startLn: 1, line: 1}
	var out []Chunk
	for c, err := s.Next(); err == nil; c, err = s.Next() {
		out = append(out, c)
	}
	return out
}

// isSeparator reports whether a line separates documents: "---" and then
// nothing but spaces or a comment.
func isSeparator(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) {
		return false
	}
	rest := bytes.TrimSpace(line[3:])
	return len(rest) == 0 || rest[0] == '#'
}

// isContent reports whether a line holds more than spaces and a comment.
func isContent(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) > 0 && t[0] != '#'
}

var yamlLine = regexp.MustCompile(`\bline (\d+)\b`)

// AbsoluteLines rewrites the "line N" of a YAML parser's message about a
// document that starts at line first of its file into the file's line.
func AbsoluteLines(msg string, first int) string {
	return yamlLine.ReplaceAllStringFunc(msg, func(s string) string {
		n, err := strconv.Atoi(s[len("line "):])
		if err != nil {
			return s
		}
		return "line " + strconv.Itoa(n+first-1)
	})
}

// streamBlock is how much of a stream a Splitter reads at a time.
const streamBlock = 64 << 10

// Splitter splits what a reader yields into documents as SplitAll splits
// the whole text, returning each as soon as it is complete: a stream is
// not held in memory at once, only the blocks of the documents not yet
// returned (each chunk shares the block it lies in). A chunk's bytes are
// never written again once it is returned, so values decoded from it may
// share them.
type Splitter struct {
	r       io.Reader
	buf     []byte
	eof     bool
	readErr error
	started bool // the JSON check is done
	done    bool // nothing is left but the final error
	start   int  // the current document's text in buf
	startLn int  // its first line
	content int  // its first line of content, 0 if none yet
	line    int  // the line at pos
	pos     int  // the first byte not yet looked at
}

// NewSplitter returns a Splitter reading r.
func NewSplitter(r io.Reader) *Splitter {
	return &Splitter{r: r, buf: make([]byte, 0, streamBlock), startLn: 1, line: 1}
}

func (s *Splitter) fill() {
	if len(s.buf) == cap(s.buf) {
		// a fresh block: the chunks returned keep the old one
		nb := make([]byte, len(s.buf), max(streamBlock, 2*len(s.buf)))
		copy(nb, s.buf)
		s.buf = nb
	}
	n, err := s.r.Read(s.buf[len(s.buf):cap(s.buf)])
	s.buf = s.buf[:len(s.buf)+n]
	if err == io.EOF {
		s.eof = true
	} else if err != nil {
		s.eof, s.readErr = true, err
	}
}

// end is what Next returns once every document is returned: the read
// error, or io.EOF.
func (s *Splitter) end() (Chunk, error) {
	s.done = true
	if s.readErr != nil {
		return Chunk{}, s.readErr
	}
	return Chunk{}, io.EOF
}

// Next returns the next document. At the end of the stream it returns
// io.EOF; after a read error, that error (the documents read before it
// are returned first).
func (s *Splitter) Next() (Chunk, error) {
	if s.done {
		return s.end()
	}
	if !s.started {
		// A text that starts with '{' or '[' (after spaces) is one JSON
		// document.
		s.started = true
		for !s.eof && len(bytes.TrimLeft(s.buf, " \t\r\n")) == 0 {
			s.fill()
		}
		if trimmed := bytes.TrimLeft(s.buf, " \t\r\n"); len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
			line := 1 + bytes.Count(s.buf[:len(s.buf)-len(trimmed)], []byte("\n"))
			for !s.eof {
				s.fill()
			}
			s.done = true
			if s.readErr != nil {
				return Chunk{}, s.readErr
			}
			return Chunk{Data: s.buf, Line: line, First: 1}, nil
		}
	}
	for {
		for {
			end := bytes.IndexByte(s.buf[s.pos:], '\n')
			if end < 0 {
				break
			}
			end += s.pos
			c, ok := s.look(s.buf[s.pos:end], end+1)
			s.pos = end + 1
			s.line++
			if ok {
				return c, nil
			}
		}
		if s.eof {
			break
		}
		if s.start > 0 && len(s.buf) == cap(s.buf) {
			// keep only the current document in the next block
			nb := make([]byte, len(s.buf)-s.start, max(streamBlock, 2*(len(s.buf)-s.start)))
			copy(nb, s.buf[s.start:])
			s.buf, s.pos, s.start = nb, s.pos-s.start, 0
		}
		s.fill()
	}
	if s.readErr != nil {
		return s.end()
	}
	s.done = true
	// the last line, without a line break
	if s.pos < len(s.buf) {
		if c, ok := s.look(s.buf[s.pos:], len(s.buf)); ok {
			return c, nil
		}
	}
	if s.content > 0 {
		return Chunk{Data: s.buf[s.start:len(s.buf):len(s.buf)], Line: s.content, First: s.startLn}, nil
	}
	return s.end()
}

// look takes in the line at pos, whose successor starts at next: a
// separator ends the current document, which it returns (ok) when it has
// content.
func (s *Splitter) look(line []byte, next int) (c Chunk, ok bool) {
	text := bytes.TrimRight(line, "\r")
	switch {
	case isSeparator(text):
		if s.content > 0 {
			c, ok = Chunk{Data: s.buf[s.start:s.pos:s.pos], Line: s.content, First: s.startLn}, true
		}
		s.start, s.startLn, s.content = next, s.line+1, 0
	case s.content == 0 && isContent(text):
		s.content = s.line
	}
	return c, ok
}
