package dates

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

// ParseDuration parses the OpenAPI duration format: Go durations, or
// terms like "3 days 4h" (the Scala syntax the OpenAPI validator accepts).
// The schema validation of the format accepts what it parses; CEL reads
// the values of the format as it parses them.
func ParseDuration(s string) (time.Duration, error) {
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
