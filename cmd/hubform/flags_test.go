package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"
)

// TestHelpDefaults checks how help shows defaults: strings quoted, numbers
// and durations bare, zero values left out.
func TestHelpDefaults(t *testing.T) {
	fs := newFlagSet("test", "Usage: test\n", "", io.Discard)
	fs.String("addr", "127.0.0.1:8081", "`ADDR` to listen on")
	fs.String("empty", "", "a string without default")
	fs.Int("concurrency", 8, "files at once")
	fs.Int64("max-body", 1<<20, "largest body")
	fs.Int("none", 0, "a number without default")
	fs.Duration("timeout", 5*time.Minute, "give up after this long")
	fs.Duration("never", 0, "a duration without default")
	fs.Bool("json", false, "print JSON")
	fs.Bool("on", true, "on unless turned off")
	var out bytes.Buffer
	fs.printHelp(&out)
	help := out.String()
	for _, want := range []string{
		`ADDR to listen on (default "127.0.0.1:8081")`,
		"files at once (default 8)\n",
		"largest body (default 1048576)\n",
		"give up after this long (default 5m0s)\n",
		"on unless turned off (default true)\n",
		"a string without default\n",
		"a number without default\n",
		"a duration without default\n",
		"print JSON\n",
	} {
		if !strings.Contains(help, want) {
			t.Errorf("help lacks %q:\n%s", want, help)
		}
	}
}
