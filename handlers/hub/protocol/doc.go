// Package protocol is the hub's HTTP server of the hosted-form protocol
// (hubclient/PROTOCOL.md): the schema, upload-url and submit routes, the
// visitors' drafts, the funnel's counts and the PUT endpoint of the local
// storage, with what makes them safe to expose: body and rate limits,
// CORS, the time trap and content checks against spam, idempotency keys,
// limits of a form's submissions, and the sweep of what was left behind.
// It serves the domain of package hub, and mounts the console's and the
// admin API's routes beside its own (Config.Mount).
package protocol
