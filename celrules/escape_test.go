package celrules

import "testing"

func TestEscape(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"name", "name", true},
		{"namespace", "__namespace__", true},
		{"if", "__if__", true},
		{"a-b", "a__dash__b", true},
		{"a.b", "a__dot__b", true},
		{"a/b", "a__slash__b", true},
		{"a__b", "a__underscores__b", true},
		{"a___b", "a__underscores___b", true},
		{"_a", "_a", true},
		{"1a", "", false},
		{"", "", false},
		{"a b", "", false},
		{"a:b", "", false},
		{"a-b.c/d", "a__dash__b__dot__c__slash__d", true},
	}
	for _, tt := range tests {
		got, ok := escapeProperty(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("escapeProperty(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
		if ok {
			back, ok := unescapeProperty(got)
			if !ok || back != tt.in {
				t.Errorf("unescapeProperty(%q) = %q, %v; want %q", got, back, ok, tt.in)
			}
		}
	}
	for _, bad := range []string{"__unknown__", "a__namespace__"} {
		if got, ok := unescapeProperty(bad); ok {
			t.Errorf("unescapeProperty(%q) = %q, want failure", bad, got)
		}
	}
}
