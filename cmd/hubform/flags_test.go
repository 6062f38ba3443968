package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestHelpDefaults checks how help shows defaults: strings quoted, numbers
// and durations bare, zero values left out.
func TestHelpDefaults(t *testing.T) {
	t.Parallel()
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

// TestFlagsFromEnvironment checks that the variable environment gives a
// flag sets it, that the command line wins, and that a value the flag cannot
// take stops the command with a message naming the variable.
func TestFlagsFromEnvironment(t *testing.T) {
	newFlags := func() (*flagSet, *string, *time.Duration, *int64, *bytes.Buffer) {
		var stderr bytes.Buffer
		fs := newFlagSet("test", "Usage: test\n", "", &stderr)
		addr := fs.String("addr", "127.0.0.1:8081", "`ADDR` to listen on")
		ttl := fs.Duration("upload-ttl", 24*time.Hour, "how long (at least 1m)")
		body := fs.Int64("max-body", 1<<20, "largest body")
		return fs, addr, ttl, body, &stderr
	}
	environment["test"] = map[string]string{"addr": "HUBFORM_TEST_ADDR", "upload-ttl": "HUBFORM_TEST_TTL", "max-body": "HUBFORM_TEST_BODY"}
	t.Cleanup(func() { delete(environment, "test") })
	t.Setenv("HUBFORM_TEST_ADDR", "0.0.0.0:80")
	t.Setenv("HUBFORM_TEST_TTL", "90m")
	fs, addr, ttl, body, _ := newFlags()
	if _, _, ok := fs.parse([]string{"--max-body", "5"}, io.Discard); !ok || *addr != "0.0.0.0:80" || *ttl != 90*time.Minute || *body != 5 {
		t.Errorf("addr %q, ttl %v, body %d", *addr, *ttl, *body)
	}
	fs, addr, _, _, _ = newFlags()
	if _, _, ok := fs.parse([]string{"--addr", "127.0.0.1:9"}, io.Discard); !ok || *addr != "127.0.0.1:9" {
		t.Errorf("the command line's --addr lost to the environment: %q", *addr)
	}

	for variable, want := range map[string]string{
		"HUBFORM_TEST_TTL":  `hubform test: HUBFORM_TEST_TTL="24": --upload-ttl takes a duration, such as 90s, 15m or 24h`,
		"HUBFORM_TEST_BODY": `hubform test: HUBFORM_TEST_BODY="1MB": --max-body takes a whole number`,
	} {
		t.Run(variable, func(t *testing.T) {
			t.Setenv(variable, map[string]string{"HUBFORM_TEST_TTL": "24", "HUBFORM_TEST_BODY": "1MB"}[variable])
			fs, _, _, _, stderr := newFlags()
			if _, status, ok := fs.parse(nil, io.Discard); ok || status != 2 || strings.TrimSpace(stderr.String()) != want {
				t.Errorf("ok %v, status %d, stderr %q; want 2 and %q", ok, status, stderr, want)
			}
		})
	}
}

// TestHubRefusesABadEnvironment runs the hub command with a duration it
// cannot read, as HUBFORM_UPLOAD_TTL=24 once went unnoticed.
func TestHubRefusesABadEnvironment(t *testing.T) {
	t.Setenv("HUBFORM_UPLOAD_TTL", "24")
	status, _, stderr := hubform(t, "hub", "--data", t.TempDir())
	if status != 2 || !strings.Contains(stderr, `HUBFORM_UPLOAD_TTL="24"`) {
		t.Errorf("status %d, stderr %q; want 2 and a message naming HUBFORM_UPLOAD_TTL", status, stderr)
	}
}

// TestEnvironmentNamesFlags checks that every variable of the environment
// table stands beside a flag of its command in the command's help: a
// variable of a flag that was renamed or removed would set nothing.
func TestEnvironmentNamesFlags(t *testing.T) {
	for command, variables := range environment {
		var help bytes.Buffer
		if status := run(context.Background(), []string{command, "--help"}, &help, io.Discard); status != 0 {
			t.Errorf("hubform %s --help: status %d", command, status)
			continue
		}
		for flagName, variable := range variables {
			if !regexp.MustCompile(`(?m)^  --` + regexp.QuoteMeta(flagName) + `\b[^\n]*\n(?:    \t[^\n]*\n)*?    \t[^\n]*\(` + variable + `\)`).MatchString(help.String()) {
				t.Errorf("hubform %s --help does not show %s beside --%s", command, variable, flagName)
			}
		}
	}
}

// TestOperationsGuideListsTheEnvironment checks that the operations guide
// has a row for each variable of the environment table, beside its flag:
// the hub's in its table of flags, the other commands' with the command.
func TestOperationsGuideListsTheEnvironment(t *testing.T) {
	guide, err := os.ReadFile("../../handlers/hub/OPERATIONS.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for line := range strings.Lines(string(guide)) {
		if strings.HasPrefix(line, "| `") {
			rows = append(rows, line)
		}
	}
	for command, variables := range environment {
		for flagName, variable := range variables {
			row := "| `hubform " + command + "` | `--" + flagName + "` | `" + variable + "` |"
			if command == "hub" {
				row = "| `--" + flagName + "` | `" + variable + "` |"
			}
			if !slices.ContainsFunc(rows, func(r string) bool { return strings.HasPrefix(r, row) }) {
				t.Errorf("OPERATIONS.md has no row %s", row)
			}
		}
	}
}
