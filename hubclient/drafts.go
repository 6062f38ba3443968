package hubclient

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"
)

// Value names of a form's post that save it as a draft, or finish one
// (PROTOCOL.md §10, "Drafts"). The pipeline sends none of them to the hub.
const (
	// DraftField holds the token of the draft the form continues.
	DraftField = "_hubformDraft"
	// DraftEmailField holds the address the visitor asks the link at.
	DraftEmailField = "_hubformDraftEmail"
	// DraftStepField holds the id of the step the visitor is on.
	DraftStepField = "_hubformDraftStep"
	// DraftPageField holds the address of the page the form is on, which
	// the link opens.
	DraftPageField = "_hubformPage"
	// DraftKeepField holds, once per file, the key of a file the draft
	// kept that the visitor keeps.
	DraftKeepField = "_hubformKeep"
)

// DraftParam is the query parameter of a page's address that carries a
// draft's token: the link a hub e-mails is the resume URL with it added.
const DraftParam = "draft"

// DraftRequest is the body of the drafts route (PROTOCOL.md §10,
// "Drafts"): a form half filled, kept by the hub so that the visitor
// finishes it later, on this device or another.
type DraftRequest struct {
	// Token, when set, saves over the draft it names; empty starts a new
	// one.
	Token string `json:"token,omitempty"`
	// Payload holds the values entered so far, as a submission's would.
	Payload map[string]any `json:"payload"`
	// Step is the id of the step the visitor is on; empty for the first.
	Step string `json:"step,omitempty"`
	// Attachments are files uploaded already, kept with the draft.
	Attachments []Attachment `json:"attachments,omitempty"`
	// Locale is the locale the visitor used, for the e-mail.
	Locale string `json:"locale,omitempty"`
	// Email, when set, has the hub e-mail the visitor a link to the draft:
	// ResumeURL with DraftParam added. The hub sends a few such e-mails to
	// one address a day at the most, and only links to the form's allowed
	// origins or its own page.
	Email     string `json:"email,omitempty"`
	ResumeURL string `json:"resumeUrl,omitempty"`
}

// DraftResponse is the answer of the drafts route.
type DraftResponse struct {
	OK bool `json:"ok"`
	// Token names the draft from now on: each save answers a new one and
	// retires those before it, the request's among them, so a client keeps
	// it in place of the one it sent. The hub keeps only a hash of it, so
	// it cannot be sent again.
	Token string `json:"token"`
	// ExpiresAt is when the hub deletes the draft unless it is saved again.
	ExpiresAt time.Time `json:"expiresAt"`
	// Mailed says the e-mail with the link is on its way.
	Mailed bool `json:"mailed,omitempty"`
}

// Draft is a draft as the hub answers it to resume the form.
type Draft struct {
	Payload     map[string]any `json:"payload"`
	Step        string         `json:"step,omitempty"`
	Attachments []Attachment   `json:"attachments,omitempty"`
	ExpiresAt   time.Time      `json:"expiresAt"`
}

// DraftTokenRequest is the body of the route that reads a draft: the token
// travels in the body, not in an address a server would log.
type DraftTokenRequest struct {
	Token string `json:"token"`
}

// SaveDraft keeps a form half filled with POST {base}/drafts, an extension
// of the protocol. A hub without drafts, or that no longer has the draft
// req.Token names, answers 404: see NoDraft.
func (c *Client) SaveDraft(ctx context.Context, site, slug string, req DraftRequest) (DraftResponse, error) {
	base, err := c.FormURL(site, slug)
	if err != nil {
		return DraftResponse{}, err
	}
	if req.Payload == nil {
		req.Payload = map[string]any{}
	}
	var res DraftResponse
	if err := c.do(ctx, http.MethodPost, base+"/drafts", req, maxAnswerBytes, &res); err != nil {
		return DraftResponse{}, err
	}
	if !res.OK || res.Token == "" {
		return DraftResponse{}, errors.New(`drafts: answer has no token`)
	}
	return res, nil
}

// Draft reads the draft token names with POST {base}/drafts/resume. A
// draft unknown, expired or sent already, and a hub without drafts, answer
// 404: see NoDraft.
func (c *Client) Draft(ctx context.Context, site, slug, token string) (Draft, error) {
	base, err := c.FormURL(site, slug)
	if err != nil {
		return Draft{}, err
	}
	var res struct {
		OK bool `json:"ok"`
		Draft
	}
	if err := c.do(ctx, http.MethodPost, base+"/drafts/resume", DraftTokenRequest{Token: token}, maxAnswerBytes, &res); err != nil {
		return Draft{}, err
	}
	if !res.OK {
		return Draft{}, errors.New(`drafts: answer says "ok": false`)
	}
	if res.Payload == nil {
		res.Payload = map[string]any{}
	}
	return res.Draft, nil
}

// NoDraft reports whether err, from SaveDraft or Draft, says the hub has
// no such draft: it answered 404, as a hub without drafts does too.
func NoDraft(err error) bool {
	var hubErr *HubError
	return errors.As(err, &hubErr) && hubErr.StatusCode == http.StatusNotFound
}

// ResumeLink returns page with the draft's token added as DraftParam,
// replacing one there already: the link that resumes the draft.
func ResumeLink(page, token string) (string, error) {
	u, err := url.Parse(page)
	if err != nil {
		return "", err
	}
	q := u.Query()
	q.Set(DraftParam, token)
	u.RawQuery = q.Encode()
	return u.String(), nil
}
