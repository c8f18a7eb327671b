package celparse

import "unicode/utf8"

// kind is the kind of a token, one per token of cel-go's CEL grammar
// (parser/gen/CEL.g4) that this lexer knows.
type kind uint8

const (
	tEOF kind = iota
	tIdent
	tInt    // NUM_INT: decimal or 0x hexadecimal digits
	tUint   // NUM_UINT: an int followed by u or U
	tDouble // NUM_FLOAT
	tString
	tBytes
	tTrue
	tFalse
	tNull
	tIn
	tEq       // ==
	tNe       // !=
	tLt       // <
	tLe       // <=
	tGe       // >=
	tGt       // >
	tAnd      // &&
	tOr       // ||
	tLBracket // [
	tRBracket // ]
	tLBrace   // {
	tRBrace   // }
	tLParen   // (
	tRParen   // )
	tDot      // .
	tComma    // ,
	tMinus    // -
	tNot      // !
	tQuestion // ?
	tColon    // :
	tPlus     // +
	tStar     // *
	tSlash    // /
	tPercent  // %
)

// token is one token of the text: its kind, where it lies in bytes
// (text[pos:end]) and its offset in code points, the unit of cel-go's
// source positions.
type token struct {
	kind     kind
	pos, end int32
	off      int32
}

// lexer splits a text into the tokens cel-go's ANTLR lexer makes of it.
// It knows the tokens of valid expressions only: whatever it does not
// recognise for certain (a character outside the grammar, a backtick, an
// unterminated string, a number glued to a letter) fails the lexing, and
// the caller falls back to cel-go's parser, whose error text is then the
// answer.
type lexer struct {
	text string
	// i is the byte position of the next character, off its code point
	// offset.
	i, off int32
}

// lex appends the tokens of text to toks and ends them with a tEOF token;
// ok is false if the text holds anything the lexer is not sure of.
func lex(text string, toks []token) (_ []token, ok bool) {
	l := lexer{text: text}
	for {
		t, ok := l.next()
		if !ok {
			return toks, false
		}
		toks = append(toks, t)
		if t.kind == tEOF {
			return toks, true
		}
	}
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isHex(c byte) bool    { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
func isIdent(c byte) bool  { return isLetter(c) || isDigit(c) || c == '_' }

// peek returns the byte at i, or 0 past the end.
func (l *lexer) peek(i int32) byte {
	if int(i) < len(l.text) {
		return l.text[i]
	}
	return 0
}

// skip skips whitespace and comments, the hidden tokens of the grammar.
func (l *lexer) skip() bool {
	for int(l.i) < len(l.text) {
		switch c := l.text[l.i]; c {
		case ' ', '\t', '\r', '\n', '\f':
			l.i++
			l.off++
		case '/':
			if l.peek(l.i+1) != '/' {
				return true
			}
			// A comment runs to the end of the line; it may hold any
			// character, counted in code points.
			for int(l.i) < len(l.text) && l.text[l.i] != '\n' {
				_, n := utf8.DecodeRuneInString(l.text[l.i:])
				l.i += int32(n)
				l.off++
			}
		default:
			return true
		}
	}
	return true
}

// next returns the next token.
func (l *lexer) next() (token, bool) {
	l.skip()
	t := token{pos: l.i, off: l.off}
	if int(l.i) >= len(l.text) {
		t.kind, t.end = tEOF, l.i
		return t, true
	}
	c := l.text[l.i]
	one := func(k kind) (token, bool) {
		l.i++
		l.off++
		t.kind, t.end = k, l.i
		return t, true
	}
	two := func(k kind) (token, bool) {
		l.i += 2
		l.off += 2
		t.kind, t.end = k, l.i
		return t, true
	}
	next := l.peek(l.i + 1)
	switch c {
	case '=':
		if next == '=' {
			return two(tEq)
		}
		return t, false
	case '!':
		if next == '=' {
			return two(tNe)
		}
		return one(tNot)
	case '<':
		if next == '=' {
			return two(tLe)
		}
		return one(tLt)
	case '>':
		if next == '=' {
			return two(tGe)
		}
		return one(tGt)
	case '&':
		if next == '&' {
			return two(tAnd)
		}
		return t, false
	case '|':
		if next == '|' {
			return two(tOr)
		}
		return t, false
	case '[':
		return one(tLBracket)
	case ']':
		return one(tRBracket)
	case '{':
		return one(tLBrace)
	case '}':
		return one(tRBrace)
	case '(':
		return one(tLParen)
	case ')':
		return one(tRParen)
	case ',':
		return one(tComma)
	case '-':
		return one(tMinus)
	case '?':
		return one(tQuestion)
	case ':':
		return one(tColon)
	case '+':
		return one(tPlus)
	case '*':
		return one(tStar)
	case '/':
		return one(tSlash)
	case '%':
		return one(tPercent)
	case '.':
		if isDigit(next) {
			return l.number(t)
		}
		return one(tDot)
	case '"', '\'':
		return l.str(t, l.i, tString)
	}
	if isDigit(c) {
		return l.number(t)
	}
	if isLetter(c) || c == '_' {
		j := l.i
		for int(j) < len(l.text) && isIdent(l.text[j]) {
			j++
		}
		word := l.text[l.i:j]
		// String and bytes prefixes: r, b and br in either case. The
		// grammar's longest match makes r"x" a string, not r then "x".
		if q := l.peek(j); q == '"' || q == '\'' {
			switch word {
			case "r", "R":
				return l.str(t, j, tString)
			case "b", "B", "br", "bR", "Br", "BR":
				return l.str(t, j, tBytes)
			}
		}
		l.off += j - l.i
		l.i = j
		t.end = j
		switch word {
		case "true":
			t.kind = tTrue
		case "false":
			t.kind = tFalse
		case "null":
			t.kind = tNull
		case "in":
			t.kind = tIn
		default:
			t.kind = tIdent
		}
		return t, true
	}
	// Backticks, non-ASCII characters and anything else: not for this
	// lexer.
	return t, false
}

// number lexes NUM_INT, NUM_UINT and NUM_FLOAT, by the grammar's longest
// match:
//
//	NUM_FLOAT: DIGIT+ '.' DIGIT+ EXPONENT? | DIGIT+ EXPONENT | '.' DIGIT+ EXPONENT?
//	NUM_INT:   DIGIT+ | '0x' HEXDIGIT+
//	NUM_UINT:  (DIGIT+ | '0x' HEXDIGIT+) ('u' | 'U')
//
// The lexer leaves a number followed at once by a letter, a digit or '_'
// (0X1, 1.5u, 1in x) to cel-go, which lexes it as two tokens that rarely
// parse. A '.' after a number is the next token, as in cel-go (1.e3 is 1,
// '.', e3; 1..5 is 1, .5).
func (l *lexer) number(t token) (token, bool) {
	i := l.i
	digits := func() int32 {
		s := i
		for int(i) < len(l.text) && isDigit(l.text[i]) {
			i++
		}
		return i - s
	}
	exponent := func() bool {
		if c := l.peek(i); c != 'e' && c != 'E' {
			return false
		}
		j := i + 1
		if c := l.peek(j); c == '+' || c == '-' {
			j++
		}
		if !isDigit(l.peek(j)) {
			return false
		}
		i = j
		digits()
		return true
	}
	t.kind = tInt
	switch {
	case l.text[i] == '.':
		i++
		digits()
		exponent()
		t.kind = tDouble
	case l.text[i] == '0' && l.peek(i+1) == 'x' && isHex(l.peek(i+2)):
		i += 2
		for int(i) < len(l.text) && isHex(l.text[i]) {
			i++
		}
		if c := l.peek(i); c == 'u' || c == 'U' {
			i++
			t.kind = tUint
		}
	default:
		digits()
		if l.peek(i) == '.' && isDigit(l.peek(i+1)) {
			i++
			digits()
			exponent()
			t.kind = tDouble
		} else if exponent() {
			t.kind = tDouble
		} else if c := l.peek(i); c == 'u' || c == 'U' {
			i++
			t.kind = tUint
		}
	}
	if isIdent(l.peek(i)) {
		return t, false
	}
	l.off += i - l.i
	l.i = i
	t.end = i
	return t, true
}

// str lexes a string or bytes literal whose prefix (r, b, br) ends at
// q, where its quotes begin. It checks the text against the grammar's
// STRING rule: every escape of a non-raw string is one the grammar knows;
// single-quoted strings hold no line break. A carriage return anywhere
// in the literal (cel-go normalises line breaks in literals) is left to
// cel-go.
func (l *lexer) str(t token, q int32, k kind) (token, bool) {
	raw := false
	for p := l.i; p < q; p++ {
		if c := l.text[p]; c == 'r' || c == 'R' {
			raw = true
		}
	}
	quote := l.text[q]
	triple := l.peek(q+1) == quote && l.peek(q+2) == quote
	i := q + 1
	if triple {
		i = q + 3
	}
	cps := int32(0) // code points of the literal after its opening quote(s)
	for {
		if int(i) >= len(l.text) {
			return t, false
		}
		c := l.text[i]
		if c == '\r' {
			return t, false
		}
		if c == quote {
			if !triple {
				i++
				break
			}
			if l.peek(i+1) == quote && l.peek(i+2) == quote {
				i += 3
				break
			}
		}
		if c == '\n' && !triple {
			return t, false
		}
		if c == '\\' && !raw {
			n, ok := escapeLen(l.text[i:])
			if !ok {
				return t, false
			}
			i += n
			cps += n
			continue
		}
		if c >= utf8.RuneSelf {
			_, n := utf8.DecodeRuneInString(l.text[i:])
			i += int32(n)
		} else {
			i++
		}
		cps++
	}
	l.off += (q - l.i) + 1 + cps
	if triple {
		l.off += 2
	}
	// The closing quote(s).
	if triple {
		l.off += 3
	} else {
		l.off++
	}
	l.i = i
	t.kind, t.end = k, i
	return t, true
}

// escapeLen returns the length of the escape sequence s begins with, as
// the grammar's ESC_SEQ accepts it.
func escapeLen(s string) (int32, bool) {
	if len(s) < 2 {
		return 0, false
	}
	hex := func(n int) (int32, bool) {
		if len(s) < 2+n {
			return 0, false
		}
		for j := 2; j < 2+n; j++ {
			if !isHex(s[j]) {
				return 0, false
			}
		}
		return int32(2 + n), true
	}
	switch c := s[1]; c {
	case 'a', 'b', 'f', 'n', 'r', 't', 'v', '"', '\'', '\\', '?', '`':
		return 2, true
	case 'x', 'X':
		return hex(2)
	case 'u':
		return hex(4)
	case 'U':
		return hex(8)
	case '0', '1', '2', '3':
		if len(s) < 4 || s[2] < '0' || s[2] > '7' || s[3] < '0' || s[3] > '7' {
			return 0, false
		}
		return 4, true
	}
	return 0, false
}
