package structural

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/crdschema/crdschema"
)

// maxFieldPathToken is the longest token the API server's field path
// scanner reads (bufio.MaxScanTokenSize). The scanner stops quietly at a
// longer token, and so does FieldPath, so that both accept the same
// paths.
const maxFieldPathToken = 64 * 1024

var errNotAField = errors.New("does not refer to a valid field")

// FieldPath checks that jsonPath, a path such as ".spec.replicas" or
// ".metadata['app.kubernetes.io/name']" as x-kubernetes-validations'
// fieldPath, selectableFields and the scale subresource write it, names a
// field that s specifies: a property, or a key of a map given by
// additionalProperties. It returns the field's path (property names as
// children, map keys as subscripts) and its schema, which is nil for a key
// of a map whose additionalProperties is true rather than a schema.
//
// With allowArrayNotation false, the ['name'] form is refused. The errors
// are the API server's: "does not refer to a valid field", "unexpected end
// of JSON path", "expected single quoted string but got %s", "invalid
// string literal: invalid escape char %s", "expected ] but got %s",
// "expected [ or . but got: %s" and "array notation is not allowed". The
// empty path is valid and gives a nil path and s itself.
//
// Where the API server crashes (a path continuing below a map value that
// has no schema), FieldPath reports "does not refer to a valid field". s may
// be nil.
func (s *Schema) FieldPath(jsonPath string, allowArrayNotation bool) (*crdschema.Path, *Schema, error) {
	n, p, err := walkFieldPath[*Schema](jsonPath, s, structuralNode{}, allowArrayNotation)
	if err != nil {
		return nil, nil, err
	}
	return p, n, nil
}

// fieldPathNodes tells walkFieldPath how to step through a schema.
type fieldPathNodes[N comparable] interface {
	// hasProperties and hasAdditional tell which kind of object n is.
	hasProperties(n N) bool
	hasAdditional(n N) bool
	property(n N, name string) (N, bool)
	additional(n N) N
}

type structuralNode struct{}

func (structuralNode) hasProperties(s *Schema) bool { return s.Properties != nil }
func (structuralNode) hasAdditional(s *Schema) bool { return s.AdditionalProperties != nil }
func (structuralNode) property(s *Schema, name string) (*Schema, bool) {
	p, ok := s.Properties[name]
	if ok && p == nil {
		p = &Schema{}
	}
	return p, ok
}
func (structuralNode) additional(s *Schema) *Schema { return s.AdditionalProperties.Schema }

// propsNode steps through a JSONSchemaProps as if it had been converted by
// New, without converting it.
type propsNode struct{}

func (propsNode) hasProperties(p *crdschema.JSONSchemaProps) bool { return len(p.Properties) > 0 }
func (propsNode) hasAdditional(p *crdschema.JSONSchemaProps) bool {
	return p.AdditionalProperties != nil
}
func (propsNode) property(p *crdschema.JSONSchemaProps, name string) (*crdschema.JSONSchemaProps, bool) {
	c, ok := p.Properties[name]
	if !ok {
		return nil, false
	}
	return &c, true
}
func (propsNode) additional(p *crdschema.JSONSchemaProps) *crdschema.JSONSchemaProps {
	return p.AdditionalProperties.Schema
}

func walkFieldPath[N comparable, W fieldPathNodes[N]](jsonPath string, n N, w W, allowArrayNotation bool) (N, *crdschema.Path, error) {
	var zero N
	var path *crdschema.Path
	step := func(name string) error {
		if n == zero {
			return errNotAField
		}
		switch {
		case w.hasProperties(n):
			path = path.Child(name)
			c, ok := w.property(n, name)
			if !ok {
				return errNotAField
			}
			n = c
		case w.hasAdditional(n):
			path = path.Key(name)
			n = w.additional(n)
		default:
			return errNotAField
		}
		return nil
	}
	t := fieldPathTokens{s: jsonPath}
	for {
		tok, ok := t.next()
		if !ok {
			return n, path, nil
		}
		switch tok {
		case "[":
			if !allowArrayNotation {
				return zero, nil, errors.New("array notation is not allowed")
			}
			if tok, ok = t.next(); !ok {
				return zero, nil, errors.New("unexpected end of JSON path")
			}
			if len(tok) < 2 || tok[0] != '\'' || tok[len(tok)-1] != '\'' {
				return zero, nil, fmt.Errorf("expected single quoted string but got %s", tok)
			}
			name, err := unescapeSingleQuoted(tok[1 : len(tok)-1])
			if err != nil {
				return zero, nil, fmt.Errorf("invalid string literal: %w", err)
			}
			if err := step(name); err != nil {
				return zero, nil, err
			}
			if tok, ok = t.next(); !ok {
				return zero, nil, errors.New("unexpected end of JSON path")
			}
			if tok != "]" {
				return zero, nil, fmt.Errorf("expected ] but got %s", tok)
			}
		case ".":
			if tok, ok = t.next(); !ok {
				return zero, nil, errors.New("unexpected end of JSON path")
			}
			if err := step(tok); err != nil {
				return zero, nil, err
			}
		default:
			return zero, nil, fmt.Errorf("expected [ or . but got: %s", tok)
		}
	}
}

// fieldPathTokens splits a field path the way the API server's scanner
// does: the delimiters '.', '[' and ']' are tokens of their own, a token
// that starts with a single quote runs to the next quote not preceded by a
// backslash, and any other text runs to the next delimiter.
type fieldPathTokens struct {
	s    string
	pos  int
	done bool
}

func (t *fieldPathTokens) next() (string, bool) {
	if t.done || t.pos >= len(t.s) {
		return "", false
	}
	rest := t.s[t.pos:]
	end, need := -1, 0
	if rest[0] == '\'' {
		for i := 1; i < len(rest); i++ {
			if rest[i] == '\'' && rest[i-1] != '\\' {
				end, need = i+1, i+1
				break
			}
		}
	} else if i := strings.IndexAny(rest, ".[]"); i == 0 {
		end, need = 1, 1
	} else if i > 0 {
		end, need = i, i+1
	}
	if end < 0 {
		// The rest of the input is the last token; the scanner must see
		// the end of the input to know it, which takes one byte more.
		end, need = len(rest), len(rest)+1
	}
	if need > maxFieldPathToken {
		t.done = true
		return "", false
	}
	t.pos += end
	return rest[:end], true
}

// unescapeSingleQuoted resolves the escapes of a single-quoted name:
// \a \b \f \n \r \t \v \' and \\. Like the API server, it leaves a
// backslash before a line feed alone and reports the last invalid escape.
func unescapeSingleQuoted(s string) (string, error) {
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	var err error
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) || s[i+1] == '\n' {
			b.WriteByte(c)
			continue
		}
		i++
		if j := strings.IndexByte(escapeChars, s[i]); j >= 0 {
			b.WriteByte(escapedChars[j])
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		err = fmt.Errorf("invalid escape char %s", s[i-1:i+size])
		i += size - 1
	}
	return b.String(), err
}

// escapeChars are the characters that may follow a backslash in a
// single-quoted name; escapedChars what each stands for.
const (
	escapeChars  = "abfnrtv'\\"
	escapedChars = "\a\b\f\n\r\t\v'\\"
)
