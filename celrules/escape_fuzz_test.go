package celrules

import (
	"strings"
	"testing"
)

// FuzzEscape checks that unescapeProperty undoes escapeProperty for every property name.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"a", "a.b", "a-b", "__a__", "x/y", "namespace", "int", "a\xff", "_", "", "__dot__", "1a", "🎉"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		esc, ok := escapeProperty(name)
		if !ok {
			return
		}
		back, ok := unescapeProperty(esc)
		if !ok || back != name {
			t.Fatalf("escapeProperty(%q) = %q, unescapeProperty gives %q, %v", name, esc, back, ok)
		}
	})
}

// TestEscapeInvalidUTF8: escaping names with invalid UTF-8 round-trips.
func TestEscapeInvalidUTF8(t *testing.T) {
	for _, name := range []string{"a\xff\xfeb", "\xff", "a.b\xff-c", strings.Repeat("\xfe", 100)} {
		if esc, ok := escapeProperty(name); ok {
			if back, ok := unescapeProperty(esc); !ok || back != name {
				t.Errorf("escapeProperty(%q) = %q, unescapeProperty = %q %v", name, esc, back, ok)
			}
		}
	}
}
