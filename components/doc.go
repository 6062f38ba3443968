// Package components renders a hub's forms on the server with templ.
//
// [HubForm] is the component: given the props that the handlers package
// prepares (handlers.Handler.PropsFor fetches the form's schema on the server,
// cached), it renders the whole form in the page, so it is there on first
// paint and works without JavaScript. With htmx the form posts to the
// handlers' submit route and the answer (field errors, the thank-you panel)
// swaps in place; a change to a field that a condition reads gets back
// only the fields it shows, hides or requires, and a change to an answer
// that later texts recall ("Thanks, {{name}}") the texts that show it
// ([LogicUpdate]).
//
//	templ contactPage(forms *handlers.Handler, c echo.Context) {
//		<html>
//			<head>@forms.Head()</head>
//			<body>@components.HubForm(forms.PropsFor(c, "acme", "contact"))</body>
//		</html>
//	}
//
// # Head
//
// The form's styles and scripts go in the page's head with
// handlers.Handler.Head: hubform.css inline, and a small loader that adds
// hubform.js and htmx (the copy the module embeds, or Config.HTMXURL) once the
// page has painted. HubForm renders without it, unstyled and posting natively.
//
// # Props
//
// [HubFormProps] name the form (SiteID, FormSlug), its Locale, the schema
// fetched on the server (InitialSchema), where it loads and posts ([Routes]),
// a post's values and errors to show again ([State]), styling and field
// components ([FormProps]), and fallbacks that replace the built-in markup of
// each state. Build them with handlers.Handler.PropsFor or Props rather than
// by hand: those fill the routes, the CSRF token and the submission key.
//
// # States
//
// HubForm renders one of six states, each in the element htmx replaces and
// each marked with a data attribute a test or a stylesheet can select
// (PROTOCOL.md §2):
//
//   - loading: no schema yet (InitialSchema is nil); a skeleton that fetches
//     the form through the load route, or, without JavaScript, a link to it.
//     LoadingFallback replaces the skeleton. data-vendor-hubform-loading.
//   - ready: the form, with its steps, conditions, captcha and error summary.
//   - unconfigured: the schema has no field or no step; an amber banner.
//     UnconfiguredFallback replaces it ([Nothing] hides it).
//     data-vendor-hubform-unconfigured.
//   - error: the schema could not be fetched ([LoadError]); a banner with a
//     retry link. ErrorFallback replaces it.
//   - submitted: the hub accepted the submission ([Submitted]); the thank-you
//     panel, or the form's ending the hub named (State.Ending), focused for
//     screen readers. SuccessFallback replaces either.
//     data-vendor-hubform-submitted.
//   - closed: the form takes no more submissions, past its closing time or
//     its number of submissions: the schema says so (meta.closed), or the hub
//     refused a post for it ([Closed]). A panel; ClosedFallback replaces it
//     ([Nothing] hides it). data-vendor-hubform-closed.
//
// The ready form carries two hidden inputs besides its fields: the
// submission key (SubmissionKey), and the time it was rendered, signed by
// the app ([StampField]), from which the handlers tell the hub how long the
// visitor had the form.
//
// # Field components
//
// Each field renders with the component registered for its type:
// [Input] (text, email, tel, url, number, date, time, datetime),
// [Textarea], [Select], [Choices] (radio, checkboxes), [Checkbox],
// [Rating], [Scale] (scale, nps), [Slider], [Ranking], [Matrix], [Address],
// [Signature], [Group], [FileInput], [Hidden],
// [Heading], [Paragraph], [Image] and [Divider] for content, and
// [Honeypot] for the fields bots fill. A [FieldComponent] of your own takes
// [FieldProps] (the translated field, its control's id, the values to show,
// its error, the ids for aria-describedby) and replaces a type's default
// for one form (FormProps.Components) or for every form under a context
// ([WithRegistry]); [DefaultRegistry] lists the defaults.
//
// Texts built into the markup ("Send", "This field is required.") are in
// English ([DefaultTexts]); a schema's i18n overlay translates the form's own
// texts and these ([TextsFor]). The loading and error states, shown before
// there is a schema to translate them, also speak German, Spanish, French,
// Italian, Dutch and Portuguese, and so do the closed state and the refusal
// of a value already sent ([LocalText]).
package components
