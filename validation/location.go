package validation

import "strconv"

// pathElem is one step of the location of the value being validated.
// The location's text follows the API server's validator, which differs
// from field paths: a property of the root is "name", a property below is
// "parent.name", an additionalProperties key or a required field is always
// "parent.key" (so ".key" at the root), and an item is "parent[i]".
type pathElem struct {
	name  string
	index int
	kind  uint8
}

const (
	pathProperty uint8 = iota // parent.name, or name at the root
	pathKey                   // parent.name, even at the root
	pathIndex                 // parent[index]
)

// The location is kept as a stack in the validation state, so that it
// costs nothing until an error needs its text.

func (st *state) push(e pathElem) { st.stack = append(st.stack, e) }

func (st *state) pop() { st.stack = st.stack[:len(st.stack)-1] }

// path renders the current location; the root is "".
func (st *state) path() string {
	return string(st.appendPath(nil))
}

// keyPath renders the location of key below the current one, as the
// validator names a missing required field.
func (st *state) keyPath(key string) string {
	return string(append(append(st.appendPath(nil), '.'), key...))
}

func (st *state) appendPath(b []byte) []byte {
	for _, e := range st.stack {
		switch e.kind {
		case pathProperty:
			if len(b) > 0 {
				b = append(b, '.')
			}
			b = append(b, e.name...)
		case pathKey:
			b = append(b, '.')
			b = append(b, e.name...)
		case pathIndex:
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(e.index), 10)
			b = append(b, ']')
		}
	}
	return b
}
