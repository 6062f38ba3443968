package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/mail"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// Limits of the drafts routes.
const (
	maxDraftTokenBody = 1 << 10
	maxResumeURL      = 2048
	maxEmailAddress   = 254
)

// errNoDraft answers a token that finds no draft of the form.
var errNoDraft = &hub.Error{Status: http.StatusNotFound, Message: "no such draft: it expired, was sent, or the link is wrong"}

// keepsDrafts answers 404 for a form the hub keeps no drafts of.
func (s *Server) keepsDrafts(form *hub.Form) error {
	if s.cfg.Drafts == nil || !form.Schema.Meta.Resume {
		return &hub.Error{Status: http.StatusNotFound, Message: "this form keeps no drafts"}
	}
	return nil
}

// postDraft saves a form half filled (PROTOCOL.md §10, "Drafts"): a new
// draft, or over the one the request's token names, and answers the
// draft's new token. Its files are checked
// as a submission's, and held from the sweep while the draft lives. With an
// e-mail address the store has the link mailed, within the address's
// budget of the day.
func (s *Server) postDraft(c echo.Context) error {
	form := formOf(c)
	if err := s.keepsDrafts(form); err != nil {
		return err
	}
	var req hubclient.DraftRequest
	if err := s.readJSON(c, s.cfg.MaxBodyBytes, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	if err := s.checkOpen(ctx, form); err != nil {
		return err
	}
	if err := s.checkDraft(form, &req); err != nil {
		return err
	}
	for i := range req.Attachments {
		if err := s.checkUpload(ctx, form, &req.Attachments[i]); err != nil {
			if errors.Is(err, hub.ErrUploadClaim) {
				return hub.Errorf(http.StatusUnprocessableEntity, "%v", err)
			}
			return hub.Internal("checking a draft's file", err)
		}
	}
	payload, err := json.Marshal(req.Payload)
	if err != nil {
		return hub.Internal("encoding the draft", err)
	}
	now := s.cfg.Now()
	d := hub.Draft{
		Site: form.Site, Slug: form.Slug, Payload: payload, Step: req.Step, Attachments: req.Attachments,
		Locale: truncate(req.Locale, maxLocale), Email: req.Email, ResumeURL: req.ResumeURL,
		CreatedAt: now, UpdatedAt: now, ExpiresAt: now.Add(form.Settings.DraftTTL()),
	}
	if d.Attachments == nil {
		d.Attachments = []hubclient.Attachment{}
	}
	// Each save answers a new token and retires those before it, so that
	// only the latest holder reads the draft: not someone who saved it
	// first with another's address, whom the hub then mailed a link.
	token := hub.NewDraftToken()
	var mailed bool
	if req.Token == "" {
		d.ID = hub.NewID(now)
		mailed, err = s.cfg.Drafts.CreateDraft(ctx, d, hub.DraftHash(token))
	} else {
		mailed, err = s.cfg.Drafts.UpdateDraft(ctx, d, hub.DraftHash(req.Token), hub.DraftHash(token))
	}
	switch {
	case errors.Is(err, hub.ErrNotFound):
		return errNoDraft
	case errors.Is(err, hub.ErrUploadClaim):
		// Another draft or a submission took a file since it was checked.
		s.cfg.Logger.Info("draft refused", "site", form.Site, "form", form.Slug, "error", err)
		return &hub.Error{Status: http.StatusUnprocessableEntity, Message: "a file of the draft belongs to a submission or another draft"}
	case err != nil:
		return hub.Internal("saving a draft", err)
	}
	return c.JSON(http.StatusOK, hubclient.DraftResponse{OK: true, Token: token, ExpiresAt: d.ExpiresAt, Mailed: mailed})
}

// checkDraft checks what a draft holds against form, leaving out the
// honeypots: its values need not be complete or valid yet, but they must
// be the form's fields.
func (s *Server) checkDraft(form *hub.Form, req *hubclient.DraftRequest) error {
	for name := range req.Payload {
		if hubclient.IsHoneypot(name) {
			delete(req.Payload, name)
		}
	}
	fields := hub.ShapeProblems(form.Schema, req.Payload, req.Attachments)
	if len(fields) > 0 {
		return &hub.Error{Status: http.StatusUnprocessableEntity, Message: "the draft does not match the form", Fields: fields}
	}
	if req.Step != "" && form.Schema.Step(req.Step) == nil {
		return hub.Errorf(http.StatusUnprocessableEntity, "step %q: not a step of this form", req.Step)
	}
	if msg := checkAttachmentLimits(form.Settings, req.Attachments); msg != "" {
		return &hub.Error{Status: http.StatusUnprocessableEntity, Message: msg}
	}
	if req.Email == "" && req.ResumeURL == "" {
		return nil
	}
	if addr, err := mail.ParseAddress(req.Email); err != nil || addr.Name != "" || addr.Address != req.Email || len(req.Email) > maxEmailAddress {
		return &hub.Error{Status: http.StatusUnprocessableEntity, Message: "the draft does not match the form", Fields: map[string]string{"email": "not an e-mail address"}}
	}
	if msg := s.checkResumeURL(form, req.ResumeURL); msg != "" {
		return hub.Errorf(http.StatusUnprocessableEntity, "resumeUrl: %s", msg)
	}
	return nil
}

// checkResumeURL returns why the hub would not e-mail a link to page, or
// "": the link must lead to one of the form's allowed origins or to the
// form's own page on the hub, so that nobody can have the hub mail a link
// of their choosing.
func (s *Server) checkResumeURL(form *hub.Form, page string) string {
	u, err := url.Parse(page)
	switch {
	case page == "":
		return "missing: the page the link opens"
	case len(page) > maxResumeURL:
		return fmt.Sprintf("longer than %d bytes", maxResumeURL)
	case err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "" || u.User != nil:
		return "not an http or https URL"
	}
	origin := u.Scheme + "://" + u.Host
	if containsFold(form.Settings.AllowedOrigins, origin) {
		return ""
	}
	if own, err := url.Parse(s.cfg.HostedPages); err == nil && s.cfg.HostedPages != "" &&
		strings.EqualFold(own.Scheme+"://"+own.Host, origin) && u.Path == own.Path+form.Site+"/"+form.Slug {
		return ""
	}
	return origin + " is not one of the form's allowed origins (hub.allowedOrigins), nor the form's page on the hub"
}

// postDraftResume answers the draft a token names, to resume the form: the
// token comes in the body, as paths are logged.
func (s *Server) postDraftResume(c echo.Context) error {
	form := formOf(c)
	if err := s.keepsDrafts(form); err != nil {
		return err
	}
	var req hubclient.DraftTokenRequest
	if err := s.readJSON(c, maxDraftTokenBody, &req); err != nil {
		return err
	}
	if req.Token == "" {
		return errNoDraft
	}
	d, err := s.cfg.Drafts.DraftByToken(c.Request().Context(), form.Site, form.Slug, hub.DraftHash(req.Token), s.cfg.Now())
	switch {
	case errors.Is(err, hub.ErrNotFound):
		return errNoDraft
	case err != nil:
		return hub.Internal("reading a draft", err)
	}
	var payload map[string]any
	if err := json.Unmarshal(d.Payload, &payload); err != nil {
		return hub.Internal("decoding a draft", err)
	}
	return c.JSON(http.StatusOK, struct {
		OK bool `json:"ok"`
		hubclient.Draft
	}{true, hubclient.Draft{Payload: payload, Step: d.Step, Attachments: d.Attachments, ExpiresAt: d.ExpiresAt}})
}
