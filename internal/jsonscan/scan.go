// Package jsonscan decodes JSON into the generic form the API server
// decodes request bodies into (map[string]any, []any, string, int64,
// float64, bool, nil), with a hand-written scanner that builds the value in
// one pass, and sigs.k8s.io/json for what the scanner does not take (its
// errors are those of that package).
package jsonscan

import (
	"math"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// The scanner handles well-formed documents only; on anything else (a
// syntax error, too deep a nesting, a number out of the float64 range) it
// gives up and Decode asks sigs.k8s.io/json, so that errors keep that
// package's values and texts.

// MaxNesting is how deeply arrays and objects may nest in a document
// that encoding/json's scanner accepts.
const MaxNesting = 10000

// jsonDecoder is the state of one Scan call.
type jsonDecoder struct {
	s     string // the whole document; decoded strings are substrings of it
	pos   int    // index of the next byte to read
	depth int    // arrays and objects open around pos

	// dup is set when an object held the same key more than once.
	dup bool

	// Pending array elements and object members of all the levels that
	// are open, innermost last; a level takes its own off the top when it
	// closes.
	elems   []any
	members []jsonMember
	// The most of them held at once, the part to clear after the call.
	elemsUsed, membersUsed int

	buf []byte // scratch space of unescaping

	// arena holds the strings that unescaping made, one after the
	// other, so that they do not take an allocation each.
	arena strings.Builder
}

type jsonMember struct {
	key   string
	value any
}

// Scan decodes a JSON document into map[string]any, []any,
// string, int64, float64, bool and nil, exactly as
// kjson.UnmarshalCaseSensitivePreserveInts does into an any. It reports
// false, without saying why, when it cannot; the caller then decodes with
// kjson, which says why. dup reports whether some object held a key more
// than once (the last value is kept then, as for maps in encoding/json).
func Scan(data []byte) (v any, dup, ok bool) {
	d := jsonDecoders.Get().(*jsonDecoder)
	d.s = string(data)
	d.skipSpace()
	v, ok = d.value()
	d.skipSpace()
	ok = ok && d.pos == len(d.s)
	dup = d.dup
	d.release()
	if !ok {
		return nil, false, false
	}
	return v, dup, true
}

// jsonDecoders keeps decoders, for their scratch space, between calls.
var jsonDecoders = sync.Pool{New: func() any { return new(jsonDecoder) }}

// maxKeptScratch bounds the scratch space a decoder keeps for the next
// call, in elements.
const maxKeptScratch = 1 << 12

// release resets d, drops what it refers to (so that the pool keeps no
// decoded value alive) and returns it to the pool.
func (d *jsonDecoder) release() {
	// A failed call leaves its pending elements and members in place.
	elems := d.elems[:max(d.elemsUsed, len(d.elems))]
	members := d.members[:max(d.membersUsed, len(d.members))]
	buf := d.buf[:0]
	clear(elems)
	clear(members)
	if cap(elems) > maxKeptScratch {
		elems = nil
	}
	if cap(members) > maxKeptScratch {
		members = nil
	}
	if cap(buf) > 16*maxKeptScratch {
		buf = nil
	}
	*d = jsonDecoder{elems: elems[:0], members: members[:0], buf: buf}
	jsonDecoders.Put(d)
}

// skipSpace advances past JSON white space: space, tab, newline and
// carriage return, nothing else.
func (d *jsonDecoder) skipSpace() {
	s, i := d.s, d.pos
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\n', '\r':
			i++
			continue
		}
		break
	}
	d.pos = i
}

// value decodes the value that starts at pos, which is not white space.
func (d *jsonDecoder) value() (any, bool) {
	if d.pos >= len(d.s) {
		return nil, false
	}
	switch c := d.s[d.pos]; c {
	case '{':
		return d.object()
	case '[':
		return d.array()
	case '"':
		s, ok := d.str()
		if !ok {
			return nil, false
		}
		return s, true
	case 't':
		return true, d.word("true")
	case 'f':
		return false, d.word("false")
	case 'n':
		return nil, d.word("null")
	default:
		if c == '-' || '0' <= c && c <= '9' {
			return d.number()
		}
	}
	return nil, false
}

// word consumes the literal w if the input continues with it.
func (d *jsonDecoder) word(w string) bool {
	end := d.pos + len(w)
	if end > len(d.s) || d.s[d.pos:end] != w {
		return false
	}
	d.pos = end
	return true
}

// object decodes the object whose '{' is at pos.
func (d *jsonDecoder) object() (any, bool) {
	if d.depth++; d.depth > MaxNesting {
		return nil, false
	}
	d.pos++
	d.skipSpace()
	base := len(d.members)
	if d.pos < len(d.s) && d.s[d.pos] == '}' {
		d.pos++
		d.depth--
		return map[string]any{}, true
	}
	for {
		if d.pos >= len(d.s) || d.s[d.pos] != '"' {
			return nil, false
		}
		k, ok := d.str()
		if !ok {
			return nil, false
		}
		d.skipSpace()
		if d.pos >= len(d.s) || d.s[d.pos] != ':' {
			return nil, false
		}
		d.pos++
		d.skipSpace()
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		d.members = append(d.members, jsonMember{k, v})
		if done, ok := d.afterItem('}'); !ok {
			return nil, false
		} else if done {
			break
		}
	}
	d.membersUsed = max(d.membersUsed, len(d.members))
	members := d.members[base:]
	m := make(map[string]any, len(members))
	for _, e := range members {
		m[e.key] = e.value
	}
	if len(m) != len(members) {
		d.dup = true
	}
	d.members = d.members[:base]
	d.depth--
	return m, true
}

// array decodes the array whose '[' is at pos.
func (d *jsonDecoder) array() (any, bool) {
	if d.depth++; d.depth > MaxNesting {
		return nil, false
	}
	d.pos++
	d.skipSpace()
	if d.pos < len(d.s) && d.s[d.pos] == ']' {
		d.pos++
		d.depth--
		return []any{}, true
	}
	base := len(d.elems)
	for {
		v, ok := d.value()
		if !ok {
			return nil, false
		}
		d.elems = append(d.elems, v)
		if done, ok := d.afterItem(']'); !ok {
			return nil, false
		} else if done {
			break
		}
	}
	d.elemsUsed = max(d.elemsUsed, len(d.elems))
	a := make([]any, len(d.elems)-base)
	copy(a, d.elems[base:])
	d.elems = d.elems[:base]
	d.depth--
	return a, true
}

// afterItem consumes what follows an object member or array element: white
// space, then either end, the closing bracket (done), or a comma and white
// space. ok is false for anything else.
func (d *jsonDecoder) afterItem(end byte) (done, ok bool) {
	d.skipSpace()
	if d.pos >= len(d.s) {
		return false, false
	}
	c := d.s[d.pos]
	d.pos++
	if c == end {
		return true, true
	}
	if c != ',' {
		return false, false
	}
	d.skipSpace()
	return false, true
}

// str decodes the string whose opening quote is at pos. A string without
// escapes and with valid UTF-8 is a substring of the input.
func (d *jsonDecoder) str() (string, bool) {
	s := d.s
	start := d.pos + 1
	i := plainEnd(s, start)
	for i < len(s) {
		switch c := s[i]; {
		case c == '"':
			d.pos = i + 1
			return s[start:i], true
		case c == '\\':
			return d.unquote(start, i)
		case c < ' ':
			return "", false
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				return d.unquote(start, i)
			}
			i = plainEnd(s, i+n)
		}
	}
	return "", false
}

// plainEnd returns the index of the first byte from i on that a string
// cannot hold as it is: a quote, a backslash, a control character or the
// start of a multi-byte UTF-8 sequence; or len(s).
func plainEnd(s string, i int) int {
	// Eight bytes at a time. In each test below, the lowest byte whose
	// high bit ends up set is the first special one (a borrow can only
	// mark bytes above one that is marked rightly).
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for ; i+8 <= len(s); i += 8 {
		t := s[i : i+8]
		w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		ctl := (w - ' '*ones) &^ w // below 0x20
		q := w ^ '"'*ones
		q = (q - ones) &^ q // a quote
		b := w ^ '\\'*ones
		b = (b - ones) &^ b // a backslash
		if m := (ctl | q | b | w) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(s) && plainByte[s[i]] {
		i++
	}
	return i
}

// plainByte tells the ASCII bytes a string holds as they are.
var plainByte = func() (t [256]bool) {
	for c := ' '; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// unquote decodes the string whose content starts at start and which has
// an escape or invalid UTF-8 at i, the bytes before being as they are.
// Escapes are those of JSON; a \u escape of half a surrogate pair that has
// no matching other half, and every byte that is not part of a valid UTF-8
// sequence, become U+FFFD, as in encoding/json.
func (d *jsonDecoder) unquote(start, i int) (string, bool) {
	s := d.s
	b := append(d.buf[:0], s[start:i]...)
	for i < len(s) {
		c := s[i]
		switch {
		case c == '"':
			d.pos = i + 1
			d.buf = b
			return d.keep(b), true
		case c < ' ':
			return "", false
		case c == '\\':
			if i+1 >= len(s) {
				return "", false
			}
			switch s[i+1] {
			case '"', '\\', '/':
				b = append(b, s[i+1])
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(s, i+2)
				if r < 0 {
					return "", false
				}
				i += 6
				if 0xD800 <= r && r < 0xE000 {
					// Half of a surrogate pair: it takes the next
					// escape along if that is the matching low half.
					r2 := rune(-1)
					if i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
						r2 = hex4(s, i+2)
					}
					if r < 0xDC00 && 0xDC00 <= r2 && r2 < 0xE000 {
						r = 0x10000 + (r-0xD800)<<10 + (r2 - 0xDC00)
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
				continue
			default:
				return "", false
			}
			i += 2
		case c < utf8.RuneSelf:
			j := plainEnd(s, i+1)
			b = append(b, s[i:j]...)
			i = j
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = utf8.AppendRune(b, utf8.RuneError)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
		}
	}
	return "", false
}

// keep returns b as a string in the arena. A strings.Builder never
// changes what it has been given, so the strings it returned stay valid
// while more is written; a new one starts when the space runs out, sized
// by what is left of the document (the strings to come cannot be much
// longer than their escaped form), at most arenaChunk bytes.
func (d *jsonDecoder) keep(b []byte) string {
	if d.arena.Cap()-d.arena.Len() < len(b) {
		d.arena = strings.Builder{}
		d.arena.Grow(max(len(b), min(len(d.s)-d.pos, arenaChunk)))
	}
	start := d.arena.Len()
	d.arena.Write(b)
	return d.arena.String()[start:]
}

// arenaChunk is the most the arena takes at once for strings to come.
const arenaChunk = 16 << 10

// hex4 returns the value of the four hexadecimal digits at s[i:], or -1.
func hex4(s string, i int) rune {
	if i+4 > len(s) {
		return -1
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// number decodes the number that starts at pos. Following
// sigs.k8s.io/json, a number without a '.' that parses as an int64 is an
// int64; every other number is the nearest float64, and one beyond the
// float64 range is an error there, so a failure here.
func (d *jsonDecoder) number() (any, bool) {
	i, f, isInt, ok := d.numberParts()
	switch {
	case !ok:
		return nil, false
	case isInt:
		return i, true
	}
	return f, true
}

// numberParts is number without the boxing: when the number decodes as
// an int64 that is n and isInt is true, otherwise f is its float64.
func (d *jsonDecoder) numberParts() (n int64, f float64, isInt, ok bool) {
	s := d.s
	start, i := d.pos, d.pos
	neg := s[i] == '-'
	if neg {
		i++
	}
	// The integer part, accumulated while it cannot overflow a uint64.
	var u uint64
	digits := 0
	switch {
	case i < len(s) && s[i] == '0':
		i++
		digits = 1
	case i < len(s) && '1' <= s[i] && s[i] <= '9':
		for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
			u = u*10 + uint64(s[i]-'0')
			digits++
		}
	default:
		return 0, 0, false, false
	}
	integral := true
	if i < len(s) && s[i] == '.' {
		integral = false
		j := skipDigits(s, i+1)
		if j == i+1 {
			return 0, 0, false, false
		}
		i = j
	}
	exponent := false
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		exponent = true
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := skipDigits(s, i)
		if j == i {
			return 0, 0, false, false
		}
		i = j
	}
	d.pos = i
	// An exponent makes strconv.ParseInt fail, so only plain integers
	// can become int64; those of 20 digits or more overflow it.
	if integral && !exponent && digits <= 19 {
		if !neg && u <= math.MaxInt64 {
			return int64(u), 0, true, true
		}
		if neg && u <= 1<<63 {
			return int64(-u), 0, true, true
		}
	}
	f, err := strconv.ParseFloat(s[start:i], 64)
	if err != nil {
		return 0, 0, false, false
	}
	return 0, f, false, true
}

// skipDigits returns the index of the first byte from i on that is not a
// decimal digit, or len(s).
func skipDigits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}
