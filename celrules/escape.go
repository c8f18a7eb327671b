package celrules

import (
	"regexp"
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

// Escape returns the CEL identifier under which a property named name is
// visible, and false when the name cannot be expressed in CEL (it is empty,
// starts with a digit or contains a character other than letters, digits,
// '_', '.', '-' and '/'). Reserved words become __word__; "__", ".", "-" and
// "/" become __underscores__, __dot__, __dash__ and __slash__.
func Escape(name string) (string, bool) {
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

var escapeSequence = regexp.MustCompile(`__[^_]+__`)

// Unescape reverses Escape. It reports false for a string that contains an
// unknown escape sequence, or a reserved-word sequence that is not the whole
// string.
func Unescape(escaped string) (string, bool) {
	if !strings.Contains(escaped, "__") {
		return escaped, true
	}
	ok := true
	out := escapeSequence.ReplaceAllStringFunc(escaped, func(seq string) string {
		word := seq[2 : len(seq)-2]
		switch word {
		case "underscores":
			return "__"
		case "dot":
			return "."
		case "dash":
			return "-"
		case "slash":
			return "/"
		}
		if reservedWords[word] && len(seq) == len(escaped) {
			return word
		}
		ok = false
		return ""
	})
	if !ok {
		return "", false
	}
	return out, true
}
