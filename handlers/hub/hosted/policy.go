package hosted

import (
	"crypto/rand"
	"net/url"
	"slices"
	"strings"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// The script and frame origins of reCAPTCHA v3: its script, the script
// that loads, and the invisible frame it runs in.
const (
	recaptchaScripts = "https://www.google.com https://www.gstatic.com"
	recaptchaFrames  = "https://www.google.com https://recaptcha.google.com"
)

// newNonce returns a nonce for one answer: the page's inline style, the
// loader of HubForm's scripts and the scripts it adds carry it.
func newNonce() string { return rand.Text() }

// policy returns the Content-Security-Policy of an answer about form f,
// whose inline elements carry nonce. Scripts come from the hub alone, and
// from the captcha provider the form uses, if any: nothing else runs in a
// page where visitors type. Scripts connect to the hub, and to the bucket
// that takes files (Config.UploadOrigins). Pictures come from the hub and
// from where the form's own pictures are. Posts go to the hub only. The
// page is made to be shown in an iframe of the owner's site, whichever it
// is, so any site may frame it, unless the form lists the sites that may
// (embedOrigins): then the hub and those alone, so that no other site can
// dress it up to take clicks. A form
// that sends the visitor to a page of its own after a submission, or one
// of its endings does, may post to that page's origin too: browsers hold a
// post's redirect to form-action. f may be nil: an answer about no form.
func (p *Pages) policy(nonce string, f *hub.Form) string {
	scripts, frames := []string{"'self'", "'nonce-" + nonce + "'"}, []string{}
	ancestors, posts, images := []string{"*"}, []string{"'self'"}, []string{"'self'", "data:"}
	if f != nil {
		images = append(images, imageOrigins(f.Schema)...)
		if to := origin(f.Schema.Meta.Redirect()); to != "" {
			posts = append(posts, to)
		}
		for i := range f.Schema.Endings {
			if to := origin(f.Schema.Endings[i].Redirect(nil)); to != "" && !slices.Contains(posts, to) {
				posts = append(posts, to)
			}
		}
		switch f.Schema.Meta.CaptchaProvider {
		case hubclient.CaptchaTurnstile:
			scripts, frames = append(scripts, p.turnstileOrigin), append(frames, p.turnstileOrigin)
		case hubclient.CaptchaRecaptchaV3:
			scripts, frames = append(scripts, recaptchaScripts), append(frames, recaptchaFrames)
		}
		if len(f.Settings.EmbedOrigins) > 0 {
			ancestors = append([]string{"'self'"}, f.Settings.EmbedOrigins...)
		}
	}
	if len(frames) == 0 {
		frames = []string{"'none'"}
	}
	return strings.Join([]string{
		"default-src 'self'",
		"connect-src " + strings.Join(append([]string{"'self'"}, p.cfg.UploadOrigins...), " "),
		"script-src " + strings.Join(scripts, " "),
		"style-src 'self' 'nonce-" + nonce + "'",
		"img-src " + strings.Join(images, " "),
		"frame-src " + strings.Join(frames, " "),
		"object-src 'none'",
		"base-uri 'none'",
		"form-action " + strings.Join(posts, " "),
		"frame-ancestors " + strings.Join(ancestors, " "),
	}, "; ")
}

// imageOrigins returns the origins of the pictures a form shows, its
// theme's logo and cover, its image blocks' and options', a group's
// fields' included, each once: the page shows what the owner put in the
// form, and nothing else.
func imageOrigins(s *hubclient.Schema) []string {
	var out []string
	add := func(raw string) {
		if o := origin(raw); o != "" && !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	if t := s.Theme; t != nil {
		for _, img := range []*hubclient.ThemeImage{t.Logo, t.Cover} {
			if img != nil {
				add(img.Src)
			}
		}
	}
	var fields func([]hubclient.Field)
	fields = func(fs []hubclient.Field) {
		for i := range fs {
			f := &fs[i]
			if f.Type == hubclient.FieldImage {
				add(f.Src)
			}
			for _, o := range f.Options {
				add(o.Image)
			}
			fields(f.Fields)
		}
	}
	fields(s.Fields)
	return out
}

// origin returns the scheme and host of a URL, as a policy names it.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
