package console

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/hosted"
	"github.com/hubform/hubform/hubclient"
)

// A stored form has one draft: the console saves every edit into its
// newest version while that was never published (sqldb.DB.SaveFormDraft),
// and the Publish button at the top of each of the form's pages says what
// the draft changes and makes it live. The history of versions, where an
// earlier one is published again, is a page of its own.

// publishPath is the page that says what publishing the draft changes,
// and where the Publish button posts.
func publishPath(site, slug string) string { return formURL(site, slug) + "/publish" }

// historyPath is the page of a stored form's versions.
func historyPath(site, slug string) string { return formURL(site, slug) + "/history" }

// liveURL is the form's page on the hub, relative to the hub's root.
func liveURL(site, slug string) string { return hosted.Path + "/" + site + "/" + slug }

// registerPublish adds the Publish button's page and post, and the history.
func (con *Console) registerPublish(g *echo.Group) {
	g.GET("/forms/:site/:slug/publish", con.publishPage)
	g.POST("/forms/:site/:slug/publish", con.publishDraft)
	g.GET("/forms/:site/:slug/history", con.historyPage)
}

// pending is what the Publish button shows: the draft not live yet, the
// revision it was read at, which the post carries so that what is
// published is what was shown, and what it changes since the live version.
type pending struct {
	Site, Slug string
	Version    int64
	Revision   int64
	// First is whether no version is live yet.
	First bool
	// Changes say in a few words each what the draft changes.
	Changes []string
}

// pendingOf returns what publishing the form's newest version would
// change, or nil when it is the live version or the same file.
func (con *Console) pendingOf(ctx context.Context, site, slug string) (*pending, error) {
	rec, err := con.cfg.Store.FormRecord(ctx, site, slug)
	if err != nil {
		return nil, err
	}
	return con.pendingAt(ctx, rec)
}

func (con *Console) pendingAt(ctx context.Context, rec formsource.Record) (*pending, error) {
	if rec.LastVersion == rec.LiveVersion {
		return nil, nil
	}
	draft, err := con.cfg.Store.FormVersion(ctx, rec.Site, rec.Slug, rec.LastVersion)
	if err != nil {
		return nil, err
	}
	p := &pending{Site: rec.Site, Slug: rec.Slug, Version: rec.LastVersion, Revision: rec.Revision, First: rec.LiveVersion == 0}
	if p.First {
		p.Changes = firstChanges(draft.Body)
		return p, nil
	}
	live, err := con.cfg.Store.FormVersion(ctx, rec.Site, rec.Slug, rec.LiveVersion)
	if err != nil {
		return nil, err
	}
	if sameFile(live.Body, draft.Body) {
		return nil, nil
	}
	p.Changes = changesOf(live.Body, draft.Body)
	return p, nil
}

// sameFile reports whether two form files hold the same JSON, whatever
// their spacing and the order of their members: a save that changed
// nothing leaves nothing to publish.
func sameFile(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// firstChanges says what a form's first publication puts online.
func firstChanges(body []byte) []string {
	d := decodeFormFile(body)
	if d == nil {
		return []string{"The form goes online for the first time."}
	}
	n := len(d.Schema.Fields)
	if n == 1 {
		return []string{"The form goes online for the first time, with 1 field."}
	}
	return []string{fmt.Sprintf("The form goes online for the first time, with %d fields.", n)}
}

// settingNames are the words the Settings tab uses for the members of the
// file's "hub"; changesOf names a member it does not know by its name.
var settingNames = map[string]string{
	"allowedOrigins": "allowed origins", "allowedTypes": "accepted file types", "autoresponder": "confirmation e-mail",
	"captcha": "captcha", "captchaSecret": "captcha", "closesAt": "closing date", "draftDays": "saving to finish later",
	"hostedPage": "the form's own page", "maxFileSize": "largest file", "maxFiles": "number of files",
	"maxSubmissions": "most submissions", "minSeconds": "spam protection", "notify": "who is e-mailed each submission",
	"redirect": "page after sending", "resume": "saving to finish later", "retentionDays": "keeping submissions",
	"spam": "spam protection", "uniqueFields": "one answer per person", "webhooks": "webhooks",
}

// changesOf says in a few words each what draft changes of live, both
// form files: the fields added, removed and changed by their labels,
// their order and steps, the texts, the settings and the translations.
func changesOf(live, draft []byte) []string {
	a, b := decodeFormFile(live), decodeFormFile(draft)
	if a == nil || b == nil {
		return []string{"The form file changed."}
	}
	var out []string
	names := func(s *hubclient.Schema) []string {
		var ns []string
		for _, f := range s.Fields {
			ns = append(ns, f.Name)
		}
		return ns
	}
	before, after := names(a.Schema), names(b.Schema)
	var added, removed, changed []string
	for _, f := range b.Schema.Fields {
		old := a.Schema.Field(f.Name)
		switch {
		case old == nil:
			added = append(added, fieldWords(&f))
		case !sameJSON(*old, f):
			changed = append(changed, fieldWords(&f))
		}
	}
	for _, f := range a.Schema.Fields {
		if b.Schema.Field(f.Name) == nil {
			removed = append(removed, fieldWords(&f))
		}
	}
	out = appendList(out, "Added ", added)
	out = appendList(out, "Removed ", removed)
	out = appendList(out, "Changed ", changed)
	kept := func(ns []string, other *hubclient.Schema) []string {
		return slices.DeleteFunc(slices.Clone(ns), func(n string) bool { return other.Field(n) == nil })
	}
	if !slices.Equal(kept(before, b.Schema), kept(after, a.Schema)) {
		out = append(out, "Fields reordered")
	}
	if !sameJSON(a.Schema.Steps, b.Schema.Steps) {
		out = append(out, "Steps changed")
	}
	if a.Schema.Title != b.Schema.Title || a.Schema.Description != b.Schema.Description || !sameJSON(a.Schema.Buttons, b.Schema.Buttons) {
		out = append(out, "Title, description or buttons changed")
	}
	var settings []string
	for _, k := range slices.Sorted(maps.Keys(mergedKeys(a.Hub, b.Hub))) {
		if !bytes.Equal(compactJSON(a.Hub[k]), compactJSON(b.Hub[k])) {
			name := cmp.Or(settingNames[k], k)
			if !slices.Contains(settings, name) {
				settings = append(settings, name)
			}
		}
	}
	if len(settings) > 0 {
		out = append(out, "Settings changed: "+strings.Join(settings, ", "))
	}
	ta, tb := a.Schema.I18n.Translations, b.Schema.I18n.Translations
	var locAdded, locRemoved, locChanged []string
	for _, loc := range slices.Sorted(maps.Keys(mergedKeys(ta, tb))) {
		x, inA := ta[loc]
		y, inB := tb[loc]
		switch {
		case !inA:
			locAdded = append(locAdded, loc)
		case !inB:
			locRemoved = append(locRemoved, loc)
		case !sameJSON(x, y):
			locChanged = append(locChanged, loc)
		}
	}
	out = appendList(out, "Translation added: ", locAdded)
	out = appendList(out, "Translation removed: ", locRemoved)
	out = appendList(out, "Translation changed: ", locChanged)
	if len(out) == 0 {
		out = append(out, "Other changes in the form file")
	}
	return out
}

func appendList(out []string, prefix string, items []string) []string {
	if len(items) == 0 {
		return out
	}
	return append(out, prefix+strings.Join(items, ", "))
}

func mergedKeys[V any](a, b map[string]V) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// sameJSON reports whether a and b encode alike.
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y) || reflect.DeepEqual(a, b)
}

// compactJSON is raw without its spaces, to compare settings as values.
func compactJSON(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

// publishProps are what the publish page shows.
type publishProps struct {
	CSRF       string
	Site, Slug string
	// Pending is the draft to publish, nil when nothing is.
	Pending *pending
	// From is the form's page the owner came from, where they go back.
	From string
	// Problem says why the last post published nothing.
	Problem string
}

// publishPage says what publishing the draft changes, with the button
// that publishes it: the page of the Publish button without JavaScript
// or when its post was refused.
func (con *Console) publishPage(c echo.Context) error {
	if c.QueryParam("bar") != "" {
		// The bar alone, which console.js fetches again after an edit.
		site, slug := c.Param("site"), c.Param("slug")
		p, err := con.pendingOf(c.Request().Context(), site, slug)
		if err != nil {
			return con.formError(err)
		}
		return con.render(c, http.StatusOK, publishControl(publishBar{
			CSRF: con.csrfToken(c), Site: site, Slug: slug, Pending: p, Editor: true,
			From: formPageOr(site, slug, c.QueryParam("from")),
		}))
	}
	return con.renderPublish(c, http.StatusOK, "")
}

func (con *Console) renderPublish(c echo.Context, status int, problem string) error {
	site, slug := c.Param("site"), c.Param("slug")
	p, err := con.pendingOf(c.Request().Context(), site, slug)
	if err != nil {
		return con.formError(err)
	}
	return con.render(c, status, publishPage(publishProps{
		CSRF: con.csrfToken(c), Site: site, Slug: slug, Pending: p, Problem: problem,
		From: formPageOr(site, slug, c.FormValue("from")),
	}))
}

// formPageOr returns from, without the notices of its query, when it is
// a page of the form, else the form's Build tab: where a post of the
// form's pages goes back to.
func formPageOr(site, slug, from string) string {
	base := formURL(site, slug)
	if from != base && !strings.HasPrefix(from, base+"/") && !strings.HasPrefix(from, base+"?") ||
		strings.Contains(from, "//") || strings.ContainsAny(from, "\\\r\n") {
		return base
	}
	u, err := url.Parse(from)
	if err != nil {
		return base
	}
	q := u.Query()
	for _, k := range []string{"published", "saved", "moved", "retyped", "dropped", "editing"} {
		q.Del(k)
	}
	u.RawQuery = q.Encode()
	return u.RequestURI()
}

// publishDraft publishes the newest version, if the form is still at the
// revision the owner saw, and goes back to the page they were on with a
// notice and the live form's link. The version is checked again, as the
// admin API does.
func (con *Console) publishDraft(c echo.Context) error {
	ctx := c.Request().Context()
	site, slug := c.Param("site"), c.Param("slug")
	rec, err := con.cfg.Store.FormRecord(ctx, site, slug)
	if err != nil {
		return con.formError(err)
	}
	revision, _ := strconv.ParseInt(c.FormValue("base"), 10, 64)
	if revision != rec.Revision {
		return con.renderPublish(c, http.StatusConflict, "The form was saved again since that page was loaded: nothing was published. Here is what publishing now would change.")
	}
	v, err := con.cfg.Store.FormVersion(ctx, site, slug, rec.LastVersion)
	if err != nil {
		return con.formError(err)
	}
	if _, err := formsource.Parse(site, slug, v.Body); err != nil {
		return con.renderPublish(c, http.StatusUnprocessableEntity, "The draft does not validate, so it was not published: fix it in the JSON file of the Build tab.")
	}
	if con.inDirectory(site, slug) {
		return con.renderPublish(c, http.StatusConflict, "The forms directory holds this form and wins over the database: it cannot be published.")
	}
	n, err := con.cfg.FormChanges.PublishDraft(ctx, actorOf(c), site, slug, revision)
	if he := (*hub.Error)(nil); errors.As(err, &he) && he.Status == http.StatusConflict {
		return con.renderPublish(c, http.StatusConflict, "The form was saved again since that page was loaded: nothing was published. Here is what publishing now would change.")
	}
	if err != nil {
		return con.changeError(err)
	}
	return c.Redirect(http.StatusSeeOther, withQuery(formPageOr(site, slug, c.FormValue("from")), "published", strconv.FormatInt(n, 10)))
}

// publishedNotice is what the shell says after a version was published:
// the version, and the live form's link when the hub serves its page.
type publishedNotice struct {
	Version int64
	// Live is the form's page on the hub, "" when its settings turn it off.
	Live string
}

// publishedOf returns the notice the query asks for, nil for none.
func (con *Console) publishedOf(c echo.Context, site, slug string) *publishedNotice {
	n, err := strconv.ParseInt(c.QueryParam("published"), 10, 64)
	if err != nil || n < 1 {
		return nil
	}
	pn := &publishedNotice{Version: n}
	if v, err := con.cfg.Store.FormVersion(c.Request().Context(), site, slug, n); err == nil {
		if f, err := formsource.Parse(site, slug, v.Body); err == nil && f.Settings.Hosted() {
			pn.Live = liveURL(site, slug)
		}
	}
	return pn
}

// historyProps are what the history page shows.
type historyProps struct {
	CSRF       string
	Site, Slug string
	Record     formsource.Record
	Versions   []formsource.Version
	// Notice says what was just done.
	Notice string
	// Editor is whether the member may publish.
	Editor bool
}

// historyPage lists the form's versions, newest first, with who saved
// each and when, and a button that publishes any version not live: a
// rollback for an earlier one. The draft stays what it is.
func (con *Console) historyPage(c echo.Context) error {
	ctx := c.Request().Context()
	site, slug := c.Param("site"), c.Param("slug")
	p := historyProps{CSRF: con.csrfToken(c), Site: site, Slug: slug, Editor: memberOf(c).Role.Allows(accounts.Editor)}
	var err error
	if p.Record, err = con.cfg.Store.FormRecord(ctx, site, slug); err != nil {
		return con.formError(err)
	}
	if p.Versions, err = con.cfg.Store.FormVersions(ctx, site, slug); err != nil {
		return con.formError(err)
	}
	return con.render(c, http.StatusOK, historyPage(p))
}

// versionStateWords names a version's state for people.
func versionStateWords(r formsource.Record, v formsource.Version) string {
	switch versionState(r, v) {
	case "live":
		return "Live"
	case "draft":
		return "Draft"
	case "unpublished":
		return "Not published"
	}
	return "Earlier"
}

// publishState fills the shell's publish bar, and the notice of a version
// just published. The bar is a help: a failure to read it is logged and
// the page shown without it.
func (con *Console) publishState(c echo.Context, s *shell) {
	ctx := c.Request().Context()
	site, slug := s.Form.Site, s.Form.Slug
	b := &publishBar{CSRF: s.CSRF, Site: site, Slug: slug, Editor: s.Member.Role.Allows(accounts.Editor), From: barFrom(c, s), OnHistory: s.Tab == pageHistory}
	if b.Editor {
		p, err := con.pendingOf(ctx, site, slug)
		if err != nil {
			con.cfg.Logger.WarnContext(ctx, "publish bar not shown", slog.Any("error", err))
			return
		}
		b.Pending = p
	}
	s.Bar = b
	s.Published = con.publishedOf(c, site, slug)
}

// barFrom is the page publishing goes back to: the page shown, without
// the notices of its query, or the tab of a post's answer.
func barFrom(c echo.Context, s *shell) string {
	r := c.Request()
	if r.Method != http.MethodGet {
		for _, t := range s.tabs() {
			if t.Name == s.Tab {
				return t.Href
			}
		}
		return formURL(s.Form.Site, s.Form.Slug)
	}
	return formPageOr(s.Form.Site, s.Form.Slug, r.URL.RequestURI())
}
