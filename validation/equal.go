package validation

import (
	"fmt"

	"github.com/crdschema/crdschema/internal/jsonvalue"
)

// enumMatches reports whether v is one of the enum values. Like the API
// server, it first converts v to the type of each enum value where Go
// allows the conversion: a float matches an integer value after
// truncation, and an integer matches a one-character string holding the
// character with that code.
func (n *node) enumMatches(v any) bool {
	for _, e := range n.enum {
		switch ev := e.(type) {
		case nil:
			continue
		case string:
			switch x := v.(type) {
			case string:
				if x == ev {
					return true
				}
			case int64:
				s := "\uFFFD"
				if int64(rune(x)) == x {
					s = string(rune(x))
				}
				if s == ev {
					return true
				}
			}
		case int64:
			switch x := v.(type) {
			case int64:
				if x == ev {
					return true
				}
			case float64:
				if int64(x) == ev {
					return true
				}
			}
		case float64:
			switch x := v.(type) {
			case int64:
				if float64(x) == ev {
					return true
				}
			case float64:
				if x == ev {
					return true
				}
			}
		default:
			if jsonvalue.Equal(v, e) {
				return true
			}
		}
	}
	return false
}

func (n *node) enumFailure(st *state, v any) failure {
	path := st.path()
	return failure{code: codeEnum, path: path, value: v, enum: n,
		msg: path + " in body should be one of " + fmt.Sprintf("%v", n.enum)}
}
