package jsonscan

import (
	"bytes"
	"strings"
	"testing"
)

// readAll rebuilds the generic form of the document of r with the
// Reader's piecewise methods, asking for the kind Kind announces.
func readAll(r *Reader) any {
	switch c := r.Kind(); {
	case c == '{':
		m := map[string]any{}
		if r.BeginObject() {
			for k, ok := r.NextKey(); ok; k, ok = r.NextKey() {
				m[k] = readAll(r)
			}
		}
		return m
	case c == '[':
		l := []any{}
		if r.BeginArray() {
			for r.NextElement() {
				l = append(l, readAll(r))
			}
		}
		return l
	case c == '"':
		return r.Text()
	case c == 't' || c == 'f':
		return r.Bool()
	case c == 'n':
		r.Null()
		return nil
	default:
		i, f, isInt := r.Number()
		if isInt {
			return i
		}
		return f
	}
}

// checkReader compares reading data piece by piece with Scan: the same
// value, or a failure where Scan fails. Value must agree too.
func checkReader(t *testing.T, data []byte) {
	t.Helper()
	want, dup, ok := Scan(data)
	r := NewReader(data)
	got := readAll(r)
	end, gotDup := r.End(), r.Dup()
	r.Release()
	if end != ok {
		t.Fatalf("reading %q piecewise: ok %t, Scan: %t", data, end, ok)
	}
	if ok {
		if d := jsonDiff(got, want); d != "" {
			t.Errorf("reading %q piecewise: %s", data, d)
		}
		if gotDup {
			t.Errorf("reading %q piecewise: Dup is set, but no object was read with Value", data)
		}
	}
	r = NewReader(data)
	got = r.Value()
	end, gotDup = r.End(), r.Dup()
	r.Release()
	if end != ok {
		t.Fatalf("Value(%q): ok %t, Scan: %t", data, end, ok)
	}
	if ok {
		if d := jsonDiff(got, want); d != "" {
			t.Errorf("Value(%q): %s", data, d)
		}
		if gotDup != dup {
			t.Errorf("Value(%q): Dup %t, Scan %t", data, gotDup, dup)
		}
	}
}

func TestReaderLikeScan(t *testing.T) {
	for _, tc := range jsonDecodeCases {
		checkReader(t, []byte(tc.in))
	}
	for _, in := range []string{
		`{"a":1 "b":2}`, `{"a":1,}`, `{,"a":1}`, `[1 2]`, `[1,]`, `[,1]`, `{"a"}`, `{"a":}`, `{1:2}`,
		`{"a":[{}],"b":{"c":[]}}`, `[{},[],{"x":{}}]`, ` [ { } , [ ] ] `, `{"a":{"b":{}}} x`,
		strings.Repeat("[", MaxNesting) + strings.Repeat("]", MaxNesting),
		strings.Repeat("[", MaxNesting+1) + strings.Repeat("]", MaxNesting+1),
		strings.Repeat(`{"a":`, MaxNesting+1) + "1" + strings.Repeat("}", MaxNesting+1),
	} {
		checkReader(t, []byte(in))
	}
}

// A Reader asked for another kind than the next value's fails, and stays
// failed: every method then does nothing.
func TestReaderFailsOnOtherKinds(t *testing.T) {
	for in, read := range map[string]func(r *Reader){
		`1`:     func(r *Reader) { _ = r.Text() },
		`"1"`:   func(r *Reader) { r.Number() },
		`null`:  func(r *Reader) { r.Bool() },
		`true`:  func(r *Reader) { r.Null() },
		`[]`:    func(r *Reader) { r.BeginObject() },
		`{}`:    func(r *Reader) { r.BeginArray() },
		`1e400`: func(r *Reader) { r.Number() },
		`tru`:   func(r *Reader) { r.Bool() },
	} {
		r := NewReader([]byte(in))
		read(r)
		if !r.Failed() || r.End() || r.Kind() != 0 {
			t.Errorf("%s: Failed %t, End %t, Kind %q after reading another kind", in, r.Failed(), r.End(), r.Kind())
		}
		if v := r.Value(); v != nil {
			t.Errorf("%s: Value after a failure = %#v", in, v)
		}
		if k, ok := r.NextKey(); ok || k != "" {
			t.Errorf("%s: NextKey after a failure = %q, %t", in, k, ok)
		}
		r.Release()
	}
	r := NewReader([]byte(`{"a":1}`))
	r.Fail()
	if r.BeginObject() || r.End() {
		t.Error("Fail does not stop the Reader")
	}
	r.Release()
}

// Offset is where values start and end, for a caller that cuts them out.
func TestReaderOffset(t *testing.T) {
	in := []byte(`{"a": {"b":[1]} , "c":2}`)
	r := NewReader(in)
	defer r.Release()
	r.BeginObject()
	r.NextKey()
	start := r.Offset()
	r.Value()
	if got := string(bytes.TrimSpace(in[start:r.Offset()])); got != `{"b":[1]}` {
		t.Errorf("the value between the offsets is %q", got)
	}
}

// FuzzReader reads random bytes piece by piece and compares with Scan.
func FuzzReader(f *testing.F) {
	for _, tc := range jsonDecodeCases {
		f.Add([]byte(tc.in))
	}
	f.Add([]byte(smallObject))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkReader(t, data)
	})
}
