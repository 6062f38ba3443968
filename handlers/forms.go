package handlers

import (
	"cmp"
	"context"
	"crypto/rand"
	"net/url"

	"github.com/a-h/templ"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/hubclient"
)

// Form names a form: its site and slug on the hub. It is hubclient.FormID
// under the name the handlers' callbacks use.
type Form = hubclient.FormID

// FormOptions are a host's settings for one form, registered in
// Config.Forms. They hold wherever the form is rendered: on the page
// (Props, PropsFor) and on the routes that render it again, the load route
// behind the loading state and the submit route after every post. A form
// that is not registered gets the zero FormOptions: Config's hub and
// callbacks, the built-in states.
type FormOptions struct {
	// HubURL is the hub serving the form; empty means Config.HubURL. One
	// Handler can serve forms of several hubs, one hub per site and slug.
	HubURL string
	// CountsToken is the API token the form's counts carry to its hub
	// (Config.CountsToken); empty means Config.CountsToken when the form's
	// hub is Config's, and none for another hub.
	CountsToken string
	// LoadingFallback, ErrorFallback, UnconfiguredFallback,
	// SuccessFallback and ClosedFallback replace the built-in states, as
	// the props of the same names do (components.HubFormProps).
	LoadingFallback      templ.Component
	ErrorFallback        func(message string) templ.Component
	UnconfiguredFallback templ.Component
	SuccessFallback      templ.Component
	ClosedFallback       templ.Component
	// FormProps style the form and replace its field components.
	FormProps components.FormProps
	// OnSuccess is called once per submission of this form that the hub
	// accepted, before Config.OnSuccess.
	OnSuccess func(ctx context.Context, form Form, values map[string]any)
	// OnError is called once per submission of this form that failed,
	// before Config.OnError.
	OnError func(ctx context.Context, form Form, err error)
	// SignedValues names hidden fields whose value only the app sets,
	// signed (WithValues with Signed): the page's query never fills
	// them, and a post that carries a value for one that no signature of
	// the app holds for is refused.
	SignedValues []string
}

// registered is a form's options with the client of its hub, and the
// token its counts carry there.
type registered struct {
	FormOptions
	client      *hubclient.Client
	countsToken string
}

// registerForms makes the client of every hub the forms name, one per hub.
func (h *Handler) registerForms() {
	clients := map[string]*hubclient.Client{h.client.HubURL: h.client}
	h.forms = make(map[Form]registered, len(h.cfg.Forms))
	for f, o := range h.cfg.Forms {
		hub := cmp.Or(o.HubURL, h.client.HubURL)
		if clients[hub] == nil {
			clients[hub] = &hubclient.Client{HubURL: hub, HTTPClient: h.cfg.HTTPClient}
		}
		token := o.CountsToken
		if token == "" && hub == h.client.HubURL {
			token = h.cfg.CountsToken
		}
		h.forms[f] = registered{FormOptions: o, client: clients[hub], countsToken: token}
	}
}

// form returns the options of f: its registration, else the defaults.
func (h *Handler) form(f Form) registered {
	if r, ok := h.forms[f]; ok {
		return r
	}
	return registered{client: h.client, countsToken: h.cfg.CountsToken}
}

// props returns the props of a form as registered, with this handler's
// routes, a fresh submission key and stamp, and no schema yet.
func (h *Handler) props(f Form, r registered, locale string) components.HubFormProps {
	base := h.cfg.Prefix + "/" + url.PathEscape(f.Site) + "/" + url.PathEscape(f.Slug)
	upload, event := base+"/upload-url", base+"/event"
	if h.cfg.PostFiles {
		upload = ""
	}
	if h.counter == nil {
		event = ""
	}
	return components.HubFormProps{
		SiteID: f.Site, FormSlug: f.Slug, Locale: locale,
		LoadingFallback: r.LoadingFallback, ErrorFallback: r.ErrorFallback,
		UnconfiguredFallback: r.UnconfiguredFallback, SuccessFallback: r.SuccessFallback, ClosedFallback: r.ClosedFallback,
		FormProps:     r.FormProps,
		Routes:        components.Routes{Load: base, Submit: base + "/submit", Save: base + "/save", Logic: base + "/logic", Upload: upload, Event: event, TurnstileScript: h.cfg.TurnstileScript},
		SubmissionKey: newSubmissionKey(),
		Stamp:         h.stamps.stamp(f),
	}
}

// newSubmissionKey returns a fresh key for one rendering of a form.
func newSubmissionKey() string { return rand.Text() }

// succeeded calls the form's OnSuccess, then the handler's.
func (h *Handler) succeeded(ctx context.Context, f Form, r registered, values map[string]any) {
	for _, fn := range []func(context.Context, Form, map[string]any){r.OnSuccess, h.cfg.OnSuccess} {
		if fn != nil {
			fn(ctx, f, values)
		}
	}
}

// reportError calls the form's OnError, then the handler's.
func (h *Handler) reportError(ctx context.Context, f Form, r registered, err error) {
	for _, fn := range []func(context.Context, Form, error){r.OnError, h.cfg.OnError} {
		if fn != nil {
			fn(ctx, f, err)
		}
	}
}
