package jsonscan

// A Reader reads one JSON document value by value, for a caller that
// knows the shape it expects and decodes straight into its own types:
// objects member by member, arrays element by element, scalars as Go
// values, and any value it does not take apart in the generic form of
// Scan.
//
// A Reader does not explain failures. The first thing that does not fit
// (a syntax error, a value of another kind than the one asked for, too
// deep a nesting, a number out of the float64 range) marks it failed;
// from then on every method does nothing and returns zero values, and
// Failed reports true. A caller that gets a failure decodes the document
// again in a way that says why.
//
//	r := NewReader(data)
//	defer r.Release()
//	if r.BeginObject() {
//		for k, ok := r.NextKey(); ok; k, ok = r.NextKey() {
//			... read the value of k with one of the methods ...
//		}
//	}
//	ok := r.End() // the whole document was read, and nothing failed
type Reader struct {
	d      *jsonDecoder
	failed bool
	// first is set right after an opening bracket, before the first
	// member or element: NextKey and NextElement then expect no comma.
	first bool
}

// NewReader returns a Reader of data. Like Scan it copies data once, and
// the strings it returns share that copy; data itself is not retained.
// The caller must call Release when done.
func NewReader(data []byte) *Reader {
	d := jsonDecoders.Get().(*jsonDecoder)
	d.s = string(data)
	d.skipSpace()
	return &Reader{d: d}
}

// Release returns the Reader's scratch space for reuse. Values read
// before stay valid; the Reader must not be used after.
func (r *Reader) Release() {
	if r.d != nil {
		r.d.release()
		r.d = nil
	}
	r.failed = true
}

// Fail marks r failed, for a caller that found a value it cannot take.
func (r *Reader) Fail() { r.failed = true }

// Failed reports whether something did not fit.
func (r *Reader) Failed() bool { return r.failed }

// Dup reports whether an object read with Value held a key more than
// once. Objects read with BeginObject are the caller's to check.
func (r *Reader) Dup() bool { return r.d.dup }

// End reports whether the document has been read to its end and nothing
// failed.
func (r *Reader) End() bool {
	return !r.failed && r.d.pos == len(r.d.s)
}

// Offset returns the index in the document of the next value, or of
// the end of the document; after a value, of what follows its trailing
// white space.
func (r *Reader) Offset() int { return r.d.pos }

// Kind returns the first byte of the next value: '{', '[', '"', 't',
// 'f', 'n', '-' or a digit; or 0 after a failure or at the end. It does
// not check the value.
func (r *Reader) Kind() byte {
	if r.failed || r.d.pos >= len(r.d.s) {
		return 0
	}
	return r.d.s[r.d.pos]
}

// after skips the white space that follows a value.
func (r *Reader) after(ok bool) bool {
	if !ok {
		r.failed = true
		return false
	}
	r.d.skipSpace()
	return true
}

// Value reads the next value in the generic form of Scan.
func (r *Reader) Value() any {
	if r.failed {
		return nil
	}
	v, ok := r.d.value()
	if !r.after(ok) {
		return nil
	}
	return v
}

// Text reads the next value, which must be a string. (It is not
// String, which fmt would take for a description of the Reader.)
func (r *Reader) Text() string {
	if r.Kind() != '"' {
		r.failed = true
		return ""
	}
	s, ok := r.d.str()
	if !r.after(ok) {
		return ""
	}
	return s
}

// Bool reads the next value, which must be true or false.
func (r *Reader) Bool() bool {
	switch r.Kind() {
	case 't':
		r.after(r.d.word("true"))
		return !r.failed
	case 'f':
		r.after(r.d.word("false"))
		return false
	}
	r.failed = true
	return false
}

// Null reads the next value, which must be null.
func (r *Reader) Null() {
	if r.Kind() != 'n' {
		r.failed = true
		return
	}
	r.after(r.d.word("null"))
}

// Number reads the next value, which must be a number. When Scan would
// decode it as an int64, that is i and isInt is true; otherwise f is the
// float64 that Scan would give.
func (r *Reader) Number() (i int64, f float64, isInt bool) {
	if c := r.Kind(); c != '-' && (c < '0' || c > '9') {
		r.failed = true
		return 0, 0, false
	}
	i, f, isInt, ok := r.d.numberParts()
	if !r.after(ok) {
		return 0, 0, false
	}
	return i, f, isInt
}

// BeginObject reads the opening brace of the next value, which must be an
// object. Its members are then read with NextKey.
func (r *Reader) BeginObject() bool { return r.begin('{') }

// BeginArray reads the opening bracket of the next value, which must be
// an array. Its elements are then read with NextElement.
func (r *Reader) BeginArray() bool { return r.begin('[') }

func (r *Reader) begin(open byte) bool {
	if r.Kind() != open {
		r.failed = true
		return false
	}
	if r.d.depth++; r.d.depth > MaxNesting {
		r.failed = true
		return false
	}
	r.d.pos++
	r.d.skipSpace()
	r.first = true
	return true
}

// next consumes what comes before the next member or element: nothing
// before the first, a comma after the others. It reports false when the
// closing bracket comes instead, which it consumes, or on a failure.
func (r *Reader) next(end byte) bool {
	if r.failed {
		return false
	}
	d := r.d
	if d.pos >= len(d.s) {
		r.failed = true
		return false
	}
	first := r.first
	r.first = false
	switch c := d.s[d.pos]; {
	case c == end:
		d.pos++
		d.depth--
		d.skipSpace()
		return false
	case first:
		return true
	case c == ',':
		d.pos++
		d.skipSpace()
		return true
	}
	r.failed = true
	return false
}

// NextKey reads the key of the next member of the object being read and
// the colon after it; the caller then reads the value. ok is false when
// the object has no more members (its closing brace is read) or on a
// failure.
func (r *Reader) NextKey() (key string, ok bool) {
	if !r.next('}') {
		return "", false
	}
	d := r.d
	if d.pos >= len(d.s) || d.s[d.pos] != '"' {
		r.failed = true
		return "", false
	}
	k, ok := d.str()
	if !ok {
		r.failed = true
		return "", false
	}
	d.skipSpace()
	if d.pos >= len(d.s) || d.s[d.pos] != ':' {
		r.failed = true
		return "", false
	}
	d.pos++
	d.skipSpace()
	return k, true
}

// NextElement reports whether the array being read has another element,
// which the caller then reads; at its end it reads the closing bracket.
func (r *Reader) NextElement() bool { return r.next(']') }
