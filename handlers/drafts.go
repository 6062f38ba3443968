package handlers

import (
	"context"
	"errors"
	"maps"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// AutosaveField marks the script's save of a form as the visitor moves
// between steps: it is answered with JSON, not a page.
const AutosaveField = "_hubformAutosave"

// autosaved is the answer to an autosave.
type autosaved struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// save keeps a form half filled as a draft on the hub (PROTOCOL.md §10,
// "Drafts"): the values posted, the step the visitor is on, the files
// uploaded or posted and the files of the draft continued that are kept.
// Asked with an e-mail address, the hub mails the visitor a link to the
// page; the form is shown again, saved, with the link. The script's
// autosave is answered with the draft's token alone.
func (h *Handler) save(c echo.Context) error {
	r := c.Request()
	f, reg, p, err := h.openForm(c)
	schema := p.InitialSchema
	// The script asks for JSON; its post also says so, for a proxy that
	// drops the header.
	autosave := strings.HasPrefix(r.Header.Get("Accept"), echo.MIMEApplicationJSON)
	if err != nil {
		h.cfg.Logger.Warn("draft not saved: the form's schema cannot be fetched", "site", f.Site, "form", f.Slug, "error", err)
		if autosave {
			return c.NoContent(http.StatusBadGateway)
		}
		return h.respond(c, http.StatusBadGateway, p, components.LoadError(p, ""))
	}
	if schema.Meta.Closed {
		if autosave {
			return c.NoContent(http.StatusForbidden)
		}
		return h.respond(c, http.StatusForbidden, p, components.Closed(p))
	}
	texts := components.TextsFor(schema, p.Locale)
	limitBody(c, h.cfg.MaxPostBytes)
	posted, files, err := h.readPost(r, schema)
	if r.MultipartForm != nil {
		defer r.MultipartForm.RemoveAll()
	}
	if err != nil {
		h.cfg.Logger.Info("draft not saved: the post cannot be read", "site", f.Site, "form", f.Slug, "error", err)
		if autosave {
			return c.NoContent(statusOf(err))
		}
		p.State = components.State{SaveError: texts.T("saveFailed")}
		return h.respond(c, statusOf(err), p, components.HubForm(p))
	}
	autosave = autosave || r.PostFormValue(AutosaveField) != ""
	if !schema.Meta.Resume {
		// Drafts were turned off since the page was shown: the form comes
		// back as it was sent, to be sent.
		h.cfg.Logger.Info("draft not saved: the form keeps no drafts", "site", f.Site, "form", f.Slug)
		if autosave {
			return c.NoContent(http.StatusNotFound)
		}
		p.State = components.State{Values: shown(posted), SaveError: texts.T("saveFailed"), FilesLost: len(files) > 0}
		return h.respond(c, http.StatusNotFound, p, components.HubForm(p))
	}
	key, _ := h.posted(&p, f, schema, r)
	ctx, cancel := context.WithTimeout(r.Context(), h.cfg.SubmitTimeout)
	defer cancel()
	client := h.clientFor(c, reg)

	token := r.PostFormValue(hubclient.DraftField)
	uploaded, _ := h.uploaded(f, key, schema, posted)
	attachments := h.kept(ctx, client, f, token, r.PostForm[hubclient.DraftKeepField])
	for _, field := range schema.Fields {
		attachments = append(attachments, uploaded[field.Name]...)
	}
	sent, err := uploadPosted(ctx, client, f, schema, files)
	if err != nil {
		h.cfg.Logger.Warn("draft not saved: a file could not be uploaded", "site", f.Site, "form", f.Slug, "error", err)
		if autosave {
			return c.NoContent(http.StatusBadGateway)
		}
		p.State = components.State{Values: shown(posted), Draft: token, SaveError: texts.T("saveFailed"), FilesLost: true}
		return h.respond(c, http.StatusBadGateway, p, components.HubForm(p))
	}
	attachments = append(attachments, sent...)

	req := hubclient.DraftRequest{
		Token: token, Payload: draftPayload(schema, posted), Step: r.PostFormValue(hubclient.DraftStepField),
		Attachments: attachments, Locale: p.Locale,
	}
	if schema.Step(req.Step) == nil {
		req.Step = ""
	}
	page := r.PostFormValue(hubclient.DraftPageField)
	email := strings.TrimSpace(r.PostFormValue(hubclient.DraftEmailField))
	if !autosave && email != "" {
		req.Email, req.ResumeURL = email, page
	}
	res, err := h.saveDraft(ctx, client, f, req)
	p.State = components.State{Values: shown(posted), Draft: token, Kept: attachments, Step: req.Step}
	var hubErr *hubclient.HubError
	switch {
	case err == nil:
	case errors.As(err, &hubErr) && hubErr.Fields["email"] != "":
		p.State.Errors = map[string]string{hubclient.DraftEmailField: texts.T("invalidEmail")}
		return h.respond(c, http.StatusUnprocessableEntity, p, components.HubForm(p))
	default:
		h.cfg.Logger.Warn("draft not saved", "site", f.Site, "form", f.Slug, "error", err)
		h.reportError(ctx, f, reg, err)
		if autosave {
			return c.NoContent(http.StatusBadGateway)
		}
		p.State.SaveError = texts.T("saveFailed")
		return h.respond(c, http.StatusBadGateway, p, components.HubForm(p))
	}
	if autosave {
		return c.JSON(http.StatusOK, autosaved{Token: res.Token, ExpiresAt: res.ExpiresAt})
	}
	link, err := hubclient.ResumeLink(page, res.Token)
	if err != nil || page == "" {
		link = ""
	}
	p.State.Draft = res.Token
	p.State.Saved = &components.Saved{Email: email, Mailed: res.Mailed, Link: link, ExpiresAt: res.ExpiresAt}
	return h.respond(c, http.StatusOK, p, components.HubForm(p))
}

// saveDraft saves req, starting a new draft when the one it continues is
// gone, and saving without the e-mail when the hub will not mail the link
// to the page: the visitor is shown it instead. Nothing typed is lost.
func (h *Handler) saveDraft(ctx context.Context, client *hubclient.Client, f Form, req hubclient.DraftRequest) (hubclient.DraftResponse, error) {
	res, err := client.SaveDraft(ctx, f.Site, f.Slug, req)
	if hubclient.NoDraft(err) && req.Token != "" {
		req.Token = ""
		res, err = client.SaveDraft(ctx, f.Site, f.Slug, req)
	}
	var hubErr *hubclient.HubError
	if errors.As(err, &hubErr) && hubErr.StatusCode == http.StatusUnprocessableEntity && strings.HasPrefix(hubErr.Message, "resumeUrl") {
		h.cfg.Logger.Warn("the hub will not e-mail a draft's link to this page: add its origin to the form's allowedOrigins", "site", f.Site, "form", f.Slug, "origin", originOf(req.ResumeURL), "error", err)
		req.Email, req.ResumeURL = "", ""
		res, err = client.SaveDraft(ctx, f.Site, f.Slug, req)
	}
	return res, err
}

// kept returns the files of the draft token names whose keys the post
// keeps: the hub's record of them, never the post's word.
func (h *Handler) kept(ctx context.Context, client *hubclient.Client, f Form, token string, keys []string) []hubclient.Attachment {
	if token == "" || len(keys) == 0 {
		return nil
	}
	d, err := client.Draft(ctx, f.Site, f.Slug, token)
	if err != nil {
		h.cfg.Logger.Info("a draft's files are not kept: the draft cannot be read", "site", f.Site, "form", f.Slug, "error", err)
		return nil
	}
	var out []hubclient.Attachment
	for _, a := range d.Attachments {
		if slices.Contains(keys, a.Key) {
			out = append(out, a)
		}
	}
	return out
}

// uploadPosted uploads the files a post without JavaScript carried, and a
// signature's drawing, so that the draft keeps them.
func uploadPosted(ctx context.Context, client *hubclient.Client, f Form, schema *hubclient.Schema, files map[string][]*multipart.FileHeader) ([]hubclient.Attachment, error) {
	var out []hubclient.Attachment
	for _, field := range schema.Fields {
		if !field.TypeOf().IsFiles() && !field.TypeOf().TakesFiles() {
			continue
		}
		for _, fh := range files[field.Name] {
			if fh.Size == 0 && fh.Filename == "" {
				continue
			}
			a, err := client.Upload(ctx, f.Site, f.Slug, hubclient.FileFromHeader(fh))
			if err != nil {
				return nil, err
			}
			a.Field = field.Name
			out = append(out, a)
		}
	}
	return out, nil
}

// draftPayload returns the values of a post a draft keeps: the fields'
// text as typed, a list for a field of several values, an object of its
// parts for a composite field; no files, no honeypots.
func draftPayload(schema *hubclient.Schema, posted map[string][]string) map[string]any {
	out := map[string]any{}
	for _, field := range schema.Fields {
		v, ok := posted[field.Name]
		switch {
		case field.TypeOf().IsComposite() || field.TypeOf().IsGroup():
			if v, ok := field.ValueIn(posted); ok {
				out[field.Name] = v
			}
		case !ok || field.TypeOf().IsFiles() || !field.TypeOf().HasValue() || hubclient.IsHoneypot(field.Name):
		case field.TypeOf().IsList() || len(v) > 1:
			out[field.Name] = slices.Clone(v)
		default:
			out[field.Name] = v[0]
		}
	}
	return out
}

// restore fills p from the draft token names, for a page opened with the
// draft's link: its values, step and files, and the token, which the
// form's post carries so that sending it finishes the draft. A draft
// gone is said so on the form.
func (h *Handler) restore(ctx context.Context, p *components.HubFormProps, f Form, token string) {
	d, err := h.form(f).client.Draft(ctx, f.Site, f.Slug, token)
	switch {
	case hubclient.NoDraft(err):
		p.State.DraftGone = true
		return
	case err != nil:
		h.cfg.Logger.Warn("a draft cannot be read", "site", f.Site, "form", f.Slug, "error", err)
		p.State.DraftGone = true
		return
	}
	values := url.Values{}
	for name, v := range d.Payload {
		switch v := v.(type) {
		case string:
			values.Set(name, v)
		case []any:
			if field := p.InitialSchema.Field(name); field != nil && field.TypeOf().IsGroup() {
				// A group's items' fields, each under its own key again.
				maps.Copy(values, field.PostedTexts(v))
				continue
			}
			values[name] = []string{}
			for _, s := range v {
				if s, ok := s.(string); ok {
					values.Add(name, s)
				}
			}
		case map[string]any:
			// A composite field's parts, each under its own key again.
			if field := p.InitialSchema.Field(name); field != nil {
				maps.Copy(values, field.PostedTexts(v))
			}
		}
	}
	p.State.Values, p.State.Step, p.State.Draft, p.State.Kept = values, d.Step, token, d.Attachments
}

// pageURL returns the address of the page of c's request without a
// draft's token, at PageOrigin when it is set: the page a draft's link
// opens.
func (h *Handler) pageURL(c echo.Context) string {
	u := *c.Request().URL
	q := u.Query()
	q.Del(hubclient.DraftParam)
	u.RawQuery = q.Encode()
	u.Scheme, u.Host = c.Scheme(), c.Request().Host
	if origin, err := url.Parse(h.cfg.PageOrigin); err == nil && h.cfg.PageOrigin != "" {
		u.Scheme, u.Host = origin.Scheme, origin.Host
	}
	return u.String()
}

// originOf is the origin of the page at link, all a log line names of it:
// a page's address may carry a token in its query.
func originOf(link string) string {
	u, err := url.Parse(link)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
