// Package inboxbench measures the inbox of one form at scale against the
// store's public API (a *sqldb.DB): it fills a database with a large form
// and a hundred small ones beside it, then times what the console and the
// exports ask of it (a page, a search, a date range, the spam folder,
// counts per day, CSV and JSON exports), the rate of writing submissions
// at that size against an empty database, and retention deleting the
// oldest tenth. Packages sqlite and postgres run it as BenchmarkInbox,
// and Summary, which does the same for a survey's Summary tab and what
// keeping its counts costs the writes, as BenchmarkSummary.
//
// The size is read from HUBFORM_BENCH_SUBMISSIONS; unset, it is small
// enough for a quick check that the benchmark runs. `make bench` sets it
// to a million.
package inboxbench

import (
	"fmt"
	"os"
	"strconv"
)

// EnvSize names the environment variable holding the number of
// submissions of the large form.
const EnvSize = "HUBFORM_BENCH_SUBMISSIONS"

// DefaultSize is the large form's size when EnvSize is unset: enough rows
// for every query to find something, few enough for a run of seconds.
const DefaultSize = 2000

// Size returns the large form's size from EnvSize, or DefaultSize.
func Size() (int, error) {
	v := os.Getenv(EnvSize)
	if v == "" {
		return DefaultSize, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1000 {
		return 0, fmt.Errorf("%s=%q: want a number of at least 1000", EnvSize, v)
	}
	return n, nil
}
