package handlers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"mime/multipart"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// Value names a post may carry for a captcha: ours, the legacy one, and the
// providers' own.
var captchaNames = []string{hubclient.TokenField, hubclient.LegacyTokenField, "cf-turnstile-response", "g-recaptcha-response"}

// submit takes a post of the form: values typed by the schema and checked
// against it, then delivered to the hub through the submit pipeline, files
// streamed from where the post spooled them. It answers the submitted
// state, or the form again with the values, the errors and a message for
// the visitor.
func (h *Handler) submit(c echo.Context) error {
	r := c.Request()
	f, reg, p, err := h.openForm(c)
	schema := p.InitialSchema
	if err != nil {
		h.cfg.Logger.Warn("submission failed: the form's schema cannot be fetched", "site", f.Site, "form", f.Slug, "error", err)
		h.reportError(r.Context(), f, reg, err)
		return h.respond(c, http.StatusBadGateway, p, components.LoadError(p, ""))
	}
	if schema.Meta.Closed {
		// The hub would refuse it: say so before any file is uploaded.
		h.cfg.Logger.Info("post refused: the form is closed", "site", f.Site, "form", f.Slug)
		return h.respond(c, http.StatusForbidden, p, components.Closed(p))
	}
	texts := components.TextsFor(schema, p.Locale)
	htmx := r.Header.Get("HX-Request") == "true"

	limitBody(c, h.cfg.MaxPostBytes)
	posted, files, err := h.readPost(r, schema)
	if r.MultipartForm != nil {
		defer r.MultipartForm.RemoveAll()
	}
	if err != nil {
		status, message := http.StatusBadRequest, texts.T("postUnreadable")
		if tooLarge(err) {
			status = http.StatusRequestEntityTooLarge
			message = strings.ReplaceAll(texts.T("postTooLarge"), "{max}", strconv.FormatInt(h.cfg.MaxPostBytes>>20, 10))
		}
		h.cfg.Logger.Info("post refused", "site", f.Site, "form", f.Slug, "error", err)
		p.State = components.State{SubmitError: message, FilesLost: !htmx}
		return h.respond(c, status, p, components.HubForm(p))
	}

	// A value the app signed comes back as signed, or the post is
	// refused below: the visitor changed it. A signature that holds is
	// kept by the form shown again.
	tampered, signedOK := h.stamps.tampered(f, r.PostFormValue(components.SignedField), posted, reg.SignedValues)
	if signedOK {
		p.Signed = r.PostFormValue(components.SignedField)
	}

	if op := r.PostFormValue(hubclient.GroupField); op != "" {
		return h.regroup(c, p, schema, posted, op, !htmx && len(files) > 0)
	}

	// A post repeats its rendering's key, so that the hub stores it once
	// however often it comes; the form shown again keeps it.
	key, timing := h.posted(&p, f, schema, r)
	draft := r.PostFormValue(hubclient.DraftField)
	uploaded, unsigned := h.uploaded(f, key, schema, posted)
	replaced(schema, files, uploaded)
	kept := h.kept(r.Context(), reg.client, f, draft, r.PostForm[hubclient.DraftKeepField])
	for _, a := range kept {
		if uploaded == nil {
			uploaded = map[string][]hubclient.Attachment{}
		}
		uploaded[a.Field] = append(uploaded[a.Field], a)
	}
	p.State = components.State{Values: shown(posted), FilesLost: !htmx && len(files) > 0, Draft: draft, Kept: kept}
	values, problems, err := typeValues(schema, posted, files, uploaded)
	if err != nil {
		return h.failed(c, f, reg, p, texts, err)
	}
	// Without JavaScript a question shown by an answer appears only now:
	// the form comes back for it, not sent without it.
	p.State.Revealed = components.Revealed(p, r.PostFormValue(components.LogicStateField))
	for _, name := range p.State.Revealed {
		delete(problems, name)
	}
	if len(tampered) > 0 {
		h.cfg.Logger.Info("post refused: a signed value was changed", "site", f.Site, "form", f.Slug, "fields", tampered)
		p.State.Errors = map[string]string{}
		for _, name := range tampered {
			if schema.Field(name) != nil {
				p.State.Errors[name] = texts.T("submitRefused")
			}
		}
		p.State.SubmitError = texts.T("submitRefused")
		return h.respond(c, http.StatusUnprocessableEntity, p, components.HubForm(p))
	}
	if len(problems) > 0 || len(unsigned) > 0 || len(p.State.Revealed) > 0 {
		if !htmx {
			held := h.heldBefore(f, key, schema, uploaded, kept)
			p.State.Held, p.State.FilesLost = h.hold(c, f, reg, key, schema, files, held)
		}
		local := components.Localize(schema, p.Locale).Schema
		p.State.Errors = make(map[string]string, len(problems)+len(unsigned))
		for name, problem := range problems {
			p.State.Errors[name] = problem.Text(local.Field(name), texts.T)
		}
		// A file the app cannot vouch for is not sent without a word.
		for _, name := range unsigned {
			p.State.Errors[name] = texts.T("chooseAgain")
		}
		return h.respond(c, http.StatusUnprocessableEntity, p, components.HubForm(p))
	}

	plugins, err := pluginsFor(schema)
	if err != nil {
		return h.failed(c, f, reg, p, texts, err)
	}
	ctx, cancel := context.WithTimeout(r.Context(), h.cfg.SubmitTimeout)
	defer cancel()
	sub := hubclient.Submission{Values: values, Locale: p.Locale, Draft: draft, Visitor: h.visitor(c)}
	if timing.Stamp != hubclient.StampMissing || !h.cfg.PlainFormPosts {
		sub.Timing = &timing
	}
	if key != "" {
		sub.Values = maps.Clone(values)
		sub.Values[hubclient.IdempotencyKeyField] = key
	}
	res, err := hubclient.NewSubmitter(hubclient.SubmitOptions{
		HubURL: reg.client.HubURL, SiteID: f.Site, FormSlug: f.Slug, HTTPClient: h.cfg.HTTPClient, Plugins: plugins,
	}).Submit(ctx, sub)
	if err != nil {
		return h.failed(c, f, reg, p, texts, err)
	}
	h.succeeded(ctx, f, reg, withAttachments(values, res.Attachments))
	// The hub chose the ending, if the answers reached one: its page, or
	// else its panel, stands in for the form's own.
	to := schema.Meta.Redirect()
	if ending := schema.Ending(res.Ending); ending != nil {
		to = ending.Redirect(values)
	}
	if to != "" {
		return redirect(c, to, htmx)
	}
	// The ending's texts may recall the answers sent.
	p.State = components.State{Ending: res.Ending, Score: res.Score, Answers: res.Answers, Values: shown(posted)}
	return h.respond(c, http.StatusOK, p, components.Submitted(p))
}

// redirect sends the visitor to the form's own thank-you page: htmx by
// HX-Redirect, which it follows as a navigation, a post without
// JavaScript by a 303, which the browser follows with a GET.
func redirect(c echo.Context, to string, htmx bool) error {
	c.Response().Header().Set("Cache-Control", "no-store")
	c.Response().Header().Add("Vary", "HX-Request")
	if htmx {
		c.Response().Header().Set("HX-Redirect", to)
		return c.NoContent(http.StatusOK)
	}
	return c.Redirect(http.StatusSeeOther, to)
}

// failed reports a failed submission once, to the log and OnError, and
// shows the form again with a message for people, so they can retry; or,
// for a form the hub says is closed, the closed state.
func (h *Handler) failed(c echo.Context, f Form, reg registered, p components.HubFormProps, texts components.Texts, err error) error {
	h.cfg.Logger.Warn("submission failed", "site", f.Site, "form", f.Slug, "error", err)
	h.reportError(c.Request().Context(), f, reg, err)
	if errors.Is(err, hubclient.ErrFormClosed) {
		return h.respond(c, http.StatusForbidden, p, components.Closed(p))
	}
	status := http.StatusBadGateway
	var hubErr *hubclient.HubError
	if errors.As(err, &hubErr) && len(hubErr.Fields) > 0 {
		p.State.Errors = hubErr.Fields
	}
	p.State.SubmitError = texts.T(failureText(err))
	if errors.Is(err, hubclient.ErrDuplicate) {
		status = http.StatusConflict
		p.State.Errors, p.State.SubmitError = duplicates(p, hubErr.Fields)
	}
	return h.respond(c, status, p, components.HubForm(p))
}

// duplicates returns the errors of a submission the hub refused for a
// value already sent: the built-in text, in the form's locale rather than
// in the hub's words, beside each field named that the form has, or in
// the error panel when it has none of them.
func duplicates(p components.HubFormProps, fields map[string]string) (map[string]string, string) {
	text := components.LocalText(p.InitialSchema, p.Locale, "duplicate")
	errs := map[string]string{}
	for name := range fields {
		if p.InitialSchema.Field(name) != nil {
			errs[name] = text
		}
	}
	if len(errs) == 0 {
		return nil, text
	}
	return errs, ""
}

// posted reads what a post of form f carries of its rendering: its key,
// which the form shown again keeps, as a repeated post must (the key is
// empty when the post's is not one), and the time trap's timing, whose
// valid stamp the form shown again keeps too, so that fixing a field is not
// taken for a bot's haste. It counts the post for the funnel.
func (h *Handler) posted(p *components.HubFormProps, f Form, schema *hubclient.Schema, r *http.Request) (string, hubclient.Timing) {
	key := r.PostFormValue(hubclient.IdempotencyKeyField)
	if hubclient.CheckIdempotencyKey(key) != nil {
		key = ""
	}
	p.SubmissionKey = cmp.Or(key, p.SubmissionKey)
	h.countPost(f, schema, key, r)
	timing := h.stamps.timing(f, r.PostFormValue(components.StampField))
	if timing.Stamp == hubclient.StampValid {
		p.Stamp = r.PostFormValue(components.StampField)
	}
	return key, timing
}

// readPost parses a multipart or URL-encoded post, spooling files beyond
// MaxMemory to disk, and returns the values of the names the schema knows
// (with the keys of composite fields' parts), and the captcha's.
func (h *Handler) readPost(r *http.Request, schema *hubclient.Schema) (map[string][]string, map[string][]*multipart.FileHeader, error) {
	var files map[string][]*multipart.FileHeader
	if strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/") {
		if err := r.ParseMultipartForm(h.cfg.MaxMemory); err != nil {
			return nil, nil, err
		}
		files = r.MultipartForm.File
	} else if err := r.ParseForm(); err != nil {
		return nil, nil, err
	}
	posted := knownKeys(schema, r.PostForm)
	for _, name := range captchaNames {
		if v, ok := r.PostForm[name]; ok {
			posted[name] = v
		}
	}
	return posted, files, nil
}

// knownKeys returns the values of form under the names the schema knows,
// and the keys of its composite fields' parts ("addr.city").
func knownKeys(schema *hubclient.Schema, form url.Values) map[string][]string {
	posted := map[string][]string{}
	for key, v := range form {
		if schema.KeyOf(key) != nil {
			posted[key] = v
		}
	}
	return posted
}

// typeValues turns a post into the values of the schema's fields, typed as
// the hub expects them: text, a list for checkboxes, a boolean for a
// checkbox, a number, files. Values of names the schema does not know are
// dropped, except a captcha's token, and so are the values of fields the
// schema's conditions hide. It returns the problem of each field whose
// value breaks a rule, judged as the hub judges it.
func typeValues(schema *hubclient.Schema, posted map[string][]string, files map[string][]*multipart.FileHeader, uploaded map[string][]hubclient.Attachment) (map[string]any, map[string]hubclient.Problem, error) {
	logic, err := hubclient.Compile(schema)
	if err != nil {
		return nil, nil, fmt.Errorf("the form's rules: %w", err)
	}
	values := make(map[string]any, len(schema.Fields)+1)
	judged := make(map[string]any, len(schema.Fields))
	for i := range schema.Fields {
		f := &schema.Fields[i]
		first := ""
		if v := posted[f.Name]; len(v) > 0 {
			first = v[0]
		}
		switch {
		case hubclient.IsHoneypot(f.Name):
			values[f.Name] = first
			continue
		case !f.TypeOf().HasValue():
			continue
		case f.TypeOf().IsFiles() || f.TypeOf().TakesFiles() && len(files[f.Name])+len(uploaded[f.Name]) > 0:
			// Files posted, and files the browser uploaded (their tickets);
			// a signature's drawing.
			var chosen []any
			names := []string{}
			for _, fh := range files[f.Name] {
				chosen, names = append(chosen, fh), append(names, fh.Filename)
			}
			for _, a := range uploaded[f.Name] {
				chosen, names = append(chosen, a), append(names, a.Filename)
			}
			judged[f.Name] = names
			if len(chosen) > 0 {
				values[f.Name] = chosen
			}
			continue
		}
		v, ok := f.ValueIn(posted)
		if !ok {
			v = f.Value(nil)
		}
		values[f.Name] = v
		judged[f.Name] = v
	}
	outcome, problems := logic.Check(judged)
	problems = checkDrawings(schema, outcome, files, problems)
	outcome.Drop(values)
	for _, name := range captchaNames {
		if v := posted[name]; len(v) > 0 && v[0] != "" {
			values[name] = v[0]
		}
	}
	return values, problems, nil
}

// shown returns the posted values to show again in the form: everything
// but the captcha's one-time tokens.
func shown(posted map[string][]string) map[string][]string {
	out := make(map[string][]string, len(posted))
	for k, v := range posted {
		out[k] = v
	}
	for _, name := range captchaNames {
		delete(out, name)
	}
	return out
}

// pluginsFor wires the captcha the schema names.
func pluginsFor(schema *hubclient.Schema) (*hubclient.PluginManager, error) {
	provider := schema.Meta.CaptchaProvider
	if provider == "" {
		return nil, nil
	}
	captcha, err := hubclient.NewCaptchaPlugin(provider, schema.Meta.CaptchaSiteKey)
	if err != nil {
		return nil, err
	}
	return hubclient.NewPluginManager(captcha), nil
}
