// Package delivery gets each submission to its form's owners: signed
// webhooks (Standard Webhooks) to the receivers a form's settings list,
// messages to the team chats it lists ([ChatArgs], written by package
// chat), and e-mail, as jobs of a River queue in the hub's database. It sends
// four kinds of e-mail:
//
//   - the owners' notification of a submission ([NotifyArgs]), to the
//     addresses of notify.email that are members of the form's workspace
//     or confirmed a link it mailed them;
//   - the request to confirm an address listed there ([ConfirmRecipientArgs]),
//     once per workspace and address, in the hub's own words;
//   - the confirmation e-mail to the visitor ([AutoresponseArgs]);
//   - a saved draft's link to the visitor ([DraftLinkArgs]).
//
// The last three go to addresses nobody in the workspace proved: each is
// held to a budget per address across the hub and sent once (see
// [ErrSentOnce]); every e-mail counts against its workspace's daily mail
// quota.
//
// The jobs are inserted by the hook [Queue.Hook] returns, in the
// transaction that stores the submission (see sqldb.DB.SetSubmissionHook):
// a stored submission always has its deliveries, a refused one never. On
// SQLite River's riversqlite driver inserts with the transaction itself;
// on PostgreSQL riverpgxv5 inserts through the pgx connection the
// transaction runs on, and the queue keeps a pgx pool of its own for the
// rest. River's own tables are migrated by OpenSQLite and OpenPostgres.
//
// Delivery is at least once. A webhook's webhook-id is the same on every
// attempt ([WebhookID]: the submission's id and the job's), so receivers
// drop repeats by it. Any 2xx answer is success; other answers, redirects,
// timeouts and network errors are retried after a delay that doubles from
// Config.Backoff up to an hour, varied by ±20%, for Config.RetryFor (a
// day by default), after which the delivery is failed. A job that was
// running on a hub that died is run again by a live hub once it has been
// running for one and a half Config.Timeout (20 seconds by default), and
// River's rescuer looks every 30 seconds: within a minute by default.
//
// Receivers and chats must have public addresses: the client refuses loopback,
// private, link-local, shared and multicast addresses, checked once the
// name is resolved, unless Config.AllowNetworks lists them.
package delivery
