package main

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
)

// chunk is one document of a manifest file, not yet decoded.
type chunk struct {
	data  []byte
	line  int // 1-based line of the document's first line of content
	first int // 1-based line where the chunk's text starts (for error lines)
}

// splitDocuments splits a manifest file into its documents as kubectl's
// YAML reader does: a line that starts with "---" followed only by spaces
// or a comment separates two documents. A file whose first character
// (after spaces) is '{' or '[' is one JSON document. Documents holding
// only spaces and comments are left out. Each document records the line of
// its first line of content, for locations.
func splitDocuments(data []byte) []chunk {
	if trimmed := bytes.TrimLeft(data, " \t\r\n"); len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		line := 1 + bytes.Count(data[:len(data)-len(trimmed)], []byte("\n"))
		return []chunk{{data: data, line: line, first: 1}}
	}
	var out []chunk
	start, startLine := 0, 1 // the current document's text and first line
	contentLine := 0         // its first line of content, 0 if none yet
	line := 1
	flush := func(end int) {
		if contentLine > 0 {
			out = append(out, chunk{data: data[start:end], line: contentLine, first: startLine})
		}
	}
	for pos := 0; pos < len(data); line++ {
		end := bytes.IndexByte(data[pos:], '\n')
		next := len(data)
		if end >= 0 {
			end += pos
			next = end + 1
		} else {
			end = len(data)
		}
		text := bytes.TrimRight(data[pos:end], "\r")
		switch {
		case isSeparator(text):
			flush(pos)
			start, startLine, contentLine = next, line+1, 0
		case contentLine == 0 && isContent(text):
			contentLine = line
		}
		pos = next
	}
	flush(len(data))
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

// absoluteLines rewrites the "line N" of a YAML parser's message about a
// document that starts at line first of its file into the file's line.
func absoluteLines(msg string, first int) string {
	return yamlLine.ReplaceAllStringFunc(msg, func(s string) string {
		n, err := strconv.Atoi(s[len("line "):])
		if err != nil {
			return s
		}
		return "line " + strconv.Itoa(n+first-1)
	})
}

// streamBlock is how much of a file the streaming splitter reads at a
// time.
const streamBlock = 64 << 10

// splitStream splits what r yields into documents as splitDocuments
// splits the whole text, passing each to emit as soon as it is complete:
// a file is not held in memory at once, only the blocks of the documents
// not yet decoded (each chunk shares the block it lies in). A chunk's
// bytes are never written again once it is emitted: the values decoded
// from it share them (see decodeFast). It returns the first read error,
// after emitting the documents read before it.
func splitStream(r io.Reader, emit func(chunk)) error {
	buf := make([]byte, 0, streamBlock)
	eof := false
	var readErr error
	fill := func() {
		if len(buf) == cap(buf) {
			// a fresh block: the chunks emitted keep the old one
			nb := make([]byte, len(buf), max(streamBlock, 2*len(buf)))
			copy(nb, buf)
			buf = nb
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			eof = true
		} else if err != nil {
			eof, readErr = true, err
		}
	}

	// A text that starts with '{' or '[' (after spaces) is one JSON
	// document.
	for !eof && len(bytes.TrimLeft(buf, " \t\r\n")) == 0 {
		fill()
	}
	if trimmed := bytes.TrimLeft(buf, " \t\r\n"); len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		line := 1 + bytes.Count(buf[:len(buf)-len(trimmed)], []byte("\n"))
		for !eof {
			fill()
		}
		if readErr == nil {
			emit(chunk{data: buf, line: line, first: 1})
		}
		return readErr
	}

	start, startLine := 0, 1 // the current document's text in buf and its first line
	contentLine := 0         // its first line of content, 0 if none yet
	line := 1
	pos := 0 // the first line not yet looked at
	for {
		for {
			end := bytes.IndexByte(buf[pos:], '\n')
			if end < 0 {
				break
			}
			end += pos
			text := bytes.TrimRight(buf[pos:end], "\r")
			switch {
			case isSeparator(text):
				if contentLine > 0 {
					emit(chunk{data: buf[start:pos:pos], line: contentLine, first: startLine})
				}
				start, startLine, contentLine = end+1, line+1, 0
			case contentLine == 0 && isContent(text):
				contentLine = line
			}
			pos = end + 1
			line++
		}
		if eof {
			break
		}
		if start > 0 && len(buf) == cap(buf) {
			// keep only the current document in the next block
			nb := make([]byte, len(buf)-start, max(streamBlock, 2*(len(buf)-start)))
			copy(nb, buf[start:])
			buf, pos, start = nb, pos-start, 0
		}
		fill()
	}
	if readErr != nil {
		return readErr
	}
	// the last line, without a line break
	if pos < len(buf) {
		text := bytes.TrimRight(buf[pos:], "\r")
		switch {
		case isSeparator(text):
			if contentLine > 0 {
				emit(chunk{data: buf[start:pos:pos], line: contentLine, first: startLine})
			}
			contentLine = 0
		case contentLine == 0 && isContent(text):
			contentLine = line
		}
	}
	if contentLine > 0 {
		emit(chunk{data: buf[start:len(buf):len(buf)], line: contentLine, first: startLine})
	}
	return nil
}
