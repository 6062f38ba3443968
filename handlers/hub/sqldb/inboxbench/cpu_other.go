//go:build !unix

package inboxbench

import "time"

// processCPU tells nothing where getrusage is missing.
func processCPU() (time.Duration, bool) { return 0, false }
