package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub/backup"
	"github.com/hubform/hubform/handlers/hub/export"
	"github.com/hubform/hubform/handlers/hub/sqlite"
)

const backupHelp = `
Usage: hubform backup --data DIR --to DEST

Copies the hub's data directory DIR to DEST while the hub serves: its SQLite
database as of one moment (SQLite's online backup, never a copy of the live
file), then every other file (the stored files, the signing key), then
manifest.json, each file's path, size and SHA-256. The backup is the folder
DEST/hubform-YYYYMMDDTHHMMSSZ, which the command prints. A folder without
its manifest.json is a backup cut short, not one to restore.

It writes at most --max-rate MB a second: the hub's commits wait for the
disk to hold what was written before them, the backup's writes included.

DEST is a directory, or a bucket: s3://BUCKET/PREFIX?QUERY with the query
and AWS_* environment of the hub's --blob (endpoint, region, credentials).
One object is at most 5 GB there: a larger database goes to a directory.

A hub on PostgreSQL (--db) keeps its data elsewhere: back its database up
with pg_dump (or the provider's snapshots) and its files with the bucket's
versioning; see OPERATIONS.md.
`

const backupTail = `
Example:
  hubform backup --data ./hub-data --to /backups
  hubform backup --data ./hub-data --to 's3://hub-backups/nightly?endpoint=https://s3.example.com'
  hubform restore --from /backups/hubform-20261129T003000Z --data ./hub-data   # empty, after the disk was lost
`

const restoreHelp = `
Usage: hubform restore --from SRC --data DIR

Writes the backup SRC (a folder "hubform backup" wrote, in a directory or
at s3://BUCKET/PREFIX/hubform-…?QUERY) into the data
directory DIR, which must be empty or not exist, and checks each file's size
and SHA-256 against the backup's manifest: a damaged backup is refused,
naming the file, and DIR is left empty. A hub started on DIR then migrates
the database if the backup is of an older hubform.
`

// defaultBackupMaxRate is the most megabytes a second a backup writes
// unless told otherwise: at a million submissions and 1 GiB of files on a
// hub's one disk it kept the hub's submit rate at 0.85–0.94 of its own
// while the backup ran (BENCHMARKS.md), backing up 3.3 GB a minute.
const defaultBackupMaxRate = 64

// maxRateFlag defines the flag name of a backup's most megabytes a
// second, and returns where it is parsed to.
func maxRateFlag(fs *flagSet, name string) *int64 {
	return fs.Int64(name, defaultBackupMaxRate, "the most `MB` a second a backup writes, so that the hub serving beside it\nkeeps its disk; 0: no limit")
}

func runBackup(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("backup", backupHelp, backupTail, stderr)
	data, dbURL := dbFlags(fs)
	to := fs.String("to", "", "the `DEST` directory the backup's folder goes in")
	maxRate := maxRateFlag(fs, "max-rate")
	rest, status, ok := fs.parse(args, stdout)
	switch {
	case !ok:
		return status
	case len(rest) != 0:
		return fs.fail(2, "takes no arguments")
	case *maxRate < 0:
		return fs.fail(2, "--max-rate: want 0 (no limit) or more megabytes a second")
	case *dbURL != "":
		return fs.fail(1, "a hub on PostgreSQL is backed up with pg_dump (or the provider's snapshots) and its files with the bucket's versioning: see OPERATIONS.md, Backups")
	case *to == "":
		return fs.fail(2, "--to is required: the directory the backup goes in")
	}
	unlock, err := backup.Lock(*data)
	if err != nil {
		return fs.fail(1, "%v", err)
	}
	defer unlock()
	dest, where, err := backup.Open(ctx, *to)
	if err != nil {
		return fs.fail(1, "--to: %v", err)
	}
	now := time.Now()
	name := backup.Name(now)
	snapshot := func(ctx context.Context, to string) (int64, error) {
		return sqlite.Snapshot(ctx, filepath.Join(*data, backup.DatabaseName), to)
	}
	m, err := backup.Copy{DataDir: *data, Snapshot: snapshot, To: dest, MaxRate: *maxRate * 1e6}.Take(ctx, name, now)
	if err != nil {
		return fs.fail(1, "%v", err)
	}
	fmt.Fprintf(stdout, "%s/%s: %d files, %s, schema version %d\n", strings.TrimRight(where, "/"), name, len(m.Files), export.ByteSize(m.Bytes()), m.Schema)
	return 0
}

func runRestore(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("restore", restoreHelp, backupTail, stderr)
	from := fs.String("from", "", "the backup's `SRC` folder")
	data := fs.String("data", "", "the data `DIR` to restore into, empty or absent")
	rest, status, ok := fs.parse(args, stdout)
	switch {
	case !ok:
		return status
	case len(rest) != 0:
		return fs.fail(2, "takes no arguments")
	case *from == "" || *data == "":
		return fs.fail(2, "--from and --data are required")
	}
	src, _, err := backup.Open(ctx, *from)
	if err != nil {
		return fs.fail(1, "--from: %v", err)
	}
	m, err := backup.Restore(ctx, src, *data)
	if err != nil {
		return fs.fail(1, "%v", err)
	}
	fmt.Fprintf(stdout, "restored %d files, %s, of %s (schema version %d) into %s\n", len(m.Files), export.ByteSize(m.Bytes()),
		m.CreatedAt.Format(time.RFC3339), m.Schema, strings.TrimRight(*data, "/"))
	return 0
}
