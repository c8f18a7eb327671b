package celrules

import (
	"regexp"
	"strings"
	"testing"
)

// unescapeByRegexp is Unescape as a regular expression replacement, the
// plain statement of what Unescape does by hand.
func unescapeByRegexp(escaped string) (string, bool) {
	ok := true
	out := regexp.MustCompile(`__[^_]+__`).ReplaceAllStringFunc(escaped, func(seq string) string {
		word := seq[2 : len(seq)-2]
		switch word {
		case "underscores":
			return "__"
		case "dot":
			return "."
		case "dash":
			return "-"
		case "slash":
			return "/"
		}
		if reservedWords[word] && len(seq) == len(escaped) {
			return word
		}
		ok = false
		return ""
	})
	if !ok {
		return "", false
	}
	return out, true
}

var unescapeSeeds = []string{"", "a", "__", "___", "____", "__a__", "__dot__", "a__dot__b", "__namespace__", "x__namespace__",
	"__underscores____dot__", "a___dot__", "__dot___", "__d_ot__", "_____dot__", "__dash____slash__x", "__in__", "__in____in__", "a__b", "__x__y__"}

func TestUnescapeMatchesRegexp(t *testing.T) {
	for _, s := range unescapeSeeds {
		got, gotOK := unescapeProperty(s)
		want, wantOK := unescapeByRegexp(s)
		if got != want || gotOK != wantOK {
			t.Errorf("unescapeProperty(%q) = %q, %v; want %q, %v", s, got, gotOK, want, wantOK)
		}
	}
}

func FuzzUnescapeMatchesRegexp(f *testing.F) {
	for _, s := range unescapeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		s = strings.ToValidUTF8(s, "")
		got, gotOK := unescapeProperty(s)
		want, wantOK := unescapeByRegexp(s)
		if got != want || gotOK != wantOK {
			t.Errorf("unescapeProperty(%q) = %q, %v; want %q, %v", s, got, gotOK, want, wantOK)
		}
	})
}
