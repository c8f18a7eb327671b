package structural

import (
	"regexp"
	"testing"
)

// TestHasNewlines checks hasNewlines against the API server's regular
// expression, on text with line breaks anywhere, multi-byte and invalid
// UTF-8.
func TestHasNewlines(t *testing.T) {
	re := regexp.MustCompile(`[\n\r]+`)
	parts := []string{"", "a", "\n", "\r", "\r\n", "é", "\xff", "\xe2\x80", "\u2028", "\x85", "msg"}
	n := 0
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				s := a + b + c
				if got, want := hasNewlines(s), re.MatchString(s); got != want {
					t.Errorf("hasNewlines(%q) = %v, want %v", s, got, want)
				}
				n++
			}
		}
	}
	if n == 0 || !hasNewlines("a\nb") || hasNewlines("a b") {
		t.Fatal("no case checked")
	}
}
