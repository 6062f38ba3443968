// Package hosted serves a page for each form of the hub, at
// /f/{site}/{slug}, for owners who have no app to embed the form in: a
// link to share, or an iframe on their own site.
//
// The hub is here the first user of the embedding library. The page is
// rendered with components.HubForm and posted through package handlers,
// exactly as a Go app would: the schema fetched on the server, htmx when
// the browser runs it and native posts when not, files spooled and
// streamed, the thank-you panel. The handlers' client reaches the hub in
// process: a request addressed to the hub's public URL is served by the
// hub's own router without leaving the process, bodies streamed through
// pipes, while any other host (a bucket's presigned URL) is called over
// the network. Such a request names the visitor
// (hubclient.Client.Visitor) as its client address, so that the hub's
// rate limit, captcha check and stored submission see the visitor, as
// they do behind an app the hub trusts.
//
// The locale is the query's "locale", else the translation the browser
// asks for (Accept-Language). A form that is not found or not published
// answers 404 with a short page, and so does a form whose settings say
// "hub": {"hostedPage": false}; its schema and protocol routes are
// unaffected. Every answer carries a Content-Security-Policy with a fresh
// nonce: scripts from the hub and the form's captcha provider alone,
// posts to the hub alone, framed by any site, or by the hub and the sites
// the form lists in embedOrigins alone.
//
// With ?embed=1 the page is made for a frame of another site, which the
// hub's embed.js (EmbedPath) puts there: the form alone on a transparent
// background, and a script that tells the site, by postMessage to the
// origin in &origin=, the form's height, that it is ready and the
// submission it stored (EMBED.md).
package hosted
