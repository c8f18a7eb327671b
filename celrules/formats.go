package celrules

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// durationUnits lists the unit spellings of the OpenAPI duration format,
// per unit; the last spelling of each also matches as a prefix ("hours").
var durationUnits = []struct {
	names []string
	unit  time.Duration
}{
	{[]string{"ns", "nano"}, time.Nanosecond},
	{[]string{"us", "µs", "micro"}, time.Microsecond},
	{[]string{"ms", "milli"}, time.Millisecond},
	{[]string{"s", "sec"}, time.Second},
	{[]string{"m", "min"}, time.Minute},
	{[]string{"h", "hr", "hour"}, time.Hour},
	{[]string{"d", "day"}, 24 * time.Hour},
	{[]string{"w", "wk", "week"}, 7 * 24 * time.Hour},
}

var durationTerm = regexp.MustCompile(`((\d+)\s*([A-Za-zµ]+))`)

// parseDuration parses the OpenAPI duration format: Go durations, or
// terms like "3 days 4h" (the Scala syntax the OpenAPI validator accepts).
func parseDuration(s string) (time.Duration, error) {
	if d, err := time.ParseDuration(s); err == nil {
		return d, nil
	}
	var d time.Duration
	ok := false
	for _, m := range durationTerm.FindAllStringSubmatch(s, -1) {
		n, err := strconv.Atoi(m[2])
		if err != nil {
			return 0, err
		}
		unit := strings.ToLower(strings.TrimSpace(m[3]))
		for _, u := range durationUnits {
			last := len(u.names) - 1
			for i, name := range u.names {
				if (i == last && strings.HasPrefix(unit, name)) || strings.EqualFold(name, unit) {
					ok = true
					d += time.Duration(n) * u.unit
				}
			}
		}
	}
	if ok {
		return d, nil
	}
	return 0, fmt.Errorf("unable to parse %s as duration", s)
}

// dateTimeLayouts are the layouts the OpenAPI date-time format accepts,
// tried in order.
var dateTimeLayouts = []string{
	"2006-01-02T15:04:05.000000Z07:00",
	"2006-01-02T15:04:05.000Z07:00",
	time.RFC3339,
	time.RFC3339Nano,
	"2006-01-02T15:04:05",
}

// parseDateTime parses the OpenAPI date-time format; the empty string is
// the Unix epoch.
func parseDateTime(s string) (time.Time, error) {
	if s == "" {
		return time.Unix(0, 0).UTC(), nil
	}
	var last error
	for _, layout := range dateTimeLayouts {
		t, err := time.Parse(layout, s)
		if err == nil {
			return t, nil
		}
		last = err
	}
	return time.Time{}, last
}
