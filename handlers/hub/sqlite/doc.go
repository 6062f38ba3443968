// Package sqlite opens the hub's database in a SQLite file: the forms saved
// in the console or through the admin API and their versions, the
// submissions and the uploads it signed URLs for, the users, their
// sessions and the API tokens, and the delivery queue's jobs. The queries, the
// migrations and the methods of the [sqldb.DB] it returns are shared with
// the PostgreSQL store in package sqldb; what is SQLite's lives here.
//
// A database is opened in WAL mode with full synchronous commits: a write
// that returned nil survives a crash, and readers, including another process
// that opened the file with [OpenReadOnly], never block the writer. One
// connection writes and the others only read.
package sqlite
