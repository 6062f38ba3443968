package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/captcha"
	"github.com/hubform/hubform/hubclient"
)

// maxUserAgent caps the user agent kept with a submission, maxLocale the
// locale.
const (
	maxUserAgent = 512
	maxLocale    = 35
)

// postSubmit stores a submission once it passed, in this order: the body's
// shape, the honeypots, the idempotency key, the schema, the captcha, the
// attachments. The captcha comes after the cheap checks because a token can
// be verified only once. A submission whose idempotency key the form's
// stored submissions already carry is answered with that one's id before
// anything else is checked: its captcha token was spent by the first send
// and its files, uploaded again, are not the first send's. The submission
// is committed before {ok:true} is sent.
func (s *Server) postSubmit(c echo.Context) error {
	form := formOf(c)
	var req hubclient.SubmitRequest
	if err := s.readJSON(c, s.cfg.MaxBodyBytes, &req); err != nil {
		return err
	}
	if trapped(req) {
		// PROTOCOL.md §4 rule 2: a bot is told it succeeded, and nothing is kept.
		return c.JSON(http.StatusOK, hubclient.SubmitResponse{OK: true})
	}
	ctx := c.Request().Context()
	release, err := s.holdKey(ctx, form, req.IdempotencyKey)
	defer release()
	if err != nil {
		return err
	}
	id, err := s.firstWithKey(ctx, form, req.IdempotencyKey)
	if err != nil {
		return err
	}
	if id != "" {
		return s.answerRepeat(c, form, id)
	}
	if err := s.checkOpen(ctx, form); err != nil {
		// Another hub may have stored the first send, taking the form's
		// last place, since the key was looked up.
		return s.repeatOr(c, form, req.IdempotencyKey, err)
	}
	for name := range req.Payload {
		if hubclient.IsHoneypot(name) {
			delete(req.Payload, name)
		}
	}
	if fields := hub.ValidatePayload(form.Schema, req.Payload, &req.Attachments); len(fields) > 0 {
		return &hub.Error{Status: http.StatusUnprocessableEntity, Message: "the submission does not match the form", Fields: fields}
	}
	if msg := checkAttachmentLimits(form.Settings, req.Attachments); msg != "" {
		return &hub.Error{Status: http.StatusUnprocessableEntity, Message: msg}
	}
	if err := s.verifyCaptcha(c, form, req.CaptchaToken); err != nil {
		return err
	}
	for i := range req.Attachments {
		if err := s.checkUpload(ctx, form, &req.Attachments[i]); err != nil {
			if errors.Is(err, hub.ErrUploadClaim) {
				// The same body sent again by another hub may have
				// claimed these uploads since the key was looked up.
				return s.repeatOr(c, form, req.IdempotencyKey, hub.Errorf(http.StatusUnprocessableEntity, "%v", err))
			}
			return hub.Internal("checking an attachment", err)
		}
	}
	if err := s.admit(ctx, form, req.Attachments); err != nil {
		return err
	}
	payload, err := json.Marshal(req.Payload)
	if err != nil {
		return hub.Internal("encoding the payload", err)
	}
	now := s.cfg.Now()
	sub := hub.Submission{
		ID: hub.NewID(now), Site: form.Site, Slug: form.Slug, CreatedAt: now,
		Payload: payload, Attachments: req.Attachments,
		ClientAddr: c.RealIP(), UserAgent: truncate(c.Request().UserAgent(), maxUserAgent),
		IdempotencyKey: req.IdempotencyKey, FormVersion: form.Version, Locale: truncate(req.Locale, maxLocale),
		Ending: hub.EndingOf(form.Schema, req.Payload, req.Attachments),
	}
	// A flagged submission is kept, out of the inbox, and counts toward no
	// limit; its sender is told it was received, as a bot should be.
	if sub.SpamReasons = s.spamReasons(form, req); len(sub.SpamReasons) > 0 {
		sub.Spam, sub.Held = true, true
	} else {
		sub.Limits = limitsOf(form, req.Payload)
	}
	if sub.Attachments == nil {
		sub.Attachments = []hubclient.Attachment{}
	}
	worked := hub.Work(form.Schema, req.Payload, req.Attachments)
	sub.Calculations = worked.Calculations
	// A store that keeps no summary is spared the tallies' cost.
	if _, ok := s.cfg.Store.(hub.Summaries); ok {
		sub.Tallies = hub.TalliesWith(form.Schema, req.Payload, worked.Calculations)
	}
	if req.Draft != "" {
		sub.DraftHash = hub.DraftHash(req.Draft)
	}
	if err := s.cfg.Store.CreateSubmission(ctx, sub); err != nil {
		var used *hub.KeyUsedError
		switch {
		case errors.As(err, &used):
			// Another hub on the database stored the same key first.
			return s.answerRepeat(c, form, used.SubmissionID)
		case errors.Is(err, hub.ErrUploadClaim):
			return s.repeatOr(c, form, req.IdempotencyKey, hub.Errorf(http.StatusUnprocessableEntity, "%v", err))
		case errors.Is(err, hub.ErrClosed):
			return s.repeatOr(c, form, req.IdempotencyKey, errClosed)
		case errors.Is(err, hub.ErrDuplicate):
			return s.repeatOr(c, form, req.IdempotencyKey, duplicate(form, err))
		}
		return hub.Internal("storing the submission", err)
	}
	res := hubclient.SubmitResponse{OK: true, SubmissionID: sub.ID, Ending: sub.Ending}
	res.Score, res.Answers = worked.Score, worked.Answers
	return c.JSON(http.StatusOK, res)
}

// trapped reports whether a honeypot holds a value, at the top level where
// the protocol puts them or in the payload where a careless client might.
func trapped(req hubclient.SubmitRequest) bool {
	for _, v := range req.Honeypots {
		if v != "" {
			return true
		}
	}
	for name, v := range req.Payload {
		if hubclient.IsHoneypot(name) && v != nil && v != "" {
			return true
		}
	}
	return false
}

// verifyCaptcha checks the token when the form asks for a captcha: 400 when
// it is missing, 403 when the provider refuses it, 503 when the hub cannot
// ask (it fails closed).
func (s *Server) verifyCaptcha(c echo.Context, form *hub.Form, token string) error {
	provider := form.Schema.Meta.CaptchaProvider
	if provider == "" {
		return nil
	}
	if token == "" {
		return &hub.Error{Status: http.StatusBadRequest, Message: "captcha token missing: complete the captcha and send again"}
	}
	secret := form.Settings.CaptchaSecret
	if secret == "" {
		secret = s.cfg.CaptchaSecrets[provider]
	}
	if secret == "" || s.cfg.Captcha == nil {
		s.cfg.Logger.Error("captcha not configured", slog.String("site", form.Site), slog.String("form", form.Slug), slog.String("provider", provider))
		return &hub.Error{Status: http.StatusServiceUnavailable, Message: "captcha cannot be verified: the hub has no secret for " + provider}
	}
	err := s.cfg.Captcha.Verify(c.Request().Context(), captcha.Request{
		Provider: provider, Secret: secret, Token: token, RemoteIP: c.RealIP(),
		MinScore: form.Settings.RecaptchaMinScore, Action: form.Settings.RecaptchaAction,
	})
	var refused *captcha.RefusedError
	switch {
	case errors.As(err, &refused):
		return &hub.Error{Status: http.StatusForbidden, Message: "captcha refused: " + refused.Error()}
	case err != nil:
		s.cfg.Logger.Warn("captcha verification failed", slog.String("provider", provider), slog.Any("error", err))
		return &hub.Error{Status: http.StatusServiceUnavailable, Message: "captcha cannot be verified right now; try again"}
	}
	return nil
}

// checkUpload checks an attachment against the upload this hub recorded for
// its key and fills in the recorded name. An upload the storage received
// without the hub seeing the PUT (an object store) is checked there and
// marked uploaded, and, when the storage is a Sealer, sealed by the one
// hub that marked it. The store's claim, made with the submission, settles
// races between submissions.
func (s *Server) checkUpload(ctx context.Context, form *hub.Form, a *hubclient.Attachment) error {
	refuse := func(why string) error { return fmt.Errorf("%w: %q %s", hub.ErrUploadClaim, a.Key, why) }
	u, err := s.cfg.Store.Upload(ctx, a.Key)
	switch {
	case errors.Is(err, hub.ErrNotFound) || err == nil && (u.Site != form.Site || u.Slug != form.Slug):
		return refuse("was not issued for this form")
	case err != nil:
		return err
	case u.SubmissionID != "":
		return refuse("already belongs to a submission")
	case u.Size != a.Size || u.MIME != a.MIME:
		return refuse("differs in size or type from the file uploaded")
	}
	a.Filename = u.Filename
	sealer, sealing := s.cfg.Blobs.(hub.Sealer)
	if !u.UploadedAt.IsZero() && !sealing {
		return nil // the hub stored the body itself
	}
	if u.UploadedAt.IsZero() {
		attributes := s.cfg.Blobs.Attributes
		if sealing {
			attributes = sealer.Staged
		}
		if err := checkStored(ctx, attributes, u); err != nil {
			return err
		}
		err := s.cfg.Store.MarkUploaded(ctx, a.Key, s.cfg.Now())
		switch {
		case err == nil && sealing:
			// Marking is the lock: only this hub seals the upload, once,
			// so the file cannot change after any submission accepted it.
			// Should it fail, the upload stays unusable, never wrong.
			if err := sealer.Seal(ctx, u); errors.Is(err, hub.ErrNotFound) {
				return refuse("has not been uploaded")
			} else if err != nil {
				return err
			}
			return nil
		case err == nil:
			return nil
		case !errors.Is(err, hub.ErrUploadClaim):
			return err
		}
		// Another submission marked it first, and seals it.
	}
	// Sealed by another submission, or being sealed: accepted once there.
	return checkStored(ctx, s.cfg.Blobs.Attributes, u)
}

// checkStored checks the size and type attributes gives for u's key
// against u's. It returns an error wrapping ErrUploadClaim when they are
// missing or differ, or the storage's error.
func checkStored(ctx context.Context, attributes func(context.Context, string) (int64, string, error), u hub.Upload) error {
	size, contentType, err := attributes(ctx, u.Key)
	switch {
	case errors.Is(err, hub.ErrNotFound):
		return fmt.Errorf("%w: %q has not been uploaded", hub.ErrUploadClaim, u.Key)
	case err != nil:
		return err
	case size != u.Size || contentType != u.MIME:
		return fmt.Errorf("%w: %q differs in size or type from the file uploaded", hub.ErrUploadClaim, u.Key)
	}
	return nil
}

// checkAttachmentLimits applies the form's limits on files to the
// attachments, as upload-url did before signing.
func checkAttachmentLimits(st hub.Settings, attachments []hubclient.Attachment) string {
	if len(attachments) > st.FilesLimit() {
		return fmt.Sprintf("%d files attached; this form takes at most %d", len(attachments), st.FilesLimit())
	}
	seen := make(map[string]bool, len(attachments))
	for _, a := range attachments {
		switch {
		case a.Key == "":
			return "an attachment has no key"
		case seen[a.Key]:
			return fmt.Sprintf("attachment %q is listed twice", a.Key)
		case a.Size > st.FileSizeLimit():
			return fmt.Sprintf("attachment %q is larger than this form's limit of %d bytes", a.Filename, st.FileSizeLimit())
		}
		seen[a.Key] = true
		if msg := st.CheckType(a.MIME); msg != "" {
			return msg
		}
	}
	return ""
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n-- // do not cut a UTF-8 sequence
	}
	return s[:n]
}

// admit asks Admission whether the form takes the submission: 429 once
// its owner reached their quota, with an error that begins with
// hubclient.QuotaReached so that a client can say so in words for people.
func (s *Server) admit(ctx context.Context, form *hub.Form, attachments []hubclient.Attachment) error {
	if s.cfg.Admission == nil {
		return nil
	}
	var bytes int64
	for _, a := range attachments {
		bytes += a.Size
	}
	err := s.cfg.Admission.Admit(ctx, form.Site, bytes)
	switch {
	case errors.Is(err, hub.ErrQuota):
		return &hub.Error{Status: http.StatusTooManyRequests, Message: hubclient.QuotaReached + ": this form takes no more submissions for now", Err: err}
	case err != nil:
		return hub.Internal("counting the quota", err)
	}
	return nil
}
