// Package dates holds the checks of the OpenAPI "date", "date-time" and
// "duration" string formats, as the API server's schema validation and
// CEL (the format library's format.date() and format.datetime(), the
// values of duration strings) both make them.
package dates

import (
	"regexp"
	"strings"
	"time"
)

// TimePattern is the regular expression of the time of day of a
// date-time: hours, minutes, seconds, an optional fraction and a zone
// (lower case, as DateTime matches it after lower-casing). The CEL library
// charges for a format check by the length of this expression.
const TimePattern = `^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`

var timeRegexp = regexp.MustCompile(TimePattern)

// Date reports whether s is a full-date of RFC 3339 ("2006-01-02"), a real
// day of the calendar.
func Date(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil
}

// DateTime reports whether s is an RFC 3339 date-time, case-insensitively:
// a date, a "t" or "T", and a time of day with hours up to 23 and minutes
// and seconds up to 59 (compared as text), fractional seconds of any
// precision and a Z or ±hh:mm offset.
func DateTime(s string) bool {
	if len(s) < 4 {
		return false
	}
	parts := strings.Split(strings.ToLower(s), "t")
	if len(parts) < 2 || !Date(parts[0]) {
		return false
	}
	m := timeRegexp.FindStringSubmatch(parts[1])
	if m == nil {
		return false
	}
	return m[1] <= "23" && m[2] <= "59" && m[3] <= "59"
}
