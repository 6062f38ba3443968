package console

import (
	"cmp"
	"context"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub/accounts"
)

// shell is what the frame around a signed-in user's page shows: who they
// are, their workspaces, the sites and forms of the current one, and where
// the page is among them.
type shell struct {
	Email      string
	CSRF       string
	Member     accounts.Member
	Workspaces []accounts.Member
	Sites      []navSite
	// Form is the form the page is about, nil on the other pages; Tab is
	// the form's tab the page shows.
	Form *navForm
	Tab  string
	// Bar is the Publish button and the history's link of a stored form
	// of the workspace, nil on other pages; Published says a version was
	// just published.
	Bar       *publishBar
	Published *publishedNotice
	// Path is the request's path, which marks the current link.
	Path string
	// Location is the user's time zone, UTC until they tell another.
	Location *time.Location
	// Deliveries is whether forms have a Deliveries tab; People whether
	// the console has the page of a person's data; Summary whether forms
	// have a Summary tab.
	Deliveries, People, Summary bool
	// Brand is whether the workspace has a brand's page.
	Brand bool
}

// navSite is one site and its forms in the navigation.
type navSite struct {
	Site  string
	Forms []navForm
}

// navForm is one form in the navigation. Stored forms are kept in the
// hub's database, which the console edits; the others come from the forms
// directory and are read-only.
type navForm struct {
	Site, Slug string
	Stored     bool
}

// Tabs of a form's pages.
const (
	tabOverview    = "Overview"
	tabBuild       = "Build"
	tabDesign      = "Design"
	tabSubmissions = "Submissions"
	tabSummary     = "Summary"
	tabDeliveries  = "Deliveries"
	tabShare       = "Share"
	tabSettings    = "Settings"
	// Pages of a stored form that are no tab.
	pageHistory = "History"
	pagePublish = "Publish"
)

// formTab is one tab of a form.
type formTab struct{ Name, Href string }

// tabs returns the form's tabs: Build and Settings for a stored form alone,
// Deliveries when the hub delivers.
func (s *shell) tabs() []formTab {
	f := s.Form
	base := formURL(f.Site, f.Slug)
	tabs := []formTab{{tabOverview, overviewPath(f.Site, f.Slug)}}
	if f.Stored {
		tabs = append(tabs, formTab{tabBuild, base}, formTab{tabDesign, designPath(f.Site, f.Slug)})
	}
	tabs = append(tabs, formTab{tabSubmissions, inboxPath(f.Site, f.Slug)})
	if s.Summary {
		tabs = append(tabs, formTab{tabSummary, summaryPath(f.Site, f.Slug)})
	}
	if s.Deliveries {
		tabs = append(tabs, formTab{tabDeliveries, deliveriesPath(f.Site, f.Slug)})
	}
	tabs = append(tabs, formTab{tabShare, sharePath(f.Site, f.Slug)})
	if f.Stored {
		tabs = append(tabs, formTab{tabSettings, settingsPath(f.Site, f.Slug)})
	}
	return tabs
}

// tabOf returns the tab of the form route pattern, by its first segment
// after the form's path: the builder's actions belong to Build.
func tabOf(route string) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(route, Path+"/forms/:site/:slug"), "/")
	first, _, _ := strings.Cut(rest, "/")
	switch first {
	case "overview":
		return tabOverview
	case "submissions", "export":
		return tabSubmissions
	case "summary":
		return tabSummary
	case "deliveries":
		return tabDeliveries
	case "share":
		return tabShare
	case "settings":
		return tabSettings
	case "design":
		return tabDesign
	case "history":
		return pageHistory
	case "publish":
		return pagePublish
	}
	return tabBuild
}

// crumb is one step of the breadcrumb; the last has no link.
type crumb struct{ Text, Href string }

// crumbs returns the breadcrumb of a page titled title.
func (s *shell) crumbs(title string) []crumb {
	home := cmp.Or(s.Member.Workspace, "Console")
	cs := []crumb{{home, Path}}
	if s.Form == nil {
		if s.Path == Path {
			return []crumb{{Text: home}}
		}
		return append(cs, crumb{Text: title})
	}
	return append(cs,
		crumb{s.Form.Site, sitesAnchor(s.Form.Site)},
		crumb{s.Form.Slug, overviewPath(s.Form.Site, s.Form.Slug)},
		crumb{Text: s.Tab})
}

// sitesAnchor is where the home page lists site.
func sitesAnchor(site string) string { return Path + "#site-" + site }

type shellKey struct{}

// shellOf returns the shell render put in ctx, nil on pages without one.
func shellOf(ctx context.Context) *shell {
	s, _ := ctx.Value(shellKey{}).(*shell)
	return s
}

// render writes component as an HTML page with status, in the app shell
// when a user is signed in. An htmx GET asks for a fragment, which needs
// no shell.
func (con *Console) render(c echo.Context, status int, component templ.Component) error {
	r := c.Request()
	ctx := r.Context()
	if _, ok := c.Get(userKey).(accounts.User); ok && !(r.Method == http.MethodGet && r.Header.Get("HX-Request") != "") {
		s, err := con.shell(c)
		if err != nil {
			return err
		}
		ctx = context.WithValue(ctx, shellKey{}, s)
	}
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	return component.Render(ctx, c.Response())
}

// shell gathers what the app shell shows for the request.
func (con *Console) shell(c echo.Context) (*shell, error) {
	ctx := c.Request().Context()
	u, _ := c.Get(userKey).(accounts.User)
	s := &shell{
		Email: u.Email, CSRF: con.csrfToken(c), Member: memberOf(c), Path: c.Request().URL.Path,
		Location: con.location(ctx), Deliveries: con.cfg.Deliveries != nil, People: con.cfg.Privacy != nil, Brand: con.cfg.Brands != nil,
		Summary: con.cfg.Summaries != nil && con.cfg.Inbox != nil,
	}
	ms, err := con.memberships(c)
	if err != nil {
		return nil, err
	}
	s.Workspaces = ms
	if s.Sites, err = con.navSites(c); err != nil {
		return nil, err
	}
	if site, slug := c.Param("site"), c.Param("slug"); site != "" && slug != "" {
		s.Form = &navForm{Site: site, Slug: slug}
		for _, ns := range s.Sites {
			if i := slices.IndexFunc(ns.Forms, func(f navForm) bool { return f.Site == site && f.Slug == slug }); i >= 0 {
				s.Form = &ns.Forms[i]
			}
		}
		s.Tab = tabOf(c.Path())
		// A form the navigation lists is of the member's workspace: one of
		// another workspace gets no bar, even on its error page.
		if s.Form.Stored && con.cfg.Store != nil {
			con.publishState(c, s)
		}
	}
	return s, nil
}

// navSites lists the sites of the request's workspace with their forms.
func (con *Console) navSites(c echo.Context) ([]navSite, error) {
	mine, err := con.workspaceSites(c)
	if err != nil || len(mine) == 0 {
		return nil, err
	}
	rows, err := con.forms(c)
	if err != nil {
		return nil, err
	}
	sites := make([]navSite, 0, len(mine))
	for _, site := range slices.Sorted(slices.Values(mine)) {
		ns := navSite{Site: site}
		for _, r := range rows {
			if r.Site == site {
				ns.Forms = append(ns.Forms, navForm{Site: r.Site, Slug: r.Slug, Stored: r.Stored})
			}
		}
		sites = append(sites, ns)
	}
	return sites, nil
}
