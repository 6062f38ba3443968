// Package handlers serves HubForm's routes in a host app: the page helper
// that fetches a form's schema on the server, the load route behind the
// loading state, the submit route that checks a post against the schema, its
// rules and its conditions and delivers it to the hub, the logic route that
// answers htmx with the fields a change shows, hides or requires, and the
// form's static assets.
//
// Mount the routes on an Echo server, or serve the Handler with net/http:
//
//	h := handlers.New(handlers.Config{HubURL: "https://hub.example.com/v1"})
//	h.Mount(e)                     // Echo
//	http.Handle("/hubform/", h)    // net/http
//
// and render the form in a page with the props the helper returns, its
// styles and scripts in the page's head:
//
//	<head>@h.Head()</head>
//	<body>@components.HubForm(h.PropsFor(c, "acme", "contact"))</body>
//
// Without JavaScript, the routes answer a post (the thank-you page, the
// form with its field errors) with a whole page: Config.Page puts it in the
// app's layout.
//
// A form's own settings (its hub, states, styling and callbacks) are
// registered once in Config.Forms, so that the routes, which render the
// form again after the page, hold them too.
//
// # The library and the hub
//
// An app that embeds forms uses this package with components, static and
// hubclient: that is the library. The packages under handlers/hub are the
// hub that "hubform hub" serves (see package hub for a map of them); an app
// imports none of them, and they are not needed to render or submit a form.
//
// GUIDE.md beside this package is the guide to forms in a Go app.
package handlers
