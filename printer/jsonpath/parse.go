package jsonpath

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxNesting bounds how deeply sub-expressions (union branches, bracketed
// keys, filter operands) may be nested inside each other. Every level is
// strictly shorter than its parent, so real templates never come close.
const maxNesting = 100

const endOfInput rune = -1

var (
	// quotedKeyRE recognises a bracketed key such as ['app'].
	quotedKeyRE = regexp.MustCompile(`^'([^']*)'$`)
	// sliceRE recognises an index or slice: [1], [-1], [1:3], [::2].
	sliceRE = regexp.MustCompile(`^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$`)
	// comparisonRE splits a filter expression into operand, operator, operand.
	comparisonRE = regexp.MustCompile(`^([^!<>=]+)([!<>=]+)(.+?)$`)
)

// errBadQuote is returned for a malformed quoted string.
var errBadQuote = errors.New("invalid syntax")

// parser turns template text into a tree of nodes. It scans the input rune by
// rune; start marks the beginning of the token being scanned and pos the
// next rune to read.
type parser struct {
	input string
	root  *listNode
	start int
	pos   int
	width int
	depth int
}

// parseTemplate parses a whole template: text with {actions}.
func parseTemplate(text string, depth int) (*listNode, error) {
	if depth > maxNesting {
		return nil, fmt.Errorf("jsonpath expression nested more than %d levels deep", maxNesting)
	}
	p := &parser{input: text, root: &listNode{}, depth: depth}
	if err := p.run(); err != nil {
		return nil, err
	}
	return p.root, nil
}

// parseSub parses text as if it were the inside of one action and returns
// that action's node list. Union branches, bracketed keys and filter
// operands are parsed this way.
func (p *parser) parseSub(text string) (*listNode, error) {
	root, err := parseTemplate("{"+text+"}", p.depth+1)
	if err != nil {
		return nil, err
	}
	// The text starts with "{", so the first node is always an action list.
	return root.nodes[0].(*listNode), nil
}

func (p *parser) next() rune {
	if p.pos >= len(p.input) {
		p.width = 0
		return endOfInput
	}
	r, w := utf8.DecodeRuneInString(p.input[p.pos:])
	p.width = w
	p.pos += w
	return r
}

func (p *parser) backup() { p.pos -= p.width }

func (p *parser) peek() rune {
	r := p.next()
	p.backup()
	return r
}

// take returns the text scanned since the last call and starts a new token.
func (p *parser) take() string {
	s := p.input[p.start:p.pos]
	p.start = p.pos
	return s
}

// run alternates between plain text and actions until the input ends.
func (p *parser) run() error {
	for {
		// Plain text up to the next "{" or the end.
		i := strings.IndexByte(p.input[p.pos:], '{')
		if i < 0 {
			p.pos = len(p.input)
		} else {
			p.pos += i
		}
		if p.pos > p.start {
			p.root.nodes = append(p.root.nodes, &textNode{text: p.take()})
		}
		if i < 0 {
			return nil
		}
		p.pos++
		p.take()
		action := &listNode{}
		p.root.nodes = append(p.root.nodes, action)
		if err := p.action(action); err != nil {
			return err
		}
	}
}

// action scans the tokens of one action until its closing "}".
func (p *parser) action(cur *listNode) error {
	for {
		rest := p.input[p.pos:]
		var err error
		switch {
		case strings.HasPrefix(rest, "}"):
			p.pos++
			p.take()
			return nil
		case strings.HasPrefix(rest, "[?("):
			err = p.filter(cur)
		case strings.HasPrefix(rest, ".."):
			err = p.recursive(cur)
		default:
			err = p.token(cur)
		}
		if err != nil {
			return err
		}
	}
}

// token scans one token that does not start with a multi-character prefix.
func (p *parser) token(cur *listNode) error {
	r := p.next()
	switch {
	case r == endOfInput || r == '\r' || r == '\n':
		return errors.New("unclosed action")
	case r == ' ' || r == '@' || r == '$':
		p.take()
	case r == '[':
		return p.bracket(cur)
	case r == '"' || r == '\'':
		return p.quoted(cur, r)
	case r == '.':
		return p.field(cur)
	case r == '+' || r == '-' || unicode.IsDigit(r):
		p.backup()
		return p.number(cur)
	case isWordRune(r):
		p.backup()
		return p.identifier(cur)
	default:
		return fmt.Errorf("unrecognized character in action: %#U", r)
	}
	return nil
}

// identifier scans a bare word: true, false, or a keyword.
func (p *parser) identifier(cur *listNode) error {
	for !endsName(p.next()) {
	}
	p.backup()
	word := p.take()
	switch word {
	case "true", "false":
		cur.nodes = append(cur.nodes, &literalNode{value: word == "true"})
	default:
		cur.nodes = append(cur.nodes, &identNode{name: word})
	}
	return nil
}

// recursive scans "..", optionally followed directly by a field name.
func (p *parser) recursive(cur *listNode) error {
	if n := len(cur.nodes); n > 0 {
		if _, ok := cur.nodes[n-1].(*recursiveNode); ok {
			return errors.New("invalid multiple recursive descent")
		}
	}
	p.pos += 2
	p.take()
	cur.nodes = append(cur.nodes, &recursiveNode{})
	if isWordRune(p.peek()) {
		return p.field(cur)
	}
	return nil
}

// number scans an integer or a decimal number with an optional sign.
func (p *parser) number(cur *listNode) error {
	if r := p.peek(); r == '+' || r == '-' {
		p.next()
	}
	for {
		r := p.next()
		if r != '.' && !unicode.IsDigit(r) {
			p.backup()
			break
		}
	}
	text := p.take()
	if i, err := strconv.Atoi(text); err == nil {
		cur.nodes = append(cur.nodes, &literalNode{value: i})
		return nil
	}
	if f, err := strconv.ParseFloat(text, 64); err == nil {
		cur.nodes = append(cur.nodes, &literalNode{value: f})
		return nil
	}
	return fmt.Errorf("cannot parse number %s", text)
}

// bracket scans "[...]" after its "[": a union, a quoted key, an index or
// a slice.
func (p *parser) bracket(cur *listNode) error {
	i := strings.IndexAny(p.input[p.pos:], "]\n")
	if i < 0 || p.input[p.pos+i] == '\n' {
		return errors.New("unterminated array")
	}
	p.pos += i + 1
	text := p.take()
	text = text[1 : len(text)-1]
	if text == "*" {
		text = ":"
	}

	// A comma anywhere makes a union, even inside quotes, as upstream.
	if parts := strings.Split(text, ","); len(parts) > 1 {
		u := &unionNode{branches: make([]*listNode, 0, len(parts))}
		for _, part := range parts {
			branch, err := p.parseSub("[" + strings.Trim(part, " ") + "]")
			if err != nil {
				return err
			}
			u.branches = append(u.branches, branch)
		}
		cur.nodes = append(cur.nodes, u)
		return nil
	}

	// ['key'] is parsed as .key, so dots in the key still separate fields.
	if m := quotedKeyRE.FindStringSubmatch(text); m != nil {
		sub, err := p.parseSub("." + m[1])
		if err != nil {
			return err
		}
		cur.nodes = append(cur.nodes, sub.nodes...)
		return nil
	}

	m := sliceRE.FindStringSubmatch(text)
	if m == nil {
		return fmt.Errorf("invalid array index %s", text)
	}
	var a arrayNode
	for i := 0; i < 3; i++ {
		s := m[i+1]
		switch {
		case s == "" && i == 1:
			// A single index [n] means [n:n+1].
			a.params[1] = sliceParam{value: a.params[0].value + 1, known: true, derived: true}
		case s == "":
			// Left out: start 0 or no step.
		default:
			if i > 0 {
				s = s[1:]
				if s == "" {
					continue // "[1:]" or "[::]": the colon alone
				}
			}
			v, err := strconv.Atoi(s)
			if err != nil {
				return fmt.Errorf("array index %s is not a number", s)
			}
			a.params[i] = sliceParam{value: v, known: true}
		}
	}
	cur.nodes = append(cur.nodes, &a)
	return nil
}

// filter scans "[?(...)]". The expression ends at the first ")" that is not
// inside the first quoted string.
func (p *parser) filter(cur *listNode) error {
	p.pos += len("[?(")
	p.take()
	opened, closed := false, false
	var quote rune
scan:
	for {
		r := p.next()
		switch r {
		case endOfInput, '\n':
			return errors.New("unterminated filter")
		case '"', '\'':
			if !opened {
				opened = true
				quote = r
				continue
			}
			if r == quote && p.input[p.pos-2] != '\\' {
				closed = true
			}
		case ')':
			if opened == closed {
				break scan
			}
		}
	}
	if p.next() != ']' {
		return errors.New("unclosed array expect ]")
	}
	text := p.take()
	text = text[:len(text)-2]
	m := comparisonRE.FindStringSubmatch(text)
	if m == nil {
		left, err := p.parseSub(text)
		if err != nil {
			return err
		}
		cur.nodes = append(cur.nodes, &filterNode{left: left, right: &listNode{}, op: "exists"})
		return nil
	}
	left, err := p.parseSub(m[1])
	if err != nil {
		return err
	}
	right, err := p.parseSub(m[3])
	if err != nil {
		return err
	}
	cur.nodes = append(cur.nodes, &filterNode{left: left, right: right, op: m[2]})
	return nil
}

// quoted scans a string in single or double quotes. A quote preceded by a
// backslash does not end it.
func (p *parser) quoted(cur *listNode, q rune) error {
	for {
		r := p.next()
		if r == endOfInput || r == '\n' {
			return errors.New("unterminated quoted string")
		}
		if r == q && p.input[p.pos-2] != '\\' {
			break
		}
	}
	text := p.take()
	s, err := unquote(text)
	if err != nil {
		return fmt.Errorf("unquote string %s error %v", text, err)
	}
	cur.nodes = append(cur.nodes, &textNode{text: s})
	return nil
}

// field scans a field name after "." up to the next unescaped terminator;
// backslashes are then dropped, so "a\.b" names the key "a.b".
func (p *parser) field(cur *listNode) error {
	p.take()
	for {
		r := p.next()
		if r == '\\' {
			p.next()
			continue
		}
		if endsName(r) {
			p.backup()
			break
		}
	}
	name := p.take()
	if name == "*" {
		cur.nodes = append(cur.nodes, &wildcardNode{})
		return nil
	}
	cur.nodes = append(cur.nodes, &fieldNode{name: strings.ReplaceAll(name, `\`, "")})
	return nil
}

// endsName reports whether r ends a field name or a bare word.
func endsName(r rune) bool {
	switch r {
	case endOfInput, ' ', '\t', '\r', '\n', '.', ',', '[', ']', '$', '@', '{', '}':
		return true
	}
	return false
}

// isWordRune reports whether r may start a bare word.
func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// unquote is strconv.Unquote that also accepts single-quoted strings of any
// length.
func unquote(s string) (string, error) {
	n := len(s)
	if n < 2 || s[0] != s[n-1] || (s[0] != '"' && s[0] != '\'') {
		return "", errBadQuote
	}
	q := s[0]
	s = s[1 : n-1]
	if !strings.ContainsRune(s, '\\') && strings.IndexByte(s, q) < 0 {
		return s, nil
	}
	buf := make([]byte, 0, len(s))
	for len(s) > 0 {
		c, multibyte, rest, err := strconv.UnquoteChar(s, q)
		if err != nil {
			return "", err
		}
		s = rest
		if c < utf8.RuneSelf || !multibyte {
			buf = append(buf, byte(c))
		} else {
			buf = utf8.AppendRune(buf, c)
		}
	}
	return string(buf), nil
}
