package celrules

import (
	"strings"
)

// reservedWords are the identifiers CEL reserves; a property with one of
// these names is exposed as __name__.
var reservedWords = map[string]bool{
	"true": true, "false": true, "null": true, "in": true,
	"as": true, "break": true, "const": true, "continue": true, "else": true,
	"for": true, "function": true, "if": true, "import": true, "let": true,
	"loop": true, "package": true, "namespace": true, "return": true,
	"var": true, "void": true, "while": true,
}

// escapeProperty returns the CEL identifier under which a property named name is
// visible, and false when the name cannot be expressed in CEL (it is empty,
// starts with a digit or contains a character other than letters, digits,
// '_', '.', '-' and '/'). Reserved words become __word__; "__", ".", "-" and
// "/" become __underscores__, __dot__, __dash__ and __slash__.
func escapeProperty(name string) (string, bool) {
	if name == "" || ('0' <= name[0] && name[0] <= '9') {
		return "", false
	}
	if reservedWords[name] {
		return "__" + name + "__", true
	}
	plain := true
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '_':
			if i+1 < len(name) && name[i+1] == '_' {
				plain = false
			}
		case c == '.', c == '-', c == '/':
			plain = false
		default:
			return "", false
		}
	}
	if plain {
		return name, true
	}
	var b strings.Builder
	b.Grow(len(name) + 16)
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_' && i+1 < len(name) && name[i+1] == '_':
			b.WriteString("__underscores__")
			i++
		case c == '.':
			b.WriteString("__dot__")
		case c == '-':
			b.WriteString("__dash__")
		case c == '/':
			b.WriteString("__slash__")
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// unescapeProperty reverses escapeProperty. It reports false for a string that contains an
// unknown escape sequence, or a reserved-word sequence that is not the whole
// string.
//
// An escape sequence is "__", one or more characters other than '_', and
// "__"; sequences are found left to right, without overlapping.
func unescapeProperty(escaped string) (string, bool) {
	if !strings.Contains(escaped, "__") {
		return escaped, true
	}
	var b strings.Builder
	last := 0 // end of the text already written
	for i := 0; i+1 < len(escaped); {
		end := sequenceAt(escaped, i)
		if end < 0 {
			i++
			continue
		}
		var repl string
		switch word := escaped[i+2 : end-2]; word {
		case "underscores":
			repl = "__"
		case "dot":
			repl = "."
		case "dash":
			repl = "-"
		case "slash":
			repl = "/"
		default:
			if !reservedWords[word] || end-i != len(escaped) {
				return "", false
			}
			repl = word
		}
		if b.Cap() == 0 {
			b.Grow(len(escaped))
		}
		b.WriteString(escaped[last:i])
		b.WriteString(repl)
		last, i = end, end
	}
	if last == 0 {
		return escaped, true
	}
	b.WriteString(escaped[last:])
	return b.String(), true
}

// sequenceAt returns the end of the escape sequence that starts at i in s,
// or -1.
func sequenceAt(s string, i int) int {
	if s[i] != '_' || s[i+1] != '_' {
		return -1
	}
	j := i + 2
	for j < len(s) && s[j] != '_' {
		j++
	}
	if j == i+2 || j+1 >= len(s) || s[j+1] != '_' {
		return -1
	}
	return j + 2
}
