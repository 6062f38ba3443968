package hub

import (
	"encoding/json"
	"time"
)

// Digest is a member's daily e-mail of what a workspace's forms received
// the day before: its submissions counted by form, the newest in short.
type Digest struct {
	Workspace, Email string
	// Site and Slug name the one form of the digest; both empty, every
	// form of the workspace.
	Site, Slug string
	// TimeZone is the IANA name of the zone the member's days are in, and
	// Hour the hour of the day (0 to 23) the digest is sent at there.
	TimeZone string
	Hour     int
	// NextAt is when the digest is next sent.
	NextAt time.Time
}

// DefaultDigestHour is the hour digests are sent at unless the member
// chose another: the start of a working day.
const DefaultDigestHour = 8

// Location returns the digest's time zone, UTC when its name is unknown.
func (d Digest) Location() *time.Location {
	if loc, err := time.LoadLocation(d.TimeZone); err == nil {
		return loc
	}
	return time.UTC
}

// Next returns the first time after after that the digest is sent: its
// hour, on the hour, in its time zone. On a day whose hour a clock change
// skips, it is sent an hour later.
func (d Digest) Next(after time.Time) time.Time {
	loc := d.Location()
	local := after.In(loc)
	at := time.Date(local.Year(), local.Month(), local.Day(), d.Hour, 0, 0, 0, loc)
	for !at.After(after) {
		local = local.AddDate(0, 0, 1)
		at = time.Date(local.Year(), local.Month(), local.Day(), d.Hour, 0, 0, 0, loc)
	}
	return at
}

// Day returns the day a digest sent at sent is about: the whole calendar
// day before sent's, in the digest's time zone, from its first instant to
// the next day's.
func (d Digest) Day(sent time.Time) (from, to time.Time) {
	loc := d.Location()
	local := sent.In(loc)
	to = time.Date(local.Year(), local.Month(), local.Day(), 0, 0, 0, 0, loc)
	return time.Date(local.Year(), local.Month(), local.Day()-1, 0, 0, 0, 0, loc), to
}

// FormDay is what one form received over a digest's day.
type FormDay struct {
	Site, Slug string
	// Count is how many submissions it received, spam and deleted ones
	// left out.
	Count int
	// Newest are the newest of them, newest first.
	Newest []DigestSubmission
}

// DigestSubmission is a submission as a digest shows it.
type DigestSubmission struct {
	ID        string
	CreatedAt time.Time
	Payload   json.RawMessage
}
