package printer

import (
	"fmt"
	"slices"
	"strings"
)

// A Selector is a parsed field selector such as "spec.color=blue,spec.size!=M":
// the conjunction of its requirements. The zero Selector matches everything.
type Selector struct {
	reqs []Requirement
}

// A Requirement is one term of a field selector.
type Requirement struct {
	Field    string
	Value    string // unescaped
	NotEqual bool   // "!=" rather than "=" or "=="
}

// Matches reports whether a field set satisfies every requirement. A field
// missing from the set has the value "".
func (s Selector) Matches(fields map[string]string) bool {
	return !slices.ContainsFunc(s.reqs, func(r Requirement) bool { return (fields[r.Field] == r.Value) == r.NotEqual })
}

// Empty reports whether the selector places no requirement.
func (s Selector) Empty() bool { return len(s.reqs) == 0 }

// Requirements returns the selector's terms, sorted as the API server sorts
// them.
func (s Selector) Requirements() []Requirement { return slices.Clone(s.reqs) }

// String returns the selector in the form ParseSelector reads.
func (s Selector) String() string {
	var b strings.Builder
	for i, r := range s.reqs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(r.Field)
		if r.NotEqual {
			b.WriteString("!=")
		} else {
			b.WriteByte('=')
		}
		b.WriteString(escapeValue(r.Value))
	}
	return b.String()
}

var valueEscaper = strings.NewReplacer(`\`, `\\`, `,`, `\,`, `=`, `\=`)

// escapeValue escapes the characters \ , and = of a value for use in a field
// selector.
func escapeValue(s string) string { return valueEscaper.Replace(s) }

// unescapeValue undoes escapeValue. Any other backslash sequence, a
// trailing backslash, or an unescaped , or = is an error.
func unescapeValue(s string) (string, error) {
	if !strings.ContainsAny(s, `\,=`) {
		return s, nil
	}
	var b strings.Builder
	escaped := false
	for _, c := range s {
		if escaped {
			switch c {
			case '\\', ',', '=':
				b.WriteRune(c)
			default:
				return "", fmt.Errorf("invalid field selector: invalid escape sequence: %s", string([]rune{'\\', c}))
			}
			escaped = false
			continue
		}
		switch c {
		case '\\':
			escaped = true
		case ',', '=':
			return "", fmt.Errorf("invalid field selector: unescaped character in value: %v", c)
		default:
			b.WriteRune(c)
		}
	}
	if escaped {
		return "", fmt.Errorf("invalid field selector: invalid escape sequence: %s", `\`)
	}
	return b.String(), nil
}

// ParseSelector parses a field selector as the API server reads the
// fieldSelector parameter: comma-separated terms "field=value",
// "field==value" or "field!=value", where the value escapes \ , and = with
// a backslash. Empty terms, and terms with neither field nor value, are
// ignored. The field names are not checked; Fields.ParseSelector does that.
func ParseSelector(s string) (Selector, error) {
	parts := splitTerms(s)
	slices.Sort(parts)
	var reqs []Requirement
	for _, part := range parts {
		if part == "" {
			continue
		}
		field, op, raw, ok := splitTerm(part)
		if !ok {
			return Selector{}, fmt.Errorf("invalid selector: '%s'; can't understand '%s'", s, part)
		}
		value, err := unescapeValue(raw)
		if err != nil {
			return Selector{}, err
		}
		if field == "" && value == "" {
			continue
		}
		reqs = append(reqs, Requirement{Field: field, Value: value, NotEqual: op == "!="})
	}
	return Selector{reqs: reqs}, nil
}

// splitTerms splits at commas not escaped by a backslash.
func splitTerms(s string) []string {
	if s == "" {
		return nil
	}
	var terms []string
	start := 0
	escaped := false
	for i, c := range s {
		switch {
		case escaped:
			escaped = false
		case c == '\\':
			escaped = true
		case c == ',':
			terms = append(terms, s[start:i])
			start = i + 1
		}
	}
	return append(terms, s[start:])
}

// splitTerm splits a term at the first operator; field names cannot escape
// anything, and "!=" and "==" win over "=" at the same position.
func splitTerm(term string) (field, op, value string, ok bool) {
	for i := range term {
		rest := term[i:]
		for _, op := range [...]string{"!=", "==", "="} {
			if strings.HasPrefix(rest, op) {
				return term[:i], op, term[i+len(op):], true
			}
		}
	}
	return "", "", "", false
}
