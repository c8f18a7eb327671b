package jsonscan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/crdschema/crdschema/internal/yamljson"
	kjson "sigs.k8s.io/json"
)

// The reference for Decode is sigs.k8s.io/json decoding into an any,
// what crdschema.DecodeJSON did before it had a decoder of its own.
func decodeJSONReference(data []byte) (any, error) {
	var v any
	if err := kjson.UnmarshalCaseSensitivePreserveInts(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// jsonDiff describes the first difference between two generic JSON
// values, or returns "". Unlike reflect.DeepEqual it tells int64 from
// float64 in the message and -0 from 0, and names where they differ.
// It is written out rather than go-cmp's cmp.Diff because the tests
// compare values nested thousands deep (TestDecodeJSONNesting), where
// cmp's diffing of slices takes time exponential in the depth (0.4s at
// 18 nested arrays, measured).
func jsonDiff(got, want any) string {
	return jsonDiffAt("$", got, want)
}

func jsonDiffAt(at string, got, want any) string {
	if fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) {
		return fmt.Sprintf("%s: got %T %#v, want %T %#v", at, got, got, want, want)
	}
	switch w := want.(type) {
	case map[string]any:
		g := got.(map[string]any)
		if (g == nil) != (w == nil) || len(g) != len(w) {
			return fmt.Sprintf("%s: got %d keys (nil %t), want %d (nil %t)", at, len(g), g == nil, len(w), w == nil)
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s: key %q missing", at, k)
			}
			if d := jsonDiffAt(at+"["+fmt.Sprintf("%q", k)+"]", gv, wv); d != "" {
				return d
			}
		}
	case []any:
		g := got.([]any)
		if (g == nil) != (w == nil) || len(g) != len(w) {
			return fmt.Sprintf("%s: got %d elements (nil %t), want %d (nil %t)", at, len(g), g == nil, len(w), w == nil)
		}
		for i := range w {
			if d := jsonDiffAt(fmt.Sprintf("%s[%d]", at, i), g[i], w[i]); d != "" {
				return d
			}
		}
	case float64:
		if math.Float64bits(got.(float64)) != math.Float64bits(w) {
			return fmt.Sprintf("%s: got %v (bits %x), want %v (bits %x)", at, got, math.Float64bits(got.(float64)), w, math.Float64bits(w))
		}
	case nil, bool, string, int64:
		if got != want {
			return fmt.Sprintf("%s: got %#v, want %#v", at, got, want)
		}
	default:
		return fmt.Sprintf("%s: unexpected type %T", at, want)
	}
	return ""
}

// checkSameAsReference decodes data with Decode and the reference and
// reports any difference in value or error text. It also checks that data
// is left as it was.
func checkSameAsReference(t *testing.T, data []byte) {
	t.Helper()
	before := bytes.Clone(data)
	got, err := Decode(data)
	if !bytes.Equal(data, before) {
		t.Fatalf("Decode(%q) modified its input", before)
	}
	want, werr := decodeJSONReference(data)
	switch {
	case err != nil && werr != nil:
		if err.Error() != werr.Error() {
			t.Errorf("Decode(%q): error %q, want %q", data, err, werr)
		}
	case err != nil:
		t.Errorf("Decode(%q): error %q, want %#v", data, err, want)
	case werr != nil:
		t.Errorf("Decode(%q) = %#v, want error %q", data, got, werr)
	default:
		if d := jsonDiff(got, want); d != "" {
			t.Errorf("Decode(%q): %s", data, d)
		}
	}
}

var jsonDecodeCases = []struct {
	in string
	// fast: the decoder of this package decodes it itself (rather than
	// leaving it to sigs.k8s.io/json, for an error).
	fast bool
	// want, when set, is the expected value (the reference must agree).
	want any
}{
	// Literals and white space.
	{in: `null`, fast: true, want: nil},
	{in: `true`, fast: true, want: true},
	{in: `false`, fast: true, want: false},
	{in: " \t\r\n null \t\r\n", fast: true, want: nil},
	{in: `""`, fast: true, want: ""},
	{in: "\fnull"},        // form feed is not JSON white space
	{in: "null\v"},        // nor vertical tab
	{in: "\u00a0null"},    // nor no-break space
	{in: "\ufeff{}"},      // a byte order mark is not skipped
	{in: ``},              // empty input
	{in: `   `},           // only white space
	{in: `nul`},           // truncated literal
	{in: `nullx`},         // literal followed by junk
	{in: `True`},          // literals are case-sensitive
	{in: `tru e`},         // split literal
	{in: `null null`},     // two values
	{in: `{} {}`},         // two objects
	{in: `[]]`},           // an extra bracket
	{in: `{"a":1}}`},      // an extra brace
	{in: "\x00"},          // NUL
	{in: `/* c */ {}`},    // comments are not JSON
	{in: `{"a":1,}`},      // trailing comma in an object
	{in: `[1,]`},          // trailing comma in an array
	{in: `[,1]`},          // leading comma
	{in: `[1 2]`},         // missing comma
	{in: `{"a" 1}`},       // missing colon
	{in: `{"a":}`},        // missing value
	{in: `{a:1}`},         // unquoted key
	{in: `{'a':1}`},       // single quotes
	{in: `{1:1}`},         // number key
	{in: `{"a":1 "b":2}`}, // missing comma between members
	{in: `{"a"::1}`},      // double colon
	{in: `[`},             // truncated array
	{in: `{`},             // truncated object
	{in: `{"a"`},          // truncated after key
	{in: `{"a":`},         // truncated after colon
	{in: `{"a":1`},        // truncated after value
	{in: `{"a":1,`},       // truncated after comma
	{in: `[1,`},           // truncated array after comma
	{in: `[}`},            // mismatched close
	{in: `{]`},            // mismatched close
	{in: `{"a":[}`},       // mismatched close inside

	// Containers.
	{in: `{}`, fast: true, want: map[string]any{}},
	{in: `[]`, fast: true, want: []any{}},
	{in: ` [ ] `, fast: true, want: []any{}},
	{in: ` { } `, fast: true, want: map[string]any{}},
	{in: `[[],{},[[]]]`, fast: true, want: []any{[]any{}, map[string]any{}, []any{[]any{}}}},
	{in: "{ \"a\" :\n1 ,\t\"b\"\r:[ 2 , 3 ] }", fast: true, want: map[string]any{"a": int64(1), "b": []any{int64(2), int64(3)}}},
	{in: `{"a":1,"a":2}`, fast: true, want: map[string]any{"a": int64(2)}},
	{in: `{"a":{"x":1},"a":{"y":2}}`, fast: true, want: map[string]any{"a": map[string]any{"y": int64(2)}}},
	{in: `{"a":1,"b":2,"a":3,"c":[1,{"a":1,"a":[]}]}`, fast: true},
	{in: `{"A":1,"a":2}`, fast: true, want: map[string]any{"A": int64(1), "a": int64(2)}},
	{in: `{"":""}`, fast: true, want: map[string]any{"": ""}},
	{in: `{"a\u0000b":1}`, fast: true, want: map[string]any{"a\x00b": int64(1)}},
	{in: `{"\u00e9":1,"é":2}`, fast: true, want: map[string]any{"é": int64(2)}},
	{in: `[null,true,false,"x",1,1.5,{},[]]`, fast: true},
	{in: `{"a":[1,[2,[3,[4]]]],"b":{"c":{"d":{}}}}`, fast: true},

	// Numbers.
	{in: `0`, fast: true, want: int64(0)},
	{in: `-0`, fast: true, want: int64(0)},
	{in: `-0.0`, fast: true, want: math.Copysign(0, -1)},
	{in: `-0e0`, fast: true, want: math.Copysign(0, -1)},
	{in: `0.0`, fast: true, want: float64(0)},
	{in: `1`, fast: true, want: int64(1)},
	{in: `-1`, fast: true, want: int64(-1)},
	{in: `1.0`, fast: true, want: float64(1)},
	{in: `1e3`, fast: true, want: float64(1000)},
	{in: `1E3`, fast: true, want: float64(1000)},
	{in: `1e+3`, fast: true, want: float64(1000)},
	{in: `1e-3`, fast: true, want: 0.001},
	{in: `1E-0`, fast: true, want: float64(1)},
	{in: `0e5`, fast: true, want: float64(0)},
	{in: `255`, fast: true, want: int64(255)},
	{in: `256`, fast: true, want: int64(256)},
	{in: `9223372036854775807`, fast: true, want: int64(math.MaxInt64)},
	{in: `9223372036854775808`, fast: true, want: float64(1 << 63)},
	{in: `-9223372036854775808`, fast: true, want: int64(math.MinInt64)},
	{in: `-9223372036854775809`, fast: true, want: -float64(1 << 63)},
	{in: `9999999999999999999`, fast: true, want: float64(9999999999999999999)},
	{in: `18446744073709551615`, fast: true, want: float64(18446744073709551615)},
	{in: `18446744073709551616`, fast: true, want: float64(18446744073709551616)},
	{in: `123456789012345678901234567890`, fast: true, want: 123456789012345678901234567890.0},
	{in: `1000000000000000000`, fast: true, want: int64(1000000000000000000)},
	{in: `0.1`, fast: true, want: 0.1},
	{in: `3.141592653589793238462643383279`, fast: true, want: math.Pi},
	{in: `1.7976931348623157e308`, fast: true, want: math.MaxFloat64},
	{in: `4.9406564584124654e-324`, fast: true, want: math.SmallestNonzeroFloat64},
	{in: `1e-400`, fast: true, want: float64(0)},
	{in: `-1e-400`, fast: true, want: math.Copysign(0, -1)},
	{in: `2.5e-324`, fast: true},
	{in: `1e400`},                        // beyond float64: an error upstream
	{in: `-1e400`},                       // likewise
	{in: `1.8e308`},                      // just beyond
	{in: `[1,1e999,"x"]`},                // error inside an array
	{in: `{"a":1e999,"b":"\x"}`},         // the syntax error wins over the range one
	{in: `{"a":1e999,"b":2}`},            // range error inside an object
	{in: "1" + strings.Repeat("0", 400)}, // an integer beyond float64
	{in: "0." + strings.Repeat("0", 400) + "1", fast: true},
	{in: `01`},
	{in: `-01`},
	{in: `00`},
	{in: `+1`},
	{in: `-`},
	{in: `--1`},
	{in: `1.`},
	{in: `.1`},
	{in: `1.e3`},
	{in: `1e`},
	{in: `1e+`},
	{in: `1e-`},
	{in: `1ee3`},
	{in: `0x10`},
	{in: `1_000`},
	{in: `Infinity`},
	{in: `NaN`},
	{in: `-Infinity`},
	{in: `[-]`},
	{in: `{"a":-}`},
	{in: `[1.5e]`},

	// Strings.
	{in: `"abc"`, fast: true, want: "abc"},
	{in: `"\"\\\/\b\f\n\r\t"`, fast: true, want: "\"\\/\b\f\n\r\t"},
	{in: `"\u0041\u00e9\u4e2d"`, fast: true, want: "Aé中"},
	{in: `"\u00E9\u00e9"`, fast: true, want: "éé"},
	{in: `"\ud83d\ude00"`, fast: true, want: "😀"},
	{in: `"\uD83D\uDE00"`, fast: true, want: "😀"},
	{in: `"\ud83d"`, fast: true, want: "\ufffd"},
	{in: `"\ud83dx"`, fast: true, want: "\ufffdx"},
	{in: `"\ude00"`, fast: true, want: "\ufffd"},
	{in: `"\ude00\ud83d"`, fast: true, want: "\ufffd\ufffd"},
	{in: `"\ud83d\ud83d\ude00"`, fast: true, want: "\ufffd😀"},
	{in: `"\ud83d\u0041"`, fast: true, want: "\ufffdA"},
	{in: `"\ud83d\n"`, fast: true, want: "\ufffd\n"},
	{in: `"\ud83d\\ude00"`, fast: true, want: "\ufffd\\ude00"},
	{in: `"\udbff\udfff"`, fast: true, want: "\U0010ffff"},
	{in: `"\ud800\udc00"`, fast: true, want: "\U00010000"},
	{in: `"\ufffd"`, fast: true, want: "\ufffd"},
	{in: `"\u0000"`, fast: true, want: "\x00"},
	{in: `"\u001f"`, fast: true, want: "\x1f"},
	{in: "\"\x7f\"", fast: true, want: "\x7f"},
	{in: `"é中😀"`, fast: true, want: "é中😀"},
	{in: "\"\xef\xbf\xbd\"", fast: true, want: "\ufffd"},
	{in: "\"\xff\"", fast: true, want: "\ufffd"},
	{in: "\"a\xffb\"", fast: true, want: "a\ufffdb"},
	{in: "\"\xc3\"", fast: true, want: "\ufffd"},
	{in: "\"\xc3\xa9\xc3\"", fast: true, want: "é\ufffd"},
	{in: "\"\xe4\xb8\"", fast: true, want: "\ufffd\ufffd"},
	{in: "\"\xed\xa0\x80\"", fast: true, want: "\ufffd\ufffd\ufffd"}, // an encoded surrogate
	{in: "\"\xf4\x90\x80\x80\"", fast: true},                         // beyond U+10FFFF
	{in: "\"\xc0\xaf\"", fast: true},                                 // overlong
	{in: "\"\x80\\n\xbf\"", fast: true, want: "\ufffd\n\ufffd"},
	{in: "{\"\xff\":\"\xfe\"}", fast: true, want: map[string]any{"\ufffd": "\ufffd"}},
	{in: "{\"\xff\":1,\"\xfe\":2}", fast: true, want: map[string]any{"\ufffd": int64(2)}},
	{in: "\"" + strings.Repeat("\xff", 100) + "\"", fast: true},
	{in: "\"" + strings.Repeat("\\u00e9", 100) + "\"", fast: true},
	{in: "\"\x1f\""},   // control characters must be escaped
	{in: "\"\t\""},     // tab too
	{in: "\"\n\""},     // newline too
	{in: "\"\x00\""},   // NUL too
	{in: "\"\\\x00\""}, // and cannot be escaped with a backslash
	{in: `"\'"`},       // not a JSON escape
	{in: `"\a"`},
	{in: `"\x41"`},
	{in: `"\U0041"`},
	{in: `"\u004"`},
	{in: `"\u004g"`},
	{in: `"\u"`},
	{in: `"\ud83d\u"`},
	{in: `"\ud83d\ude0"`},
	{in: `"abc`},
	{in: `"abc\"`},
	{in: `"\`},
	{in: `"`},
	{in: `"\ud83d`},
	{in: "\"\xff"},
	{in: `"a"x`},
	{in: `"a""b"`},
	{in: `["a" "b"]`},
	{in: `{"a":"b" "c":1}`},
}

func TestDecodeLikeReference(t *testing.T) {
	for _, tc := range jsonDecodeCases {
		data := []byte(tc.in)
		checkSameAsReference(t, data)
		v, _, ok := Scan(data)
		if ok != tc.fast {
			t.Errorf("Scan(%q): ok %t, want %t", tc.in, ok, tc.fast)
		}
		if !tc.fast || tc.want == nil && strings.TrimSpace(tc.in) != "null" {
			continue
		}
		if d := jsonDiff(v, tc.want); d != "" {
			t.Errorf("Scan(%q): %s", tc.in, d)
		}
		if ref, err := decodeJSONReference(data); err != nil {
			t.Errorf("reference on %q: %v", tc.in, err)
		} else if d := jsonDiff(ref, tc.want); d != "" {
			t.Errorf("reference on %q: %s (the table is wrong)", tc.in, d)
		}
	}
}

// A few errors, spelled out: they are those of sigs.k8s.io/json.
func TestDecodeErrorTexts(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{``, "unexpected end of JSON input"},
		{`{"a":1,}`, "invalid character '}' looking for beginning of object key string"},
		{`[1 2]`, "invalid character '2' after array element"},
		{`01`, "invalid character '1' after top-level value"},
		{"\"\t\"", "invalid character '\\t' in string literal"},
		{`"\'"`, "invalid character '\\'' in string escape code"},
		{`1e400`, "json: cannot unmarshal number 1e400 into Go value of type float64"},
	} {
		_, err := Decode([]byte(tc.in))
		if err == nil || err.Error() != tc.want {
			t.Errorf("Decode(%q): error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// Nesting up to encoding/json's limit of 10,000 decodes; one more level is
// that package's error.
func TestDecodeNesting(t *testing.T) {
	for _, depth := range []int{1, 100, MaxNesting - 1, MaxNesting, MaxNesting + 1, 3 * MaxNesting} {
		arrays := strings.Repeat("[", depth) + strings.Repeat("]", depth)
		objects := strings.Repeat(`{"a":`, depth-1) + "{}" + strings.Repeat("}", depth-1)
		mixed := strings.Repeat(`[{"a":`, depth/2) + strings.Repeat("[", depth%2) + "1" +
			strings.Repeat("]", depth%2) + strings.Repeat("}]", depth/2)
		unclosed := strings.Repeat("[", depth)
		for _, in := range []string{arrays, objects, mixed, unclosed} {
			checkSameAsReference(t, []byte(in))
			_, _, ok := Scan([]byte(in))
			if want := depth <= MaxNesting && in != unclosed; ok != want {
				t.Errorf("depth %d, %.10q...: decoded %t, want %t", depth, in, ok, want)
			}
		}
	}
	if _, err := Decode([]byte(strings.Repeat("[", MaxNesting+1) + strings.Repeat("]", MaxNesting+1))); err == nil || err.Error() != "invalid character '[' exceeded max depth" {
		t.Errorf("too deep: error %v, want %q", err, "invalid character '[' exceeded max depth")
	}
}

// plainEnd finds the first special byte wherever it is in or after a run
// of eight-byte words, whatever follows it.
func TestPlainEnd(t *testing.T) {
	for _, special := range []string{"\"", "\\", "\x00", "\x1f", "\x7f\x80", "\xc3\xa9", "\xff", "\x80"} {
		for n := 0; n < 20; n++ {
			for _, tail := range []string{"", "\"", "\x00\x00\x00\x00\x00\x00\x00\x00\x00", "abcdefghij"} {
				prefix := strings.Repeat("a~ !", 5)[:n]
				s := prefix + special + tail
				want := n
				if special == "\x7f\x80" {
					want = n + 1 // DEL is plain
				}
				if got := plainEnd(s, 0); got != want {
					t.Errorf("plainEnd(%q, 0) = %d, want %d", s, got, want)
				}
				if got := plainEnd("xyz"+s, 3); got != want+3 {
					t.Errorf("plainEnd(%q, 3) = %d, want %d", "xyz"+s, got, want+3)
				}
			}
		}
	}
	for n := 0; n < 20; n++ {
		s := strings.Repeat("x", n)
		if got := plainEnd(s, 0); got != n {
			t.Errorf("plainEnd(%q, 0) = %d, want %d", s, got, n)
		}
	}
}

// The result must not depend on the input slice after the call: the
// caller may reuse it.
func TestDecodeDoesNotRetainInput(t *testing.T) {
	in := `{"key":"value","esc":"a\nb","list":["x","y"],"n":12,"bad":"` + "\xff" + `"}`
	data := []byte(in)
	v, err := Decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != in {
		t.Fatal("the input was modified")
	}
	for i := range data {
		data[i] = 'X'
	}
	want := map[string]any{"key": "value", "esc": "a\nb", "list": []any{"x", "y"}, "n": int64(12), "bad": "\ufffd"}
	if d := jsonDiff(v, want); d != "" {
		t.Error("after overwriting the input:", d)
	}
}

// A decoder goes back to the pool holding nothing of the document it
// decoded, whether it got to the end or not.
func TestDecoderReleaseKeepsNothing(t *testing.T) {
	for _, in := range []string{
		`[{"a":[1,2,{"b":["x","y"]}],"c":{"d":"e"}},["f",["g"]]]`,
		`[{"a":[1,2,{"b":["x","y"]}],"c":{"d":"e"}},["f",["g"`,
		`{"a":[1,2,{"b":["x","y"]}],"c":{"d":"e",`,
		`[[[[1,2,3],[4,5,6]],{"k":1,"l":2,"m":3}],"x",1e999]`,
		`[[1],"a","b","c",{"d":1,"e":2,"f":3,"g":x`,
	} {
		d := new(jsonDecoder)
		d.s = in
		d.value()
		if d.elemsUsed == 0 && len(d.elems) == 0 {
			t.Fatalf("%s: no elements were held", in)
		}
		d.release()
		for i, e := range d.elems[:cap(d.elems)] {
			if e != nil {
				t.Errorf("%s: element %d kept: %#v", in, i, e)
			}
		}
		for i, m := range d.members[:cap(d.members)] {
			if m != (jsonMember{}) {
				t.Errorf("%s: member %d kept: %#v", in, i, m)
			}
		}
		if d.s != "" || d.pos != 0 || d.depth != 0 || d.dup || len(d.buf) != 0 {
			t.Errorf("%s: not reset: %+v", in, d)
		}
	}
}

// A result of the reference, re-encoded and decoded again, is the same:
// this covers the escapes encoding/json writes.
func TestDecodeRoundTrip(t *testing.T) {
	v := map[string]any{
		"html": "<a href=\"x\">&</a>", "ctl": "\x00\x01\x1f\u2028\u2029", "uni": "é中😀\ufffd",
		"nums": []any{int64(0), int64(-1), 1.5, 1e21, 1e-7, float64(math.MaxInt64), int64(math.MinInt64)},
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := jsonDiff(got, v); d != "" {
		t.Error(d)
	}
	checkSameAsReference(t, b)
}

// Random well-formed documents, built from pieces that are easy to get
// wrong: escapes of every kind, broken surrogates, invalid UTF-8, numbers
// at the int64 and float64 edges, white space everywhere.
func TestDecodeRandomDocuments(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(xs []string) string { return xs[rng.IntN(len(xs))] }
	strPieces := []string{"a", "key", " ", "é", "中", "😀", "\xff", "\xc3", "\xed\xa0\x80", "\x7f",
		`\"`, `\\`, `\/`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u0000`, `\u00e9`, `\uD83D`, `\ude00`,
		`\ud83d\ude00`, `\uffff`, `\u2028`}
	numbers := []string{"0", "-0", "7", "-7", "255", "256", "-256", "0.5", "-0.0", "1e2", "1E-2", "1.5e+300",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"99999999999999999999", "4.9e-324", "1e-400", "123456789.123456789"}
	space := func() string { return pick([]string{"", "", "", " ", "\n  ", "\t", "\r\n"}) }
	str := func() string {
		var b strings.Builder
		b.WriteByte('"')
		for n := rng.IntN(6); n > 0; n-- {
			b.WriteString(pick(strPieces))
		}
		b.WriteByte('"')
		return b.String()
	}
	var value func(depth int) string
	value = func(depth int) string {
		switch k := rng.IntN(10); {
		case k < 2 && depth < 5:
			var b strings.Builder
			b.WriteByte('{')
			for i, n := 0, rng.IntN(12); i < n; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(space() + str() + space() + ":" + space() + value(depth+1) + space())
			}
			return b.String() + "}"
		case k < 4 && depth < 5:
			var b strings.Builder
			b.WriteByte('[')
			for i, n := 0, rng.IntN(12); i < n; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(space() + value(depth+1) + space())
			}
			return b.String() + "]"
		case k < 6:
			return str()
		case k < 8:
			return pick(numbers)
		default:
			return pick([]string{"true", "false", "null"})
		}
	}
	for i := 0; i < 2000; i++ {
		doc := []byte(space() + value(0) + space())
		if _, _, ok := Scan(doc); !ok {
			t.Fatalf("Scan(%q) failed", doc)
		}
		checkSameAsReference(t, doc)
		if t.Failed() {
			break
		}
	}
}

// Conformance cases of real CRDs: small ones to seed the fuzz target, and
// a large one for the benchmark. The names are relative to the module
// root; tests skip a file that is missing.
var (
	fuzzCRDSeeds = []string{
		"conformance/testdata/cases/realworld/argo-workflows/argoproj.io_cronworkflows.yaml",
		"conformance/testdata/cases/realworld/knative-serving/domain-claim.yaml",
		"conformance/testdata/cases/realworld/cluster-api/clusterctl.cluster.x-k8s.io_providers.yaml",
	}
	benchCRD = "conformance/testdata/cases/realworld/gateway-api/standard-gateway.networking.k8s.io_httproutes.yaml"
)

// conformanceCRD reads the crd of the conformance case at name, as JSON.
func conformanceCRD(tb testing.TB, name string) []byte {
	tb.Helper()
	y, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(name)))
	if err != nil {
		return nil
	}
	j, err := yamljson.ToJSON(y)
	if err != nil {
		tb.Fatalf("%s: %v", name, err)
	}
	var c struct {
		CRD json.RawMessage `json:"crd"`
	}
	if err := json.Unmarshal(j, &c); err != nil || len(c.CRD) == 0 {
		tb.Fatalf("%s: no crd: %v", name, err)
	}
	return c.CRD
}

// smallObject is a custom resource of about 2 KB, as a client sends it.
const smallObject = `{"apiVersion":"apps.example.com/v1","kind":"WebApp","metadata":{"name":"shop-frontend","namespace":"shop","labels":{"app.kubernetes.io/name":"frontend","app.kubernetes.io/part-of":"shop","app.kubernetes.io/version":"2.4.1","tier":"web"},"annotations":{"example.com/owner":"team-storefront@example.com","example.com/runbook":"https://runbooks.example.com/shop/frontend","kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"apps.example.com/v1\",\"kind\":\"WebApp\",\"metadata\":{\"name\":\"shop-frontend\"}}\n"}},"spec":{"replicas":3,"image":"registry.example.com/shop/frontend:2.4.1","imagePullPolicy":"IfNotPresent","port":8080,"env":[{"name":"LOG_LEVEL","value":"info"},{"name":"CACHE_TTL","value":"300s"},{"name":"FEATURE_FLAGS","value":"checkout-v2,search-suggest"},{"name":"API_URL","value":"http://shop-api.shop.svc:8080"}],"resources":{"requests":{"cpu":"250m","memory":"256Mi"},"limits":{"cpu":"1","memory":"512Mi"}},"probes":{"readiness":{"path":"/healthz/ready","periodSeconds":5,"failureThreshold":3},"liveness":{"path":"/healthz/live","periodSeconds":10,"failureThreshold":6,"initialDelaySeconds":15}},"autoscaling":{"enabled":true,"minReplicas":3,"maxReplicas":12,"targetCPUUtilization":0.75},"ingress":{"host":"shop.example.com","paths":["/","/static","/api"],"tls":{"secretName":"shop-example-com-tls","issuer":"letsencrypt"}},"tolerations":[{"key":"dedicated","operator":"Equal","value":"web","effect":"NoSchedule"}],"nodeSelector":{"kubernetes.io/arch":"amd64","node.example.com/pool":"web"},"rollout":{"strategy":"canary","steps":[{"weight":10,"pause":"5m"},{"weight":50,"pause":"10m"},{"weight":100}],"maxSurge":"25%","maxUnavailable":0},"paused":false,"note":"Caf\u00e9 \u2014 r\u00e9sum\u00e9 of the \"frontend\" service","sidecars":null},"status":{"observedGeneration":7,"readyReplicas":3,"conditions":[{"type":"Available","status":"True","lastTransitionTime":"2024-05-01T10:00:00Z","reason":"MinimumReplicasAvailable","message":"Deployment has minimum availability."},{"type":"Progressing","status":"True","lastTransitionTime":"2024-05-01T09:58:12Z","reason":"NewReplicaSetAvailable","message":"ReplicaSet \"shop-frontend-7d9f8c6b5\" has successfully progressed."}]}}`

// FuzzDecode decodes random bytes with Decode and with sigs.k8s.io/json:
// both give the same value, or the same error text.
func FuzzDecode(f *testing.F) {
	for _, tc := range jsonDecodeCases {
		f.Add([]byte(tc.in))
	}
	f.Add([]byte(smallObject))
	for _, name := range fuzzCRDSeeds {
		if j := conformanceCRD(f, name); j != nil {
			f.Add(j)
			f.Add(append(bytes.Clone(j[:len(j)/2]), `"\ud800\u"`...))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkSameAsReference(t, data)
		// What sigs.k8s.io/json decodes, the decoder of this package
		// decodes itself, and also the re-encoded document.
		if v, err := decodeJSONReference(data); err == nil {
			if _, _, ok := Scan(data); !ok {
				t.Errorf("Scan(%q) failed", data)
			}
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			checkSameAsReference(t, b)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	inputs := []struct {
		name string
		data []byte
	}{{"small", []byte(smallObject)}}
	if j := conformanceCRD(b, benchCRD); j != nil {
		inputs = append(inputs, struct {
			name string
			data []byte
		}{"httproute-crd", j})
	}
	for _, in := range inputs {
		for _, dec := range []struct {
			name   string
			decode func([]byte) (any, error)
		}{{"fast", Decode}, {"kjson", decodeJSONReference}} {
			b.Run(in.name+"/"+dec.name, func(b *testing.B) {
				b.SetBytes(int64(len(in.data)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := dec.decode(in.data); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
