package main

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// decodeDocument decodes the common subset of YAML that manifests are
// written in (block mappings and sequences, single-line plain and quoted
// scalars, literal scalars, comments) straight into the values that
// sigs.k8s.io/yaml.YAMLToJSON and the API server's JSON decoding give
// (manifest.UnmarshalObject), without building a node tree and a JSON text
// first. It gives up (ok false) on anything else — anchors, tags, folded
// scalars, flow collections other than [] and {}, plain scalars that YAML
// 1.1 would not read as a plain string, decimal integer, true, false or
// null (yes, on, 1.0 and their kind), duplicate keys, tabs, non-ASCII
// text — and on a CustomResourceDefinition (a line at the indentation of
// the first starts with its kind): the caller then takes the library's
// path, so that its result is always sigs.k8s.io/yaml's (FuzzDecodeFast
// compares the two). A CRD is decoded once per run, and its decoding
// errors come in the order of the JSON text kubectl sends, whose keys are
// sorted.
//
// The keys and strings of the result share data's memory rather than
// copying it: data must not be modified once decodeDocument is called
// (the chunks of split.go never are).
//
// When maps is not nil, the mappings are decoded into maps taken from
// those that maps.reuse gave back, and maps records them.
func decodeDocument(data []byte, maps *mapSet) (v any, ok bool) {
	p := fastParsers.Get().(*fastParser)
	defer p.release()
	if !p.lines(data) || len(p.ls) == 0 {
		return nil, false
	}
	top := p.ls[0].indent
	for i := range p.ls {
		if p.ls[i].indent == top && strings.HasPrefix(p.text(i), "kind: "+crdKind) {
			return nil, false
		}
	}
	p.maps = maps
	v, next, ok := p.block(0, int(top), 0)
	if !ok || next != len(p.ls) {
		return nil, false
	}
	return v, true
}

// mapSet is the maps of a decoded object, to be reused for other objects
// once nothing refers to them.
type mapSet struct{ maps []map[string]any }

var (
	mapSets  = sync.Pool{New: func() any { return new(mapSet) }}
	freeMaps sync.Pool // of cleared map[string]any
)

// newMapSet returns an empty mapSet.
func newMapSet() *mapSet { return mapSets.Get().(*mapSet) }

// newMap returns a map for a mapping, recorded in p.maps when set.
func (p *fastParser) newMap() map[string]any {
	if p.maps == nil {
		return map[string]any{}
	}
	m, _ := freeMaps.Get().(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	p.maps.maps = append(p.maps.maps, m)
	return m
}

// reuse clears the maps of s and keeps them for other objects; the
// caller must hold the only references to them (and to s). Maps of more
// than eight entries (one group) are left to the collector: iterating a
// map costs its capacity, not its length.
func (s *mapSet) reuse() {
	if h := testHooks.reuse; h != nil {
		h(s.maps)
	} else {
		for _, m := range s.maps {
			if len(m) <= 8 {
				clear(m)
				freeMaps.Put(m)
			}
		}
	}
	s.release()
}

// release gives s back without its maps.
func (s *mapSet) release() {
	clear(s.maps)
	s.maps = s.maps[:0]
	mapSets.Put(s)
}

// fastLine is a line with content: its indentation, the rest (without
// trailing spaces) as offsets in the document, and its index among all
// lines.
type fastLine struct {
	indent     int32
	start, end int32
	raw        int32
}

// fastParser holds the state of one decoding; parsers are reused (see
// fastParsers), so that their buffers are allocated once per goroutine
// rather than once per document.
type fastParser struct {
	src       string     // the document
	nraw      int        // the number of its lines
	rawStarts []int32    // where each of them starts
	ls        []fastLine // the lines with content
	newline   bool       // the last line ends with a line break

	vals  []any    // the items of the sequences being read (values mode)
	parts []string // the lines of a literal scalar

	maps *mapSet // when set, where the maps come from and are recorded
}

var fastParsers = sync.Pool{New: func() any { return new(fastParser) }}

// release makes p ready for another document, keeping its buffers, and
// returns it to fastParsers. Nothing p holds refers to the document after
// that.
func (p *fastParser) release() {
	clear(p.vals[:cap(p.vals)])
	clear(p.parts[:cap(p.parts)])
	*p = fastParser{ls: p.ls[:0], rawStarts: p.rawStarts[:0], vals: p.vals[:0], parts: p.parts[:0]}
	fastParsers.Put(p)
}

const fastMaxDepth = 64

// lines splits data into its lines with content.
func (p *fastParser) lines(data []byte) bool {
	if len(data) >= math.MaxInt32 {
		return false
	}
	if !usual(data) {
		return false // tabs, CRs, control and non-ASCII characters: the full path
	}
	s := unsafe.String(unsafe.SliceData(data), len(data))
	p.src = s
	p.newline = len(data) > 0 && data[len(data)-1] == '\n'
	for pos := 0; pos < len(s); {
		end, next := len(s), len(s)
		if i := strings.IndexByte(s[pos:], '\n'); i >= 0 {
			end, next = pos+i, pos+i+1
		}
		p.rawStarts = append(p.rawStarts, int32(pos))
		p.nraw++
		start := pos
		for start < end && s[start] == ' ' {
			start++
		}
		if start == end || s[start] == '#' {
			pos = next
			continue
		}
		rest := s[start:end]
		if strings.HasPrefix(rest, "---") || strings.HasPrefix(rest, "...") || rest[0] == '%' {
			return false
		}
		e := end
		for s[e-1] == ' ' {
			e--
		}
		p.ls = append(p.ls, fastLine{int32(start - pos), int32(start), int32(e), int32(p.nraw - 1)})
		pos = next
	}
	return true
}

// usual reports whether data holds none of the unusual bytes; it reads
// eight bytes at a time.
func usual(data []byte) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
		lows  = 0x7f7f7f7f7f7f7f7f
	)
	for ; len(data) >= 8; data = data[8:] {
		w := binary.LittleEndian.Uint64(data)
		// 0x80 in the bytes that are line breaks
		t := w ^ ('\n' * ones)
		nl := ^((t&lows + lows) | t) & highs
		// line breaks count as spaces
		v := w | nl>>2
		below := ^((v&lows + (0x80-0x20)*ones) | v) & highs // bytes below 0x20
		del := (w&lows + ones) & highs                      // 0x7f, or 0xff
		if w&highs|below|del != 0 {
			return false
		}
	}
	for _, c := range data {
		if unusual[c] {
			return false
		}
	}
	return true
}

// unusual holds the bytes that make the fast path give up: control
// characters but the line break, DEL, and those of non-ASCII characters.
var unusual = func() (t [256]bool) {
	for c := range t {
		t[c] = c < 0x20 && c != '\n' || c >= 0x7f
	}
	return t
}()

// text is the content of line i.
func (p *fastParser) text(i int) string {
	l := &p.ls[i]
	return p.src[l.start:l.end]
}

// indent is the indentation of line i.
func (p *fastParser) indent(i int) int { return int(p.ls[i].indent) }

// rawLine returns line r of the document (0-based), blank ones
// included.
func (p *fastParser) rawLine(r int) string {
	end := len(p.src)
	if r+1 < p.nraw {
		end = int(p.rawStarts[r+1]) - 1
	} else if p.newline {
		end--
	}
	return p.src[p.rawStarts[r]:end]
}

// block parses the mapping or sequence that starts at line i, indented by
// indent.
func (p *fastParser) block(i, indent, depth int) (any, int, bool) {
	if depth > fastMaxDepth || i >= len(p.ls) || p.indent(i) != indent {
		return nil, i, false
	}
	if isSeqItem(p.text(i)) {
		return p.sequence(i, indent, depth)
	}
	return p.mapping(i, indent, depth)
}

func isSeqItem(text string) bool { return text == "-" || strings.HasPrefix(text, "- ") }

// mapping parses the entries at indent from line i.
func (p *fastParser) mapping(i, indent, depth int) (any, int, bool) {
	m := p.newMap()
	for i < len(p.ls) && p.indent(i) == indent {
		text := p.text(i)
		if isSeqItem(text) {
			break
		}
		key, rest, ok := splitKey(text)
		if !ok {
			return nil, i, false
		}
		i++
		var v any
		switch {
		case rest == "|-" || rest == "|":
			var nl bool
			var parts []string
			if parts, nl, i, ok = p.literal(i, indent, rest == "|-"); ok {
				v = joinLines(parts, nl)
			}
		case rest == "":
			switch {
			case i < len(p.ls) && p.indent(i) > indent:
				v, i, ok = p.block(i, p.indent(i), depth+1)
			case i < len(p.ls) && p.indent(i) == indent && isSeqItem(p.text(i)):
				v, i, ok = p.sequence(i, indent, depth+1)
			}
		default:
			// a value on more lines than one ends the mapping here, and
			// then the document: the full path
			v, ok = scalar(rest)
		}
		if !ok {
			return nil, i, false
		}
		n := len(m)
		if m[key] = v; len(m) == n {
			return nil, i, false // a duplicate key
		}
	}
	if i < len(p.ls) && p.indent(i) > indent {
		return nil, i, false
	}
	return m, i, true
}

// sequence parses the items at indent from line i.
func (p *fastParser) sequence(i, indent, depth int) (any, int, bool) {
	first := len(p.vals)
	for i < len(p.ls) && p.indent(i) == indent {
		text := p.text(i)
		if !isSeqItem(text) {
			break
		}
		if text == "-" {
			i++
			var v any // null, unless a block follows
			if i < len(p.ls) && p.indent(i) > indent {
				var ok bool
				if v, i, ok = p.block(i, p.indent(i), depth+1); !ok {
					return nil, i, false
				}
			}
			p.push(v)
			continue
		}
		rest := strings.TrimLeft(text[2:], " ")
		if rest == "" || rest[0] == '#' {
			return nil, i, false
		}
		if isSeqItem(rest) || isMappingEntry(rest) {
			// the item's block starts on this line: parse it as if it
			// had a line of its own
			l := &p.ls[i]
			l.indent += int32(len(text) - len(rest))
			l.start = l.end - int32(len(rest))
			v, next, ok := p.block(i, p.indent(i), depth+1)
			if !ok {
				return nil, i, false
			}
			p.push(v)
			i = next
			continue
		}
		v, ok := scalar(rest)
		if !ok {
			return nil, i, false
		}
		i++ // a more indented line next (a multi-line scalar) ends the sequence: the full path
		p.push(v)
	}
	if i < len(p.ls) && p.indent(i) > indent {
		return nil, i, false
	}
	list := make([]any, len(p.vals)-first)
	copy(list, p.vals[first:])
	clear(p.vals[first:])
	p.vals = p.vals[:first]
	return list, i, true
}

// push adds an item to the sequence being read.
func (p *fastParser) push(v any) { p.vals = append(p.vals, v) }

// literal reads a literal block scalar ("|" or "|-", without indentation
// indicator) that is the value of the entry on the line before ls[i], at
// indent: its lines (p.parts), and whether a line break ends it; it
// returns the index of the first line after it.
func (p *fastParser) literal(i, indent int, strip bool) (parts []string, nl bool, next int, ok bool) {
	start := int(p.ls[i-1].raw) + 1
	end := p.nraw // the first raw line after the scalar
	content := -1 // the content's indentation
	parts = p.parts[:0]
	last := -1 // the raw index of the last content line
	for r := start; r < p.nraw; r++ {
		line := p.rawLine(r)
		trimmed := strings.TrimLeft(line, " ")
		lead := len(line) - len(trimmed)
		if trimmed == "" {
			if content < 0 {
				return nil, false, i, false // leading empty lines: the full path
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
				return nil, false, i, false // less indented than the content: the full path
			}
			end = r
			break
		}
		parts = append(parts, line[content:])
		last = r
	}
	p.parts = parts
	// trailing empty lines are not content
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	for _, part := range parts {
		if part != "" && part[0] == ' ' && strings.TrimLeft(part, " ") == "" {
			return nil, false, i, false // lines of spaces only: the full path
		}
	}
	nl = !strip && len(parts) > 0 && (last < p.nraw-1 || p.newline)
	for i < len(p.ls) && int(p.ls[i].raw) < end {
		i++
	}
	return parts, nl, i, true
}

// joinLines is the text of a literal scalar's lines.
func joinLines(parts []string, nl bool) string {
	n := len(parts)
	if nl {
		n++
	}
	for _, s := range parts {
		n += len(s)
	}
	if n == 0 {
		return ""
	}
	b := make([]byte, 0, n)
	for i, s := range parts {
		if i > 0 {
			b = append(b, '\n')
		}
		b = append(b, s...)
	}
	if nl {
		b = append(b, '\n')
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// isMappingEntry reports whether text starts a mapping entry.
func isMappingEntry(text string) bool {
	_, _, ok := splitKey(text)
	return ok
}

// splitKey splits "key: rest" (rest without its comment). The key must be
// a plain or quoted string that YAML reads as a string.
func splitKey(text string) (key, rest string, ok bool) {
	var after string
	switch text[0] {
	case '"', '\'':
		k, n, ok := quoted(text)
		if !ok {
			return "", "", false
		}
		key, after = k, text[n:]
		if !strings.HasPrefix(after, ":") {
			return "", "", false
		}
		after = after[1:]
	default:
		i := strings.IndexByte(text, ':')
		for i >= 0 && i+1 < len(text) && text[i+1] != ' ' {
			j := strings.IndexByte(text[i+1:], ':')
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
		if key[len(key)-1] == ' ' || !plainString(key) {
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
func scalar(text string) (any, bool) {
	switch text[0] {
	case '"', '\'':
		s, n, ok := quoted(text)
		return s, ok && afterQuoted(text[n:])
	case '[', '{':
		switch stripComment(text) {
		case "[]":
			return []any{}, true
		case "{}":
			return map[string]any{}, true
		}
		return nil, false // a flow collection that is not empty
	}
	t := stripComment(text)
	switch t {
	case "null", "~":
		return nil, true
	case "true":
		return true, true
	case "false":
		return false, true
	}
	if isDecimal(t) {
		n, err := strconv.ParseInt(t, 10, 64)
		return n, err == nil
	}
	if !plainString(t) || strings.Contains(t, ": ") || strings.HasSuffix(t, ":") {
		return nil, false
	}
	return t, true
}

// afterQuoted reports whether rest, what follows a quoted scalar on its
// line, may follow it: nothing, or spaces and a comment.
func afterQuoted(rest string) bool {
	if rest != "" && rest[0] != ' ' {
		return false
	}
	rest = strings.TrimLeft(rest, " ")
	return rest == "" || rest[0] == '#'
}

// stripComment drops a " #" comment.
func stripComment(text string) string {
	if i := strings.Index(text, " #"); i >= 0 {
		text = text[:i]
	}
	return strings.TrimRight(text, " ")
}

// isDecimal reports whether s is 0 or a decimal integer without leading
// zeros, of at most 18 digits.
func isDecimal(s string) bool {
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

// plainString reports whether a plain scalar (of a document lines
// accepted: printable ASCII only) is surely read as the string it spells: it starts with a letter or one of a few safe characters (no
// indicator, digit, sign or dot, which might make it a number, a
// timestamp or something else), is not one of YAML's special words, and
// holds nothing that could start a comment or a structure.
func plainString(s string) bool {
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
		// YAML's special words in any case (the document is ASCII: see
		// lines)
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
	return !strings.Contains(s, " #")
}

// quoted reads a quoted scalar at the start of text (printable ASCII, as
// lines accepts it) that ends on the same line; n is its length with the
// quotes.
func quoted(text string) (s string, n int, ok bool) {
	q := text[0]
	// without escapes, the text between the quotes
	for i := 1; i < len(text); i++ {
		c := text[i]
		if c == q && (q == '"' || i+1 == len(text) || text[i+1] != '\'') {
			return text[1:i], i + 1, true
		}
		if c == q || c == '\\' && q == '"' {
			break
		}
	}
	b := make([]byte, 0, len(text))
	for i := 1; i < len(text); i++ {
		c := text[i]
		switch {
		case c == q && q == '\'' && i+1 < len(text) && text[i+1] == '\'':
			b = append(b, '\'')
			i++
		case c == q:
			return unsafe.String(unsafe.SliceData(b), len(b)), i + 1, true
		case c == '\\' && q == '"':
			if i+1 >= len(text) {
				return "", 0, false
			}
			i++
			switch text[i] {
			case '"', '\\', ' ': // not '/': the API server's YAML parser refuses "\/"
				b = append(b, text[i])
			case 'n':
				b = append(b, '\n')
			case 't':
				b = append(b, '\t')
			default:
				return "", 0, false
			}
		default:
			b = append(b, c)
		}
	}
	return "", 0, false
}
