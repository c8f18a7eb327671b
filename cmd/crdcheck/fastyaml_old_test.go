package main

// The fast path as it was before it was made to write JSON and reuse its
// buffers (commit eb5c1e0), kept as a reference: FuzzDecodeFastOld checks
// that the fast path takes the same documents and decodes them alike.

import (
	"strconv"
	"strings"
)

// oldDecodeFast decodes the common subset of YAML that manifests are written
// in (block mappings and sequences, single-line plain and quoted scalars,
// comments) straight into the values crdschema.DecodeJSON returns, without
// building a node tree and a JSON text first. It gives up (ok false) on
// anything else — anchors, tags, block and multi-line scalars, flow
// collections other than [] and {}, plain scalars that YAML would not read
// as a plain string, decimal integer, true, false or null, duplicate keys,
// tabs — and the caller then takes the full path, so that its result is
// always the full path's (FuzzDecodeFast checks that).
func oldDecodeFast(data []byte) (v any, ok bool) {
	p := oldFastParser{}
	if !p.lines(data) || len(p.ls) == 0 {
		return nil, false
	}
	v, next, ok := p.block(0, p.ls[0].indent, 0)
	if !ok || next != len(p.ls) {
		return nil, false
	}
	return v, true
}

// oldFastLine is a line with content: its indentation, the rest, and its
// index among all lines.
type oldFastLine struct {
	indent int
	text   string
	raw    int
}

type oldFastParser struct {
	src     string        // the document
	nraw    int           // the number of its lines
	raw     []string      // every line, split from src when a literal oldScalar needs them
	ls      []oldFastLine // the lines with content
	newline bool          // the last line ends with a line break
}

const oldFastMaxDepth = 64

// lines splits data into its lines with content.
func (p *oldFastParser) lines(data []byte) bool {
	for _, c := range data {
		if c < 0x20 && c != '\n' || c >= 0x7f {
			return false // tabs, CRs, control and non-ASCII characters: the full path
		}
	}
	s := string(data)
	p.src = s
	p.ls = make([]oldFastLine, 0, strings.Count(s, "\n")+1)
	p.newline = len(data) > 0 && data[len(data)-1] == '\n'
	for len(s) > 0 {
		var line string
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			line, s = s, ""
		}
		p.nraw++
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		rest := line[indent:]
		if rest == "" || rest[0] == '#' {
			continue
		}
		if strings.HasPrefix(rest, "---") || strings.HasPrefix(rest, "...") || rest[0] == '%' {
			return false
		}
		p.ls = append(p.ls, oldFastLine{indent, strings.TrimRight(rest, " "), p.nraw - 1})
	}
	return true
}

// rawLines returns every line of the document, blank ones included.
func (p *oldFastParser) rawLines() []string {
	if p.raw == nil {
		p.raw = make([]string, 0, p.nraw)
		for s := p.src; len(s) > 0; {
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				p.raw = append(p.raw, s)
				break
			}
			p.raw, s = append(p.raw, s[:i]), s[i+1:]
		}
	}
	return p.raw
}

// block parses the mapping or sequence that starts at line i, indented by
// indent.
func (p *oldFastParser) block(i, indent, depth int) (any, int, bool) {
	if depth > oldFastMaxDepth || i >= len(p.ls) || p.ls[i].indent != indent {
		return nil, i, false
	}
	if oldIsSeqItem(p.ls[i].text) {
		return p.sequence(i, indent, depth)
	}
	return p.mapping(i, indent, depth)
}

func oldIsSeqItem(text string) bool { return text == "-" || strings.HasPrefix(text, "- ") }

// mapping parses the entries at indent from line i.
func (p *oldFastParser) mapping(i, indent, depth int) (any, int, bool) {
	m := map[string]any{}
	for i < len(p.ls) && p.ls[i].indent == indent && !oldIsSeqItem(p.ls[i].text) {
		key, rest, ok := oldSplitKey(p.ls[i].text)
		if !ok {
			return nil, i, false
		}
		if _, dup := m[key]; dup {
			return nil, i, false
		}
		i++
		var v any
		if rest == "|-" || rest == "|" {
			v, i, ok = p.literal(i, indent, rest == "|-")
		} else if rest == "" {
			switch {
			case i < len(p.ls) && p.ls[i].indent > indent:
				v, i, ok = p.block(i, p.ls[i].indent, depth+1)
			case i < len(p.ls) && p.ls[i].indent == indent && oldIsSeqItem(p.ls[i].text):
				v, i, ok = p.sequence(i, indent, depth+1)
			}
		} else if _, _, closed := oldQuoted(rest); (rest[0] == '\'' || rest[0] == '"') && !closed {
			v, i, ok = p.quotedLines(rest, i, indent)
		} else {
			v, ok = oldScalar(rest)
			if ok && i < len(p.ls) && p.ls[i].indent > indent {
				v, i, ok = p.continued(v, rest, i, indent)
			}
		}
		if !ok {
			return nil, i, false
		}
		m[key] = v
	}
	if i < len(p.ls) && p.ls[i].indent > indent {
		return nil, i, false
	}
	return m, i, true
}

// sequence parses the items at indent from line i.
func (p *oldFastParser) sequence(i, indent, depth int) (any, int, bool) {
	list := []any{}
	for i < len(p.ls) && p.ls[i].indent == indent && oldIsSeqItem(p.ls[i].text) {
		text := p.ls[i].text
		if text == "-" {
			i++
			var v any
			if i < len(p.ls) && p.ls[i].indent > indent {
				var ok bool
				if v, i, ok = p.block(i, p.ls[i].indent, depth+1); !ok {
					return nil, i, false
				}
			}
			list = append(list, v)
			continue
		}
		rest := strings.TrimLeft(text[2:], " ")
		if rest == "" || rest[0] == '#' {
			return nil, i, false
		}
		if oldIsSeqItem(rest) || oldIsMappingEntry(rest) {
			// the item's block starts on this line: parse it as if it
			// had a line of its own
			p.ls[i] = oldFastLine{indent + len(text) - len(rest), rest, p.ls[i].raw}
			v, next, ok := p.block(i, p.ls[i].indent, depth+1)
			if !ok {
				return nil, i, false
			}
			list, i = append(list, v), next
			continue
		}
		v, ok := oldScalar(rest)
		if !ok {
			return nil, i, false
		}
		i++
		if i < len(p.ls) && p.ls[i].indent > indent {
			return nil, i, false // a multi-line oldScalar
		}
		list = append(list, v)
	}
	if i < len(p.ls) && p.ls[i].indent > indent {
		return nil, i, false
	}
	return list, i, true
}

// literal reads a literal block scalar ("|" or "|-", without indentation
// indicator) that is the value of the entry on the line before ls[i], at
// indent; it returns the index of the first line after it.
func (p *oldFastParser) literal(i, indent int, strip bool) (any, int, bool) {
	raw := p.rawLines()
	start := p.ls[i-1].raw + 1
	end := len(raw) // the first raw line after the oldScalar
	content := -1   // the content's indentation
	var parts []string
	last := -1 // the raw index of the last content line
	for r := start; r < len(raw); r++ {
		line := raw[r]
		trimmed := strings.TrimLeft(line, " ")
		lead := len(line) - len(trimmed)
		if trimmed == "" {
			if content < 0 {
				return nil, i, false // leading empty lines: the full path
			}
			if lead > content {
				parts = append(parts, line[content:])
			} else {
				parts = append(parts, "")
			}
			continue
		}
		if content < 0 {
			if lead <= indent {
				end = r
				break
			}
			content = lead
		}
		if lead < content {
			if lead > indent {
				return nil, i, false // less indented than the content: the full path
			}
			end = r
			break
		}
		parts = append(parts, line[content:])
		last = r
	}
	// trailing empty lines are not content
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	for _, part := range parts {
		if strings.TrimLeft(part, " ") == "" && part != "" {
			return nil, i, false // lines of spaces only: the full path
		}
	}
	v := strings.Join(parts, "\n")
	if !strip && len(parts) > 0 && (last < len(raw)-1 || p.newline) {
		v += "\n"
	}
	for i < len(p.ls) && p.ls[i].raw < end {
		i++
	}
	return v, i, true
}

// continued reads the continuation lines, from ls[i], of a plain scalar
// whose first line, the value of an entry at indent, read as first: YAML
// folds them into one line, separated by spaces. Only plain strings on
// lines that follow each other, without comments, take this path.
func (p *oldFastParser) continued(first any, text string, i, indent int) (any, int, bool) {
	s, isStr := first.(string)
	if !isStr || s != text {
		return nil, i, false // oldQuoted, commented or not a string
	}
	var b strings.Builder
	b.WriteString(s)
	for ; i < len(p.ls) && p.ls[i].indent > indent; i++ {
		l := p.ls[i]
		if l.raw != p.ls[i-1].raw+1 || !oldContinuation(l.text) {
			return nil, i, false
		}
		b.WriteByte(' ')
		b.WriteString(l.text)
	}
	return b.String(), i, true
}

// quotedLines reads a quoted scalar that starts with text, the
// value of an entry at indent, and goes on over the lines from ls[i]: YAML
// folds its line breaks into spaces. Lines that follow each other, more
// indented than the entry, without empty lines, take this path.
func (p *oldFastParser) quotedLines(text string, i, indent int) (any, int, bool) {
	folded := text
	for ; i < len(p.ls) && p.ls[i].indent > indent; i++ {
		if p.ls[i].raw != p.ls[i-1].raw+1 {
			return nil, i, false // an empty line
		}
		run := len(folded) - len(strings.TrimRight(folded, "\\"))
		if text[0] == '"' && run%2 == 1 {
			// an escaped line break: the lines join without a space
			folded = folded[:len(folded)-1] + p.ls[i].text
		} else {
			folded += " " + p.ls[i].text
		}
		if _, _, closed := oldQuoted(folded); closed {
			v, ok := oldScalar(folded)
			return v, i + 1, ok
		}
	}
	return nil, i, false
}

// continuation reports whether a line of a multi-line plain scalar is
// surely text: not a comment, nothing that YAML could read as a mapping
// (indicators do not count at the start of a continuation line).
func oldContinuation(text string) bool {
	if text[0] == '#' || text[0] == ':' {
		return false
	}
	return !strings.Contains(text, ": ") && !strings.HasSuffix(text, ":") && !strings.Contains(text, " #")
}

// oldIsMappingEntry reports whether text starts a mapping entry.
func oldIsMappingEntry(text string) bool {
	_, _, ok := oldSplitKey(text)
	return ok
}

// oldSplitKey splits "key: rest" (rest without its comment). The key must be
// a plain or quoted string that YAML reads as a string.
func oldSplitKey(text string) (key, rest string, ok bool) {
	var after string
	switch text[0] {
	case '"', '\'':
		k, n, ok := oldQuoted(text)
		if !ok {
			return "", "", false
		}
		key, after = k, text[n:]
		if !strings.HasPrefix(after, ":") {
			return "", "", false
		}
		after = after[1:]
	default:
		i := strings.Index(text, ":")
		for i >= 0 && i+1 < len(text) && text[i+1] != ' ' {
			j := strings.Index(text[i+1:], ":")
			if j < 0 {
				i = -1
				break
			}
			i += 1 + j
		}
		if i <= 0 {
			return "", "", false
		}
		key, after = text[:i], text[i+1:]
		if key != strings.TrimRight(key, " ") || !oldPlainString(key) {
			return "", "", false
		}
	}
	if after != "" && after[0] != ' ' || len(text)-len(after) > 512 {
		return "", "", false // YAML limits implicit keys to 1024 characters
	}
	rest = strings.TrimSpace(after)
	if strings.HasPrefix(rest, "#") {
		rest = ""
	}
	return key, rest, true
}

// scalar reads a value written on one line (its comment included).
func oldScalar(text string) (any, bool) {
	switch text[0] {
	case '"', '\'':
		s, n, ok := oldQuoted(text)
		if !ok {
			return nil, false
		}
		if rest := strings.TrimLeft(text[n:], " "); rest != "" && rest[0] != '#' {
			return nil, false
		}
		if rest := text[n:]; rest != "" && rest[0] != ' ' {
			return nil, false
		}
		return s, true
	case '[':
		if t := oldStripComment(text); t == "[]" {
			return []any{}, true
		}
		return nil, false
	case '{':
		if t := oldStripComment(text); t == "{}" {
			return map[string]any{}, true
		}
		return nil, false
	}
	t := oldStripComment(text)
	switch t {
	case "null", "~":
		return nil, true
	case "true":
		return true, true
	case "false":
		return false, true
	}
	if oldIsDecimal(t) {
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return nil, false
		}
		return n, true
	}
	if !oldPlainString(t) || strings.Contains(t, ": ") || strings.HasSuffix(t, ":") {
		return nil, false
	}
	return t, true
}

// oldStripComment drops a " #" comment.
func oldStripComment(text string) string {
	if i := strings.Index(text, " #"); i >= 0 {
		text = text[:i]
	}
	return strings.TrimRight(text, " ")
}

// isdecimal reports whether s is 0 or a decimal integer without leading
// zeros, of at most 18 digits.
func oldIsDecimal(s string) bool {
	d := strings.TrimPrefix(s, "-")
	if d == "" || len(d) > 18 || d == "0" && s != "0" {
		return false
	}
	if d[0] == '0' && len(d) > 1 {
		return false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return false
		}
	}
	return true
}

// plainstring reports whether a plain scalar is surely read as the string
// it spells: it starts with a letter or one of a few safe characters (no
// indicator, digit, sign or dot, which might make it a number, a
// timestamp or something else), is not one of YAML's special words, and
// holds nothing that could start a comment or a structure.
func oldPlainString(s string) bool {
	if s == "" {
		return false
	}
	letter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	c := s[0]
	if !(letter(c) || c == '/' || c == '_' || c == '$' || c == '(' || c == '=' || c == '^' ||
		c == '.' && len(s) > 1 && letter(s[1])) {
		return false
	}
	if len(s) <= 5 {
		// YAML's special words in any case (non-ASCII strings are
		// refused below)
		var lower [5]byte
		for i := 0; i < len(s); i++ {
			c := s[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			lower[i] = c
		}
		switch string(lower[:len(s)]) {
		case "null", "true", "false", "y", "n", "yes", "no", "on", "off", ".inf", ".nan":
			return false
		}
	}
	if strings.Contains(s, " #") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false // non-ASCII and control characters: the full path
		}
	}
	return true
}

// quoted reads a quoted scalar at the start of text that ends on the same
// line; n is its length with the quotes.
func oldQuoted(text string) (s string, n int, ok bool) {
	q := text[0]
	// without escapes, the text between the quotes
	for i := 1; i < len(text); i++ {
		c := text[i]
		if c == q && (q == '"' || i+1 == len(text) || text[i+1] != '\'') {
			return text[1:i], i + 1, true
		}
		if c == q || c == '\\' && q == '"' || c < 0x20 || c >= 0x7f {
			break
		}
	}
	var b strings.Builder
	for i := 1; i < len(text); i++ {
		c := text[i]
		switch {
		case c == q && q == '\'' && i+1 < len(text) && text[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == q:
			return b.String(), i + 1, true
		case c == '\\' && q == '"':
			if i+1 >= len(text) {
				return "", 0, false
			}
			i++
			switch text[i] {
			case '"', '\\', ' ': // not '/': the API server's YAML parser refuses "\/"
				b.WriteByte(text[i])
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				return "", 0, false
			}
		case c < 0x20 || c >= 0x7f:
			return "", 0, false
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}
