package hub

import (
	"testing"
	"time"
)

func TestDigestNextAndDay(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	d := Digest{TimeZone: "Europe/Paris", Hour: 8}
	for _, tc := range []struct {
		after, want time.Time
	}{
		// Before the hour: today's; at it or after: tomorrow's.
		{time.Date(2026, 11, 29, 7, 59, 0, 0, paris), time.Date(2026, 11, 29, 8, 0, 0, 0, paris)},
		{time.Date(2026, 11, 29, 8, 0, 0, 0, paris), time.Date(2026, 11, 30, 8, 0, 0, 0, paris)},
		{time.Date(2026, 12, 31, 23, 0, 0, 0, paris), time.Date(2027, 1, 1, 8, 0, 0, 0, paris)},
		// Across the change to summer time, 8:00 stays 8:00 in Paris.
		{time.Date(2026, 3, 28, 9, 0, 0, 0, paris), time.Date(2026, 3, 29, 8, 0, 0, 0, paris)},
	} {
		if got := d.Next(tc.after); !got.Equal(tc.want) {
			t.Errorf("Next(%v) = %v, want %v", tc.after, got, tc.want)
		}
	}
	// An hour the clock skips: 2:00 on 29 March is 3:00.
	skipped := Digest{TimeZone: "Europe/Paris", Hour: 2}
	if got := skipped.Next(time.Date(2026, 3, 29, 0, 0, 0, 0, paris)); !got.Equal(time.Date(2026, 3, 29, 3, 0, 0, 0, paris)) {
		t.Errorf("Next on a day 2:00 is skipped = %v", got)
	}
	// The day before the sending, midnight to midnight in Paris: 23 hours
	// on the day summer time begins.
	from, to := d.Day(time.Date(2026, 3, 30, 8, 0, 0, 0, paris))
	if !from.Equal(time.Date(2026, 3, 29, 0, 0, 0, 0, paris)) || !to.Equal(time.Date(2026, 3, 30, 0, 0, 0, 0, paris)) || to.Sub(from) != 23*time.Hour {
		t.Errorf("Day = %v to %v", from, to)
	}
	if got := (Digest{TimeZone: "Not/AZone"}).Location(); got != time.UTC {
		t.Errorf("an unknown zone is %v, want UTC", got)
	}
}
