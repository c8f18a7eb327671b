package celrules

import (
	"time"
)

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
