package jsonvalue

import "unicode/utf8"

// jsonSafe tells the ASCII characters that encoding/json writes as they
// are (with HTML escaping on): printable, not a quote, a backslash, <, >
// or &.
var jsonSafe = func() (safe [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		safe[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return safe
}()

// AppendString appends s as a JSON string, quoted and escaped as
// encoding/json writes it (HTML characters and invalid UTF-8 included).
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	b = AppendEscaped(b, s)
	return append(b, '"')
}

// AppendEscaped appends s escaped as AppendString escapes it, without the
// quotes: parts of one string escaped one after another make the string
// escaped whole when they split it between runes.
func AppendEscaped(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	start := 0
	// Runs of safe bytes are skipped a word at a time: at the start, and
	// after each byte that needed a look of its own.
	for i := skipSafe(s, 0); i < len(s); i = skipSafe(s, i) {
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(b, s[start:]...)
}

// load8 is the 8 bytes of s from i on, little-endian (one load).
func load8(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// skipSafe returns the index, from i on, of the first 8-byte word of s
// that holds a byte jsonSafe does not allow, or of the incomplete word at
// the end of s: the bytes before it need no escaping.
func skipSafe(s string, i int) int {
	for i+8 <= len(s) && safe8(load8(s, i)) {
		i += 8
	}
	return i
}

// safe8 reports whether each of the 8 bytes in x is one that jsonSafe
// allows: ASCII, not a control character, a quote, a backslash, <, > or
// &. It is the byte-wise test done on all 8 at once: (y-ones)&^y&highs is
// non-zero exactly when some byte of y is zero. The quote and & differ
// in one bit (0x22, 0x26), and so do < and > (0x3c, 0x3e): setting that
// bit leaves one byte to compare with for each pair.
func safe8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	qa := (x | 0x04*ones) ^ '&'*ones // zero where " or &
	lg := (x | 0x02*ones) ^ '>'*ones // zero where < or >
	bs := x ^ '\\'*ones
	bad := x | (x - 0x20*ones) // not ASCII, or below 0x20 (the only bytes that borrow)
	bad |= (qa - ones) &^ qa
	bad |= (lg - ones) &^ lg
	bad |= (bs - ones) &^ bs
	return bad&highs == 0
}
