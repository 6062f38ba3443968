// Package sqlite stores the hub's submissions and the uploads it signed
// URLs for in a SQLite database file.
//
// The schema is created and upgraded by migrations embedded in the package.
// Times are kept as Unix milliseconds in UTC and JSON as text, and the
// queries use only syntax PostgreSQL shares, so a PostgreSQL store can reuse
// both.
//
// A database is opened in WAL mode with full synchronous commits: a write
// that returned nil survives a crash, and readers, including another process
// that opened the file with [OpenReadOnly], never block the writer.
package sqlite
