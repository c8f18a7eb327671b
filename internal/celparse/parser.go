package celparse

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// maxDepth bounds the depth of the expressions the parser builds (each
// parenthesis, operator, call, select and index a level). cel-go stops at
// a recursion depth of 250 rule contexts of one kind or 250 nested
// visits; a depth of maxDepth is well below either, so that a text this
// parser accepts is never one cel-go rejects for its depth. Deeper texts
// fall back.
const maxDepth = 100

// bail is the panic value by which the parser gives up on a text.
type bail struct{}

// state is one parse: the tokens of the text, the next one, and the IDs.
type state struct {
	cfg  *Parser
	text string
	toks []token
	i    int
	h    ids
	eh   exprHelper
}

// give up on the text: the caller falls back to cel-go's parser.
func (p *state) fail() { panic(bail{}) }

func (p *state) peek() token       { return p.toks[p.i] }
func (p *state) peekAt(k int) kind { return p.toks[min(p.i+k, len(p.toks)-1)].kind }

// take returns the next token and moves past it.
func (p *state) take() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// expect takes the next token, which must be of kind k.
func (p *state) expect(k kind) token {
	t := p.take()
	if t.kind != k {
		p.fail()
	}
	return t
}

func (p *state) textOf(t token) string { return p.text[t.pos:t.end] }

// deeper returns 1 + max(ds), and gives up beyond maxDepth.
func (p *state) deeper(ds ...int) int {
	d := 0
	for _, x := range ds {
		d = max(d, x)
	}
	d++
	if d > maxDepth {
		p.fail()
	}
	return d
}

// start parses the whole text: one expression, then the end.
func (p *state) start() ast.Expr {
	e, _ := p.expr()
	p.expect(tEOF)
	return e
}

// expr: conditionalOr ('?' conditionalOr ':' expr)?
func (p *state) expr() (ast.Expr, int) {
	e, d := p.or()
	if p.peek().kind != tQuestion {
		return e, d
	}
	opID := p.h.tok(p.take())
	t, dt := p.or()
	p.expect(tColon)
	f, df := p.expr()
	return p.globalCallOrMacro(opID, operators.Conditional, e, t, f), p.deeper(d, dt, df)
}

// or: conditionalAnd ('||' conditionalAnd)*, as a balanced tree of calls
// (cel-go's logicManager without variadic operators).
func (p *state) or() (ast.Expr, int) {
	return p.logic(tOr, operators.LogicalOr, (*state).and)
}

// and: relation ('&&' relation)*.
func (p *state) and() (ast.Expr, int) {
	return p.logic(tAnd, operators.LogicalAnd, (*state).relation)
}

func (p *state) logic(op kind, function string, term func(*state) (ast.Expr, int)) (ast.Expr, int) {
	e, d := term(p)
	if p.peek().kind != op {
		return e, d
	}
	terms := []ast.Expr{e}
	var ops []int64
	for p.peek().kind == op {
		opTok := p.take()
		next, dn := term(p)
		d = max(d, dn)
		// cel-go visits the term before it allocates the operator's ID.
		ops = append(ops, p.h.tok(opTok))
		terms = append(terms, next)
	}
	d = p.deeper(d + bits.Len(uint(len(ops))))
	return p.balanced(function, terms, ops, 0, len(ops)-1), d
}

// balanced builds the balanced tree of terms[lo..hi+1] joined by the
// operators ops[lo..hi], as cel-go's logicManager.balancedTree does.
func (p *state) balanced(function string, terms []ast.Expr, ops []int64, lo, hi int) ast.Expr {
	mid := (lo + hi + 1) / 2
	var left, right ast.Expr
	if mid == lo {
		left = terms[mid]
	} else {
		left = p.balanced(function, terms, ops, lo, mid-1)
	}
	if mid == hi {
		right = terms[mid+1]
	} else {
		right = p.balanced(function, terms, ops, mid+1, hi)
	}
	return p.h.fac.NewCall(ops[mid], function, left, right)
}

// The functions of the left-associative binary operators, by token, one
// table per precedence level.
var (
	relations = [...]string{
		tLt: operators.Less, tLe: operators.LessEquals, tGe: operators.GreaterEquals,
		tGt: operators.Greater, tEq: operators.Equals, tNe: operators.NotEquals, tIn: operators.In,
	}
	additive       = [...]string{tPlus: operators.Add, tMinus: operators.Subtract}
	multiplicative = [...]string{tStar: operators.Multiply, tSlash: operators.Divide, tPercent: operators.Modulo}
)

// relation: calc (relop calc)*.
func (p *state) relation() (ast.Expr, int) { return p.leftAssoc(relations[:], (*state).calc) }

// calc: product (('+'|'-') product)*.
func (p *state) calc() (ast.Expr, int) { return p.leftAssoc(additive[:], (*state).product) }

// product: unary (('*'|'/'|'%') unary)*.
func (p *state) product() (ast.Expr, int) { return p.leftAssoc(multiplicative[:], (*state).unary) }

// leftAssoc parses term (op term)*, left-associative, where ops gives the
// function of each operator token of the level.
func (p *state) leftAssoc(ops []string, term func(*state) (ast.Expr, int)) (ast.Expr, int) {
	e, d := term(p)
	for {
		k := p.peek().kind
		if int(k) >= len(ops) || ops[k] == "" {
			return e, d
		}
		opID := p.h.tok(p.take())
		r, dr := term(p)
		e, d = p.globalCallOrMacro(opID, ops[k], e, r), p.deeper(d, dr)
	}
}

// unary: member | '!'+ member | '-'+ member.
//
// A single '-' before an int or double literal is the literal's sign (the
// grammar's first alternative wins: -1 is the literal -1, and -1.y
// selects y of it); two or more are all negations, of a member that has
// no sign (--1 is 1, ---1 is -_(1)). An even number of operators leaves
// the member as it is.
func (p *state) unary() (ast.Expr, int) {
	var k kind
	switch k = p.peek().kind; k {
	case tNot, tMinus:
	default:
		return p.member()
	}
	if k == tMinus && p.peekAt(1) != tMinus {
		if n := p.peekAt(1); n == tInt || n == tDouble {
			return p.member()
		}
	}
	first := p.peek()
	n := 0
	for p.peek().kind == k {
		p.take()
		n++
	}
	if n%2 == 0 {
		m, d := p.member()
		return m, p.deeper(d)
	}
	opID := p.h.tok(first)
	m, d := p.member()
	function := operators.LogicalNot
	if k == tMinus {
		function = operators.Negate
	}
	return p.globalCallOrMacro(opID, function, m), p.deeper(d)
}

// member: primary followed by selects ('.' '?'? IDENT), member calls
// ('.' IDENT '(' args ')') and indexes ('[' '?'? expr ']').
func (p *state) member() (ast.Expr, int) {
	e, d := p.primary()
	for {
		switch p.peek().kind {
		case tDot:
			dot := p.take()
			opt := false
			if p.peek().kind == tQuestion {
				if !p.cfg.optional {
					p.fail()
				}
				p.take()
				opt = true
			}
			idTok := p.expect(tIdent)
			name := p.textOf(idTok)
			switch {
			case opt:
				lit := p.h.fac.NewLiteral(p.h.tok(idTok), types.String(name))
				e = p.h.fac.NewCall(p.h.tok(dot), operators.OptSelect, e, lit)
			case p.peek().kind == tLParen:
				opID := p.h.tok(p.take())
				args, da := p.args()
				e = p.receiverCallOrMacro(opID, name, e, args)
				d = max(d, da)
			default:
				e = p.h.fac.NewSelect(p.h.tok(dot), e, name)
			}
			d = p.deeper(d)
		case tLBracket:
			opID := p.h.tok(p.take())
			function := operators.Index
			if p.peek().kind == tQuestion {
				if !p.cfg.optional {
					p.fail()
				}
				p.take()
				function = operators.OptIndex
			}
			idx, di := p.expr()
			p.expect(tRBracket)
			e, d = p.globalCallOrMacro(opID, function, e, idx), p.deeper(d, di)
		default:
			return e, d
		}
	}
}

// args parses the arguments of a call after its '(' up to its ')': no
// trailing comma.
func (p *state) args() ([]ast.Expr, int) {
	if p.peek().kind == tRParen {
		p.take()
		return []ast.Expr{}, 0
	}
	args := make([]ast.Expr, 0, 2)
	d := 0
	for {
		a, da := p.expr()
		args = append(args, a)
		d = max(d, da)
		if p.peek().kind != tComma {
			break
		}
		p.take()
	}
	p.expect(tRParen)
	return args, d
}

// reserved are the identifiers cel-go rejects as variables and functions
// (they may name fields). The parser leaves texts that use them as such to
// cel-go.
var reserved = map[string]bool{
	"as": true, "break": true, "const": true, "continue": true, "else": true,
	"for": true, "function": true, "if": true, "import": true, "let": true,
	"loop": true, "package": true, "namespace": true, "return": true,
	"var": true, "void": true, "while": true,
}

// primary: identifiers, global calls, message construction, parentheses,
// list and map literals, literals.
func (p *state) primary() (ast.Expr, int) {
	switch t := p.peek(); t.kind {
	case tMinus:
		p.take()
		return p.literal(t, p.take()), 1
	case tInt, tUint, tDouble, tString, tBytes, tTrue, tFalse, tNull:
		return p.literal(token{}, p.take()), 1
	case tDot:
		p.take()
		return p.ident(true)
	case tIdent:
		return p.ident(false)
	case tLParen:
		p.take()
		e, d := p.expr()
		p.expect(tRParen)
		return e, p.deeper(d)
	case tLBracket:
		return p.list()
	case tLBrace:
		return p.mapLit()
	}
	p.fail()
	return nil, 0
}

// ident parses an identifier, a global call or a message construction,
// after the leading dot if there is one.
func (p *state) ident(leadingDot bool) (ast.Expr, int) {
	// A message construction is a dotted name followed by '{'.
	j := p.i
	if p.toks[j].kind != tIdent {
		p.fail()
	}
	j++
	for p.toks[j].kind == tDot && p.toks[j+1].kind == tIdent {
		j += 2
	}
	if p.toks[j].kind == tLBrace {
		return p.message(leadingDot, j)
	}
	idTok := p.take()
	name := p.textOf(idTok)
	if reserved[name] {
		p.fail()
	}
	if leadingDot {
		name = "." + name
	}
	if p.peek().kind != tLParen {
		return p.h.fac.NewIdent(p.h.tok(idTok), name), 1
	}
	opID := p.h.tok(p.take())
	args, d := p.args()
	return p.globalCallOrMacro(opID, name, args...), p.deeper(d)
}

// message parses a message construction whose name runs up to the '{' at
// token brace.
func (p *state) message(leadingDot bool, brace int) (ast.Expr, int) {
	var b strings.Builder
	if leadingDot {
		b.WriteByte('.')
	}
	for ; p.i < brace; p.i++ {
		b.WriteString(p.textOf(p.toks[p.i]))
	}
	objID := p.h.tok(p.take())
	fields := []ast.EntryExpr{}
	d := 0
	for p.peek().kind != tRBrace {
		opt := false
		if p.peek().kind == tQuestion {
			if !p.cfg.optional {
				p.fail()
			}
			p.take()
			opt = true
		}
		name := p.textOf(p.expect(tIdent))
		initID := p.h.tok(p.expect(tColon))
		v, dv := p.expr()
		d = max(d, dv)
		fields = append(fields, p.h.fac.NewStructField(initID, name, v, opt))
		if p.peek().kind != tComma {
			break
		}
		p.take()
	}
	p.expect(tRBrace)
	return p.h.fac.NewStruct(objID, b.String(), fields), p.deeper(d)
}

// list parses a list literal: '[' (('?'? expr) (',' '?'? expr)*)? ','? ']'.
// An empty list with a comma ([,]) is left to cel-go.
func (p *state) list() (ast.Expr, int) {
	listID := p.h.tok(p.take())
	elems := []ast.Expr{}
	optionals := []int32{}
	d := 0
	for p.peek().kind != tRBracket {
		if p.peek().kind == tQuestion {
			if !p.cfg.optional {
				p.fail()
			}
			p.take()
			optionals = append(optionals, int32(len(elems)))
		}
		e, de := p.expr()
		d = max(d, de)
		elems = append(elems, e)
		if p.peek().kind != tComma {
			break
		}
		p.take()
	}
	p.expect(tRBracket)
	return p.h.fac.NewList(listID, elems, optionals), p.deeper(d)
}

// mapLit parses a map literal: '{' ('?'? key ':' value) list ','? '}'.
// cel-go allocates the ID of an entry (at its ':') before it visits the
// key: the parser finds the ':' first.
func (p *state) mapLit() (ast.Expr, int) {
	structID := p.h.tok(p.take())
	entries := []ast.EntryExpr{}
	d := 0
	for p.peek().kind != tRBrace {
		opt := false
		if p.peek().kind == tQuestion {
			if !p.cfg.optional {
				p.fail()
			}
			p.take()
			opt = true
		}
		colon := p.findColon()
		colID := p.h.tok(p.toks[colon])
		k, dk := p.expr()
		if p.i != colon {
			p.fail()
		}
		p.take()
		v, dv := p.expr()
		d = max(d, dk, dv)
		entries = append(entries, p.h.fac.NewMapEntry(colID, k, v, opt))
		if p.peek().kind != tComma {
			break
		}
		p.take()
	}
	p.expect(tRBrace)
	return p.h.fac.NewMap(structID, entries), p.deeper(d)
}

// findColon returns the index of the ':' that ends the map key starting
// at the next token: the first ':' outside brackets that no conditional
// '?' before it claims. A '?' right after a '.' is an optional select,
// not a conditional.
func (p *state) findColon() int {
	depth, conds := 0, 0
	for j := p.i; j < len(p.toks); j++ {
		switch p.toks[j].kind {
		case tLParen, tLBracket, tLBrace:
			depth++
		case tRParen, tRBracket, tRBrace:
			depth--
			if depth < 0 {
				p.fail()
			}
		case tQuestion:
			if depth == 0 && (j == p.i || p.toks[j-1].kind != tDot) {
				conds++
			}
		case tColon:
			if depth == 0 {
				if conds == 0 {
					return j
				}
				conds--
			}
		case tComma:
			if depth == 0 {
				p.fail()
			}
		case tEOF:
			p.fail()
		}
	}
	p.fail()
	return 0
}

// literal makes the literal of token t, with the sign minus if minus is a
// '-' token. Its ID's range is cel-go's range of the literal's rule: from
// its first token, as long as the text of its tokens without what lies
// between them.
func (p *state) literal(minus, t token) ast.Expr {
	signed := minus.kind == tMinus
	text := p.textOf(t)
	start, length := t.off, t.end-t.pos
	if signed {
		start, length = minus.off, length+1
		if t.kind != tInt && t.kind != tDouble {
			p.fail()
		}
	}
	var v ref.Val
	switch t.kind {
	case tInt:
		base := 10
		if strings.HasPrefix(text, "0x") {
			base, text = 16, text[2:]
		}
		u, err := strconv.ParseUint(text, base, 64)
		switch {
		case err != nil:
			p.fail()
		case !signed && u <= math.MaxInt64:
			v = types.Int(u)
		case signed && u <= -math.MinInt64:
			v = types.Int(-int64(u)) // -int64(1<<63) is math.MinInt64
		default:
			p.fail()
		}
	case tUint:
		text = text[:len(text)-1]
		base := 10
		if strings.HasPrefix(text, "0x") {
			base, text = 16, text[2:]
		}
		u, err := strconv.ParseUint(text, base, 64)
		if err != nil {
			p.fail()
		}
		v = types.Uint(u)
	case tDouble:
		// strconv.ParseFloat("-" + text) is the negation of
		// strconv.ParseFloat(text), errors included.
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			p.fail()
		}
		if signed {
			f = -f
		}
		v = types.Double(f)
	case tString:
		v = types.String(unquote(text, false))
	case tBytes:
		v = types.Bytes(unquote(text[1:], true))
	case tTrue, tFalse:
		v = types.Bool(t.kind == tTrue)
	case tNull:
		v = types.NullValue
	default:
		p.fail()
	}
	return p.h.fac.NewLiteral(p.h.id(start, start+length), v)
}

// unquote returns the value of a string literal (without its b prefix),
// as cel-go's unescape does, or panics with bail where cel-go reports an
// error. The lexer has checked the escapes' form and kept carriage
// returns out.
func unquote(text string, isBytes bool) string {
	raw := false
	if text[0] == 'r' || text[0] == 'R' {
		raw, text = true, text[1:]
	}
	if len(text) >= 6 && (strings.HasPrefix(text, `"""`) || strings.HasPrefix(text, `'''`)) {
		text = text[3 : len(text)-3]
	} else {
		text = text[1 : len(text)-1]
	}
	if raw || strings.IndexByte(text, '\\') < 0 {
		return text
	}
	buf := make([]byte, 0, len(text))
	for i := 0; i < len(text); {
		c := text[i]
		if c != '\\' {
			buf = append(buf, c)
			i++
			continue
		}
		e := text[i+1]
		i += 2
		switch e {
		case 'a':
			buf = append(buf, '\a')
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'v':
			buf = append(buf, '\v')
		case '\\', '\'', '"', '`', '?':
			buf = append(buf, e)
		case 'x', 'X', 'u', 'U':
			n := 2
			switch e {
			case 'u':
				n = 4
			case 'U':
				n = 8
			}
			if isBytes && n > 2 {
				panic(bail{})
			}
			var v rune
			for j := 0; j < n; j++ {
				v = v<<4 | unhex(text[i+j])
			}
			i += n
			buf = appendRune(buf, v, isBytes)
		case '0', '1', '2', '3':
			v := rune(e-'0')*64 + rune(text[i]-'0')*8 + rune(text[i+1]-'0')
			i += 2
			buf = appendRune(buf, v, isBytes)
		default:
			panic(bail{})
		}
	}
	return string(buf)
}

// unhex returns the value of a hexadecimal digit.
func unhex(c byte) rune {
	switch {
	case c <= '9':
		return rune(c - '0')
	case c >= 'a':
		return rune(c-'a') + 10
	}
	return rune(c-'A') + 10
}

// appendRune appends the value of a numeric escape: a byte in a bytes
// literal, a code point's UTF-8 encoding in a string.
func appendRune(buf []byte, v rune, isBytes bool) []byte {
	if isBytes {
		return append(buf, byte(v))
	}
	if !utf8.ValidRune(v) {
		panic(bail{})
	}
	return utf8.AppendRune(buf, v)
}

// globalCallOrMacro makes the call of function with args, or the
// expansion of the macro it names.
func (p *state) globalCallOrMacro(id int64, function string, args ...ast.Expr) ast.Expr {
	if e := p.expand(id, function, nil, args); e != nil {
		return e
	}
	return p.h.fac.NewCall(id, function, args...)
}

// receiverCallOrMacro makes the member call of function on target, or the
// expansion of the macro it names.
func (p *state) receiverCallOrMacro(id int64, function string, target ast.Expr, args []ast.Expr) ast.Expr {
	if e := p.expand(id, function, target, args); e != nil {
		return e
	}
	return p.h.fac.NewMemberCall(id, function, target, args...)
}

// expand expands the macro the call id names, as cel-go does: the exact
// argument count first, then a variadic macro; an expander's error gives
// up (cel-go reports it), a nil expansion leaves the call a call. The
// call's own ID is given up.
func (p *state) expand(id int64, function string, target ast.Expr, args []ast.Expr) ast.Expr {
	if !p.cfg.macroNames[function] {
		return nil
	}
	recv := target != nil
	m, ok := p.cfg.macros[macroKey{function, len(args), recv}]
	if !ok {
		if m, ok = p.cfg.macros[macroKey{function, -1, recv}]; !ok {
			return nil
		}
	}
	p.eh = exprHelper{h: &p.h, id: id, off: p.h.macroOffset(id)}
	e, err := m.Expander()(&p.eh, target, args)
	if err != nil {
		p.fail()
	}
	if e == nil {
		return nil
	}
	p.h.deleteID(id)
	return e
}
