package printer

import (
	"strconv"
	"time"
)

// humanDuration renders a duration with two or three significant figures as
// kubectl's AGE column does: "<invalid>" for two seconds or more in the
// future, "0s" for less, then seconds up to 2 minutes, minutes and seconds
// up to 10 minutes, minutes up to 3 hours, hours and minutes up to 8 hours,
// hours up to 2 days, days and hours up to 8 days, days up to 2 years, years
// and days up to 8 years, and years beyond.
func humanDuration(d time.Duration) string {
	// Seconds truncate toward zero, so up to 1.999s in the future is "0s".
	if s := int(d.Seconds()); s < -1 {
		return "<invalid>"
	} else if s < 0 {
		return "0s"
	} else if s < 120 {
		return strconv.Itoa(s) + "s"
	}
	minutes := int(d / time.Minute)
	if minutes < 10 {
		return pair(minutes, "m", int(d/time.Second)%60, "s")
	}
	if minutes < 3*60 {
		return strconv.Itoa(minutes) + "m"
	}
	hours := int(d / time.Hour)
	switch {
	case hours < 8:
		return pair(hours, "h", minutes%60, "m")
	case hours < 48:
		return strconv.Itoa(hours) + "h"
	case hours < 8*24:
		return pair(hours/24, "d", hours%24, "h")
	case hours < 2*365*24:
		return strconv.Itoa(hours/24) + "d"
	case hours < 8*365*24:
		days := hours / 24
		return pair(days/365, "y", days%365, "d")
	}
	return strconv.Itoa(hours/24/365) + "y"
}

// pair renders "<a><ua><b><ub>", leaving out the second part when b is 0.
func pair(a int, ua string, b int, ub string) string {
	s := strconv.Itoa(a) + ua
	if b != 0 {
		s += strconv.Itoa(b) + ub
	}
	return s
}
