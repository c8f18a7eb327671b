package dates

import "testing"

func TestDate(t *testing.T) {
	for s, want := range map[string]bool{
		"2024-02-29": true, "2023-02-29": false, "2024-13-01": false, "2024-1-01": false,
		"2024-01-01T00:00:00Z": false, "": false, "0000-01-01": true,
	} {
		if got := Date(s); got != want {
			t.Errorf("Date(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestDateTime(t *testing.T) {
	for s, want := range map[string]bool{
		"2024-01-01T00:00:00Z":           true,
		"2024-01-01t23:59:59.123456789z": true,
		"2024-01-01T12:00:00+05:30":      true,
		"2024-01-01T24:00:00Z":           false,
		"2024-01-01T23:60:00Z":           false,
		"2024-01-01T23:59:60Z":           false,
		"2024-01-01T12:00:00":            false,
		"2024-02-30T12:00:00Z":           false,
		"2024-01-01 12:00:00Z":           false,
		"2024-01-01T12:00:00Zt":          true, // what follows a second "t" is not looked at, as upstream's
		"abc":                            false,
		"2024-01-01T12:00:00.Z":          false,
		"2024-01-01T12:00:00x5Z":         true, // "." of the pattern is any character, as upstream's
	} {
		if got := DateTime(s); got != want {
			t.Errorf("DateTime(%q) = %v, want %v", s, got, want)
		}
	}
}
