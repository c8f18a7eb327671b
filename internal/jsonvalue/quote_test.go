package jsonvalue

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSafe8 checks the 8-byte test of AppendString against the byte table:
// every byte value at every position of an otherwise safe word, and words
// of two unsafe bytes.
func TestSafe8(t *testing.T) {
	safeByte := func(c byte) bool { return c < utf8.RuneSelf && jsonSafe[c] }
	for c := range 256 {
		for pos := range 8 {
			w := []byte("abcdefgh")
			w[pos] = byte(c)
			if got, want := safe8(load8(string(w), 0)), safeByte(byte(c)); got != want {
				t.Errorf("safe8(%q) = %v, want %v", w, got, want)
			}
			for c2 := range 256 {
				w2 := slices.Clone(w)
				w2[(pos+3)%8] = byte(c2)
				if got, want := safe8(load8(string(w2), 0)), safeByte(byte(c)) && safeByte(byte(c2)); got != want {
					t.Fatalf("safe8(%q) = %v, want %v", w2, got, want)
				}
			}
		}
	}
}

// FuzzAppendString checks AppendString against encoding/json on any
// string, invalid UTF-8 included.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain ASCII text, longer than eight bytes", "a\"<\n", "tab\there & <there>", "\x00\x1f\x7f", "a\xff\xfeb", "é ü \u2028 \u2029 ☃", strings.Repeat("x", 17) + "\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("%q:\n got %s\nwant x%s", s, got, want)
		}
	})
}

// TestAppendEscapedParts checks that a string escaped in parts split
// between runes is the string escaped whole.
func TestAppendEscapedParts(t *testing.T) {
	for _, s := range []string{"", "abc", "line\nnext \"q\" <&>", "é ü \u2028 ☃ \xff tail", strings.Repeat("safe text ", 5)} {
		whole := AppendString(nil, s)
		for i := 0; i <= len(s); i++ {
			if i < len(s) && !utf8.RuneStart(s[i]) {
				continue
			}
			b := append([]byte{'"'}, AppendEscaped(nil, s[:i])...)
			b = append(AppendEscaped(b, s[i:]), '"')
			if string(b) != string(whole) {
				t.Errorf("%q split at %d: %s, want %s", s, i, b, whole)
			}
		}
	}
}
