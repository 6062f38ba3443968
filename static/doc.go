// Package static serves hubform's front-end assets: the stylesheet
// hubform.css, the script hubform.js and the scripts it loads when a form
// needs them (uploads, drafts, a drop zone, a ranking), and htmx.min.js.
//
// The files are embedded in the binary, so an app that fetched hubform with
// `go get` serves all three with no settings. hubform.css and hubform.js live
// in this directory; dist/htmx.min.js is, byte for byte, the file of the npm
// package static/package-lock.json pins (`make assets` copies it from the
// package npm unpacked, and a test fails when the two differ).
//
// Each file is compressed once, when the program starts, with brotli and
// gzip; [Handler] sends the representation the browser's Accept-Encoding
// prefers, with an ETag of its own. [Stylesheet] returns hubform.css for a
// page to inline, which is what hubform's own head does.
//
// Mount [Handler] under a prefix of your choice and link the files with
// [URL], which adds a content hash so that browsers may cache them for good:
//
//	mux.Handle("/static/", http.StripPrefix("/static", static.Handler()))
//
//	<link rel="stylesheet" href={ "/static/" + static.URL("hubform.css") }>
//	<script defer src={ "/static/" + static.URL("htmx.min.js") }></script>
//	<script defer src={ "/static/" + static.URL("hubform.js") }></script>
//
// With Echo:
//
//	e.GET("/static/*", echo.WrapHandler(http.StripPrefix("/static", static.Handler())))
//
// # The script
//
// hubform.js needs no build step and no other script. It turns a form with
// several steps into a wizard, focuses the error summary, shows upload
// progress and the busy state of a request sent by htmx, and puts the token of
// a Turnstile or reCAPTCHA v3 captcha into the hidden _captchaToken input. It
// works with or without htmx and is safe to run again on content that htmx
// swaps in.
//
// # The stylesheet
//
// hubform.css is themed with custom properties set on .hubform, such as
// --hubform-accent, --hubform-radius, --hubform-font, --hubform-gap,
// --hubform-bg, --hubform-fg, --hubform-border, --hubform-error,
// --hubform-warning and --hubform-success. It follows prefers-color-scheme and
// prefers-reduced-motion and fetches no fonts.
package static
