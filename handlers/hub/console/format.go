package console

import (
	"context"
	"fmt"
	"strconv"
	"time"
	// Time zones by name on any machine, whatever its zoneinfo.
	_ "time/tzdata"
)

// sessionTimeZone is the session key of the user's time zone, an IANA
// name the browser told at sign-in or the user chose on their account
// page.
const sessionTimeZone = "tz"

// location returns the session's time zone, UTC when it has none.
func (con *Console) location(ctx context.Context) *time.Location {
	if loc, err := loadZone(con.sessions.GetString(ctx, sessionTimeZone)); err == nil {
		return loc
	}
	return time.UTC
}

// loadZone returns the time zone named name, refusing the empty name and
// "Local", which would be the hub's own zone rather than the user's.
func loadZone(name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return nil, fmt.Errorf("no time zone named %q", name)
	}
	return time.LoadLocation(name)
}

// formatTime formats t for people in loc: the date, the minute and the
// zone's abbreviation.
func formatTime(t time.Time, loc *time.Location) string {
	return t.In(loc).Format("2006-01-02 15:04 MST")
}

// when formats t, in a template, in the time zone of the page's user.
func when(ctx context.Context, t time.Time) string {
	loc := time.UTC
	if s := shellOf(ctx); s != nil && s.Location != nil {
		loc = s.Location
	}
	return formatTime(t, loc)
}

// machineTime is t for a time element's datetime attribute.
func machineTime(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// number formats n with a comma between thousands: 1,234,567.
func number[N int | int64](n N) string {
	s := strconv.FormatInt(int64(n), 10)
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		out = append(out, '-')
	}
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// byteSize formats n bytes for people, in binary units as file limits are
// set: 512 bytes, 5 MB for 5 MiB, 1.5 GB.
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		if n == 1 {
			return "1 byte"
		}
		return number(n) + " bytes"
	}
	v, i := float64(n), -1
	for v >= unit && i < 3 {
		v /= unit
		i++
	}
	s := strconv.FormatFloat(v, 'f', 1, 64)
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		s = s[:len(s)-2]
	}
	return s + " " + [...]string{"KB", "MB", "GB", "TB"}[i]
}
