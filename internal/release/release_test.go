package release

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]Minor{"": 37, "1.33": 33, "v1.34": 34, "1.35.2": 35, "1.36": 36, "1.37": 37} {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"1.32", "1.38", "2.34", "1", "x", "1.x", "1.-1"} {
		if _, err := Parse(in); err == nil || !strings.Contains(err.Error(), Supported) {
			t.Errorf("Parse(%q): %v, want an error naming %s", in, err, Supported)
		}
	}
	if Minor(34).String() != "1.34" || Minor(34).Compatibility() != 33 {
		t.Errorf("1.34: %s, compatibility %d", Minor(34), Minor(34).Compatibility())
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "1.33", "v1.37.1", "1.38", "1..", "1.999999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := Parse(s)
		if err == nil && !m.Valid() {
			t.Errorf("Parse(%q) = %v without error, outside the supported range", s, m)
		}
	})
}
